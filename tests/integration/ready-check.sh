#!/bin/bash
# Readiness items (--only ready) on fixture /proc, /sys and /etc/security
# trees shaped like the kernel's: a good node is in sync (exit 0); a bad
# one (old kernel, x4 riser, 4 GiB UMA, GTT not applied, no iommu=pt,
# 8 MiB memlock) is drift with the fix in one line (check and dry-run
# exit 2, apply 0: never failed); a root without the facts is
# unsupported; nothing is ever written; the thresholds are configurable.
source "$top_srcdir/tests/lib/tap.sh"

# Every file of the tree, /proc and /sys included.
snap() {
	(cd "$1" && find . -print0 | sort -z | xargs -0 stat -c '%i %.9Y %a %s %n'
	 find . -type f -print0 | sort -z | xargs -0 -r sha256sum)
}

# make_tree DIR KERNEL CMDLINE CUR_WIDTH VRAM_MIB GTT_MIB MEMLOCK
make_tree() {
	local r=$1 pci=$1/sys/devices/pci0000:00/0000:c2:00.0
	mkdir -p "$r/proc/sys/kernel" "$pci" "$r/sys/bus/pci/devices" \
		"$r/sys/class/drm/card1-eDP-1" "$r/sys/devices/pci0000:00/0000:c5:00.0/drm/card1" \
		"$r/sys/kernel/iommu_groups/0" "$r/sys/kernel/iommu_groups/1" \
		"$r/etc/security/limits.d"
	echo "$2" >"$r/proc/sys/kernel/osrelease"
	echo "$3" >"$r/proc/cmdline"
	ln -s ../../../devices/pci0000:00/0000:c2:00.0 "$r/sys/bus/pci/devices/0000:c2:00.0"
	echo "16.0 GT/s PCIe" >"$pci/current_link_speed"
	echo "16.0 GT/s PCIe" >"$pci/max_link_speed"
	echo "$4" >"$pci/current_link_width"
	echo 16 >"$pci/max_link_width"
	local gpu=$r/sys/devices/pci0000:00/0000:c5:00.0
	ln -s ../../devices/pci0000:00/0000:c5:00.0/drm/card1 "$r/sys/class/drm/card1"
	ln -s ../../../0000:c5:00.0 "$gpu/drm/card1/device"
	printf 'DRIVER=amdgpu\nPCI_CLASS=38000\n' >"$gpu/uevent"
	echo $(($5 << 20)) >"$gpu/mem_info_vram_total"
	echo $(($6 << 20)) >"$gpu/mem_info_gtt_total"
	printf '# defaults\n*  soft  memlock  %s\n*  hard  memlock  %s\n' "$7" "$7" \
		>"$r/etc/security/limits.conf"
}

CONF=$TEST_TMP/halo.conf
write_conf "$TEST_TMP/low.conf" <<'EOC'
version = 1;
ready = { kernel_min = "6.12"; uma_max_mib = 4096; };
EOC
write_conf "$CONF" <<'EOC'
version = 1;
boot = { iommu = "pt"; gtt_mib = 126976; };
interfaces = ( { name = "rdma0"; match = { pci = "0000:c2:00.0"; }; } );
EOC

GOOD=$TEST_TMP/good BAD=$TEST_TMP/bad
make_tree "$GOOD" 6.18.5-200.fc43.x86_64 "root=UUID=1 iommu=pt quiet" 16 512 126976 8192
echo '* - memlock unlimited' >"$GOOD/etc/security/limits.d/90-rdma.conf"
make_tree "$BAD" 6.12.9-amd64 "root=UUID=1 quiet" 4 4096 63973 8192
rm -r "$BAD/sys/kernel/iommu_groups"/*

# --- a good node ---
before=$(snap "$GOOD")
run_halo --check --root "$GOOD" -c "$CONF" --only ready --json
is "$rc" 0 "good tree: check is in sync"
item() { # item KEY FIELD: a field of one item of $out
	printf '%s' "$out" | python3 -c 'import json,sys
d=json.load(sys.stdin)
print(next((str(i[sys.argv[2]]) for i in d["items"] if i["key"]==sys.argv[1]), "missing"))' "$1" "$2"
}
for k in kernel uma-carveout gtt iommu memlock rdma0/pcie-link; do
	is "$(item ready/$k outcome)" ok "good tree: ready/$k ok"
done
like "$(item ready/rdma0/pcie-link observed)" 'x16 16.0 GT/s of x16 16.0 GT/s, ceiling ~252 Gb/s' \
	"good tree: the link and its ceiling are said"
is "$(item ready/rdma0/pcie-link interface)/$(item ready/kernel interface)" rdma0/ \
	"the NIC's items belong to their interfaces entry, the node's to none"
is "$(printf '%s' "$out" | python3 -c 'import json,sys; print(sorted({i["subsystem"] for i in json.load(sys.stdin)["items"]}))')" \
	"['ready']" "--only ready runs only the readiness items (boot is configured)"
is "$(snap "$GOOD")" "$before" "good tree: check wrote nothing"

# --- a bad node: each fact is drift with its fix ---
before=$(snap "$BAD")
run_halo --check --root "$BAD" -c "$CONF" --only ready --json
is "$rc" 2 "bad tree: check exits 2 (drift), not 4"
for k in kernel uma-carveout gtt iommu memlock rdma0/pcie-link; do
	is "$(item ready/$k outcome)" drift "bad tree: ready/$k drift"
done
like "$(item ready/kernel message)" '^kernel 6\.12\.9 is older than 6\.18\.4: install' "kernel: the fix"
like "$(item ready/rdma0/pcie-link message)" 'trained at x4 16\.0 GT/s, below its x16 16\.0 GT/s: ~63 of ~252 Gb/s' \
	"pcie: x4 Gen4 is ~63 Gb/s"
like "$(item ready/uma-carveout message)" 'reserves 4096 MiB .*minimum \(512 MiB\) in the BIOS' "uma: the fix"
like "$(item ready/gtt message)" 'uses 63973 MiB of GTT, not 126976: reboot' "gtt: the fix"
like "$(item ready/iommu message)" 'booted with no iommu=, the config asks iommu=pt' "iommu: the fix"
like "$(item ready/memlock observed)" '^soft 8192 KiB, hard 8192 KiB$' "memlock: what the session gets"
like "$(item ready/memlock message)" 'set access.memlock' "memlock: the fix"
run_halo --dry-run --root "$BAD" -c "$CONF" --only ready
is "$rc" 2 "bad tree: dry-run exits 2"
is "$(snap "$BAD")" "$before" "bad tree: check and dry-run wrote nothing"

# Apply never applies them, so never fails on them: the facts stay drift.
mkdir -p "$BAD/var/lib/halo-provision"
before=$(cd "$BAD" && snap proc; snap sys; snap etc)
run_halo --root "$BAD" -c "$CONF" --only ready --json
is "$rc" 0 "bad tree: apply exits 0 (nothing it can change, nothing failed)"
is "$(item ready/kernel outcome)" drift "bad tree: apply still reports the drift"
is "$(cd "$BAD" && snap proc; snap sys; snap etc)" "$before" "bad tree: apply changed nothing in proc, sys, etc"

# An iommu=pt kernel without IOMMU groups: the firmware has it off.
echo "root=UUID=1 iommu=pt" >"$BAD/proc/cmdline"
run_halo --check --root "$BAD" -c "$CONF" --only ready --json
like "$(item ready/iommu message)" 'no IOMMU groups: .*enable IOMMU' "iommu: off in the firmware"

# Not in a default run: only when --only names them.
run_halo --check --root "$BAD" -c "$TEST_TMP/low.conf" --json 2>/dev/null || true
is "$(item ready/kernel outcome)" missing "a run without --only ready has no readiness items"

# --- thresholds from the config ---
run_halo --check --root "$BAD" -c "$TEST_TMP/low.conf" --only ready --json
is "$(item ready/kernel outcome)" ok "ready.kernel_min = 6.12 accepts 6.12.9"
is "$(item ready/uma-carveout outcome)" ok "ready.uma_max_mib = 4096 accepts 4 GiB"
is "$(item ready/gtt outcome)" ok "no boot.gtt_mib: the GTT is only reported"
is "$(item ready/gtt observed)" "63973 MiB" "gtt: what the driver uses"
write_conf "$TEST_TMP/badkey.conf" <<'EOC'
version = 1;
ready = {
  kernel_min = "six";
};
EOC
run_halo --check --root "$BAD" -c "$TEST_TMP/badkey.conf" --only ready
is "$rc" 1 "a bad ready.kernel_min: exit 1"
like "$err" 'badkey.conf:3: ready.kernel_min: "six" is not a kernel version' "...with file:line"

# --- a root without these facts: unsupported, never failed ---
EMPTY=$TEST_TMP/empty
mkdir -p "$EMPTY"
run_halo --check --root "$EMPTY" -c "$CONF" --only ready --json
is "$rc" 0 "empty root: exit 0"
for k in kernel uma-carveout gtt iommu memlock rdma0/pcie-link rdma0/firmware; do
	is "$(item ready/$k outcome)" unsupported "empty root: ready/$k unsupported"
done
is "$(item ready/rdma0/firmware message)" "no driver is bound to 0000:c2:00.0" \
	"firmware: no driver, no firmware to ask for (ready-firmware.sh has the NICs)"
like "$(item ready/memlock message)" 'no pam_limits files' "memlock: why unsupported"
is "$(find "$EMPTY" | wc -l)" 1 "empty root: still empty"

# --- the slot: a link trains to what both ends support ---
# slot_tree DIR SLOT_WIDTH SLOT_SPEED CUR_WIDTH CUR_SPEED: an x16 Gen4 NIC
# behind the upstream port 0000:00:01.1 (its parent directory, as the
# kernel lays out /sys/devices), trained at CUR.
slot_tree() {
	local r=$1 br=$1/sys/devices/pci0000:00/0000:00:01.1
	local pci=$br/0000:c2:00.0
	mkdir -p "$pci" "$r/sys/bus/pci/devices"
	ln -s ../../../devices/pci0000:00/0000:00:01.1/0000:c2:00.0 "$r/sys/bus/pci/devices/0000:c2:00.0"
	echo "$3" >"$br/max_link_speed"
	echo "$2" >"$br/max_link_width"
	echo "16.0 GT/s PCIe" >"$br/current_link_speed"
	echo "$2" >"$br/current_link_width"
	echo "$5" >"$pci/current_link_speed"
	echo "$4" >"$pci/current_link_width"
	echo "16.0 GT/s PCIe" >"$pci/max_link_speed"
	echo 16 >"$pci/max_link_width"
}
slot_case() { # slot_case NAME SLOT_W SLOT_SPEED CUR_W CUR_SPEED
	rm -rf "${TEST_TMP:?}/slot"
	slot_tree "$TEST_TMP/slot" "$2" "$3" "$4" "$5"
	run_halo --check --root "$TEST_TMP/slot" -c "$CONF" --only ready --json
}
slot_case "x4 slot" 4 "16.0 GT/s PCIe" 4 "16.0 GT/s PCIe"
is "$(item ready/rdma0/pcie-link outcome)" ok "an x16 NIC at x4 in an x4 slot: ok"
is "$(item ready/rdma0/pcie-link observed)" \
	"0000:c2:00.0: x4 16.0 GT/s of x16 16.0 GT/s, slot x4 16.0 GT/s, ceiling ~63 Gb/s" \
	"...the slot and the ceiling are said"
is "$(item ready/rdma0/pcie-link message)" \
	"rdma0 (0000:c2:00.0) is at the most it and its slot both support, x4 16.0 GT/s: ~63 of the ~252 Gb/s the NIC could use in a wider slot" \
	"...and what a wider slot would give"
slot_case "x4 Gen5 slot" 4 "32.0 GT/s PCIe" 4 "16.0 GT/s PCIe"
is "$(item ready/rdma0/pcie-link outcome)" ok "an x16 Gen4 NIC at x4 in an x4 Gen5 slot: ok"
like "$(item ready/rdma0/pcie-link message)" 'could use in a wider slot$' "...only a wider slot would help, not a faster one"
slot_case "x4 Gen3 slot" 4 "8.0 GT/s PCIe" 4 "8.0 GT/s PCIe"
like "$(item ready/rdma0/pcie-link message)" 'x4 8\.0 GT/s: ~32 of the ~252 Gb/s the NIC could use in a wider and faster slot$' \
	"an x16 Gen4 NIC in an x4 Gen3 slot: a wider and faster slot"
slot_case "Gen3 x16 slot" 16 "8.0 GT/s PCIe" 16 "8.0 GT/s PCIe"
like "$(item ready/rdma0/pcie-link message)" 'could use in a faster slot$' "in an x16 Gen3 slot: a faster slot"
# The NIC's own link unknown: the kernel's "Unknown" when the link is
# down or for a virtual function (Link Status reads zero).
slot_case "link down" 4 "16.0 GT/s PCIe" 0 "Unknown"
is "$rc/$(item ready/rdma0/pcie-link outcome)" 0/unsupported "a NIC whose link speed is Unknown: unsupported, check exits 0"
is "$(item ready/rdma0/pcie-link message)" \
	"rdma0 (0000:c2:00.0) reports no PCIe link to compare (current_link_speed \"Unknown\"): a virtual function, a link that is down, or a speed this kernel cannot name" \
	"...and says why"
run_halo --root "$TEST_TMP/slot" -c "$CONF" --only ready
is "$rc" 0 "...an apply does not fail on it"
slot_case "no trained width" 4 "16.0 GT/s PCIe" 0 "16.0 GT/s PCIe"
is "$(item ready/rdma0/pcie-link outcome)" unsupported "a trained width of 0: unsupported"
like "$(item ready/rdma0/pcie-link message)" '\(link width 0\)' "...naming the width"
slot_case "capability unknown" 4 "16.0 GT/s PCIe" 4 "16.0 GT/s PCIe"
echo Unknown >"$TEST_TMP/slot/sys/devices/pci0000:00/0000:00:01.1/0000:c2:00.0/max_link_speed"
run_halo --check --root "$TEST_TMP/slot" -c "$CONF" --only ready --json
like "$(item ready/rdma0/pcie-link outcome)/$(item ready/rdma0/pcie-link message)" '^unsupported/.*\(max_link_speed "Unknown"\)' \
	"a NIC maximum the kernel calls Unknown: unsupported"
slot_case "x4 slot, x2 link" 4 "16.0 GT/s PCIe" 2 "16.0 GT/s PCIe"
is "$rc" 2 "x2 in an x4 slot: check exits 2"
is "$(item ready/rdma0/pcie-link outcome)" drift "x2 in an x4 slot: drift"
is "$(item ready/rdma0/pcie-link message)" \
	"rdma0 (0000:c2:00.0) trained at x2 16.0 GT/s, below the x4 16.0 GT/s both it and its slot support: ~32 of ~63 Gb/s; reseat it (and its riser), check the BIOS link speed setting" \
	"...below what both ends support, with the fix"
slot_case "Gen3 slot" 16 "8.0 GT/s PCIe" 16 "8.0 GT/s PCIe"
is "$(item ready/rdma0/pcie-link outcome)" ok "a Gen4 NIC at Gen3 in a Gen3 slot: ok"
slot_case "Gen3 slot, Gen1 link" 16 "8.0 GT/s PCIe" 16 "2.5 GT/s PCIe"
is "$(item ready/rdma0/pcie-link outcome)" drift "at 2.5 GT/s in a Gen3 slot: drift"
slot_case "full slot, x4 link" 16 "16.0 GT/s PCIe" 4 "16.0 GT/s PCIe"
is "$(item ready/rdma0/pcie-link outcome)" drift "x4 in a full x16 slot: drift"
like "$(item ready/rdma0/pcie-link message)" 'below the x16 16\.0 GT/s both it and its slot support: ~63 of ~252 Gb/s' \
	"...the full slot's ceiling"
slot_case "slot speed unknown" 4 "Unknown" 4 "16.0 GT/s PCIe"
is "$(item ready/rdma0/pcie-link outcome)" ok "a slot speed the kernel calls Unknown: the width still counts"
like "$(item ready/rdma0/pcie-link observed)" ', slot x4 \? GT/s, ' "...and the unknown speed is said"
slot_case "bad slot width" four "16.0 GT/s PCIe" 4 "16.0 GT/s PCIe"
is "$(item ready/rdma0/pcie-link outcome)" failed "a slot width that is no number: failed"
like "$(item ready/rdma0/pcie-link message)" '0000:c2:00\.0/\.\./max_link_width is not a link width' \
	"...naming the attribute"
slot_case "bad slot speed" 4 "fast" 4 "16.0 GT/s PCIe"
like "$(item ready/rdma0/pcie-link message)" 'max_link_speed: "fast" is not a link speed' \
	"a slot speed that is no speed: named"
before=$(snap "$TEST_TMP/slot")
run_halo --check --root "$TEST_TMP/slot" -c "$CONF" --only ready
is "$(snap "$TEST_TMP/slot")" "$before" "the slot cases wrote nothing"

# The amdgpu card is the one the driver is bound to, as boot/gtt finds
# it: not card0 (a firmware framebuffer here), and one without an
# attribute is named, not taken for no card.
DRM=$TEST_TMP/drm
make_tree "$DRM" 6.18.5-200.fc43.x86_64 "root=UUID=1 iommu=pt quiet" 16 512 126976 8192
mkdir -p "$DRM/sys/devices/platform/simple-framebuffer.0/drm/card0"
ln -s ../../devices/platform/simple-framebuffer.0/drm/card0 "$DRM/sys/class/drm/card0"
ln -s ../../../simple-framebuffer.0 "$DRM/sys/devices/platform/simple-framebuffer.0/drm/card0/device"
printf 'DRIVER=simple-framebuffer\n' >"$DRM/sys/devices/platform/simple-framebuffer.0/uevent"
rm "$DRM/sys/devices/pci0000:00/0000:c5:00.0/mem_info_vram_total"
run_halo --check --root "$DRM" -c "$CONF" --only ready --json
is "$(item ready/gtt outcome)" ok "card0 another driver's: ready/gtt reads the amdgpu card1"
is "$(item ready/uma-carveout outcome)" unsupported "card1 without mem_info_vram_total: unsupported"
is "$(item ready/uma-carveout message)" "/sys/class/drm/card1/device/mem_info_vram_total is absent" \
	"...naming the attribute, not \"no amdgpu card\""

done_testing
