#!/bin/bash
# ready/<entry>/firmware on simulated NICs (tests/nicsim): devlink INFO_GET
# through the transport. An E810 at NVM 4.91 is ok, one at 4.80 is drift
# with the fix in one line (check exits 2, apply 0: never failed); a
# ConnectX says its fw.version; a port whose PCI function has no devlink
# instance (a veth), or a kernel without devlink, is unsupported. --only
# ready changes nothing: the root's files and the NICs' state stay as they
# were (only the simulator's get counters move). Driver and PCI address
# come from a fixture sysfs under --root, the links from --netns.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/nicsim/nicsim-lib.sh"

NS=$(new_netns readyfw) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
for l in e810a e810b cx0 v0; do
	veth_pair "$NS" $l || { echo "1..0 # SKIP no veth"; exit 0; }
done
export NICSIM_STATE=$TEST_TMP/state NICSIM_CONFIG=$TEST_TMP/nicsim.conf
mkdir -p "$NICSIM_STATE"
cat >"$NICSIM_CONFIG" <<'CONF'
# v0 is not simulated: a plain veth, no devlink instance
e810a e810 pci=0000:3b:00.0
e810b e810 pci=0000:3b:00.1 nvm=4.80
cx0 connectx pci=0000:c1:00.0
CONF

ROOT=$TEST_TMP/root
CONF=$ROOT/etc/halo-provision/halo.conf
mkdir -p "$ROOT/etc/halo-provision" "$ROOT/sys/bus/pci/devices"
# fake_nic, and the PCI bus's own link to the function, as the kernel has.
nic() {
	fake_nic "$1" "$2" "$3"
	ln -s "../../../devices/pci0000:00/$2" "$ROOT/sys/bus/pci/devices/$2"
}
nic e810a 0000:3b:00.0 ice
nic e810b 0000:3b:00.1 ice
nic cx0 0000:c1:00.0 mlx5_core
nic v0 0000:c4:00.0 mlx5_core   # says mlx5_core, has no devlink
mkdir -p "$ROOT/sys/devices/pci0000:00/0000:c5:00.0"   # bound to no driver
ln -s ../../../devices/pci0000:00/0000:c5:00.0 "$ROOT/sys/bus/pci/devices/0000:c5:00.0"

write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "rdma0"; match = { pci = "0000:3b:00.0"; }; },
  { name = "rdma1"; match = { pci = "0000:3b:00.1"; }; },
  { name = "cx0" },
  { name = "v0";    match = { pci = "0000:c4:00.0"; }; },
  { name = "nodrv"; match = { pci = "0000:c5:00.0"; }; },
  { name = "named" }
);
CONF

# Every file of the tree, /sys included.
snap() {
	(cd "$1" && find . -print0 | sort -z | xargs -0 stat -c '%i %.9Y %a %s %n'
	 find . -type f -print0 | sort -z | xargs -0 -r sha256sum)
}
# The NICs' state without the request counters.
nics() { for f in "$NICSIM_STATE"/*.json; do jq -c 'del(.requests)' "$f"; done; }
halo() {
	env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		LD_PRELOAD="$NICSIM_SO" "$HALO" -c "$CONF" --root "$ROOT" --netns "$NS" \
		--only ready "$@" 2>"$TEST_TMP/stderr"
}
run() { out=$(halo "$@"); rc=$?; err=$(cat "$TEST_TMP/stderr"); }
item() { jq -r --arg k "$1" '.items[] | select(.key==$k) | '"$2" <<<"$out"; }

# --- the simulator answers INFO_GET as ice and mlx5 do ---
probe "$NS" devlink-info pci/0000:3b:00.0
is "$rc" 0 "nicsim: INFO_GET answered"
like "$out" $'running fw.psid.api 4.91\nstored fw.psid.api 4.91' "e810: NVM 4.91 by default, running then stored"
like "$out" $'^serial [0-9a-f-]+\nfixed board.id ' "e810: the DSN first, then board.id"
like "$out" 'running fw.mgmt [0-9.]+' "e810: fw.mgmt"
like "$out" 'running fw.bundle_id 0x[0-9a-f]{8}' "e810: fw.bundle_id (EETRACK)"
like "$out" $'\ndriver ice$' "e810: the driver's name last, as the core puts it"
probe "$NS" devlink-info pci/0000:3b:00.1
like "$out" 'running fw.psid.api 4.80' "nvm=4.80 overrides the NVM"
probe "$NS" devlink-info pci/0000:c1:00.0
like "$out" $'fixed fw.psid MT_[0-9]+\nrunning fw.version 16.35.2000' "connectx: fw.version 16.35.2000"
like "$out" $'\ndriver mlx5_core$' "connectx: driver mlx5_core"
probe "$NS" devlink-info pci/0000:c4:00.0
is "$rc" 1 "a handle nobody simulates: an error ACK"
like "$out" 'error -19' "...ENODEV, as the kernel says for an unknown handle"
is "$(state e810b .firmware)" '"4.80"' "state: the firmware member"
for bad in "e810x e810 nvm=4.9" "e810x e810 nvm=4.91.0" "e810x e810 fw=16.35.2000" "cx1 connectx fw=16.35.20" "cx1 connectx nvm=4.91"; do
	echo "$bad" >"$TEST_TMP/bad.conf"
	NICSIM_CONFIG=$TEST_TMP/bad.conf probe "$NS" family devlink
	{ [ "$rc" = 99 ] && [[ $err == *"nicsim: $TEST_TMP/bad.conf:1: "* ]]; }
	ok $? "nicsim refuses '$bad' (exit 99, file:line)"
done

# --- check: ok, drift, ok, unsupported ---
before_root=$(snap "$ROOT")
before_sys_etc=$(snap "$ROOT/sys"; snap "$ROOT/etc")
before_nics=$(nics)
gets=$(state e810a .requests.devlink.get)
run --check --json
is "$rc" 2 "check: exit 2 (the old NVM is drift)"
[ "$rc" = 2 ] || diag "$out $err"
is "$(item ready/rdma0/firmware .outcome)" ok "E810 at 4.91: ok"
is "$(item ready/rdma0/firmware .wanted)" "NVM >= 4.91" "E810: the minimum is what it wants"
is "$(item ready/rdma0/firmware .observed)" "NVM 4.91 (fw.bundle_id 0x8001f1a3)" "E810: the NVM and its EETRACK said"
is "$(item ready/rdma1/firmware .outcome)" drift "E810 at 4.80: drift"
is "$(item ready/rdma1/firmware .message)" \
	"rdma1 (0000:3b:00.1): E810 NVM 4.80 is older than 4.91: update the NVM with Intel's NVM update tool; ethtool -i shows firmware-version" \
	"drift: the fix in one line"
is "$(item ready/cx0/firmware .outcome)" ok "ConnectX: ok"
is "$(item ready/cx0/firmware .observed)" "fw.version 16.35.2000" "ConnectX: its fw.version said"
is "$(item ready/v0/firmware .outcome)" unsupported "no devlink instance (a veth): unsupported"
is "$(item ready/v0/firmware .message)" "devlink has no info for pci/0000:c4:00.0: No such device" "...with the reason"
is "$(item ready/nodrv/firmware .outcome)" unsupported "no driver bound: unsupported"
is "$(item ready/nodrv/firmware .message)" "no driver is bound to 0000:c5:00.0" "...with the reason"
is "$(item ready/cx0/pcie-link .message)" "0000:c1:00.0 has no PCIe link attributes in sysfs" \
	"--only ready resolves an entry matched by name alone: its PCI function from the live link"
is "$(item ready/named/firmware .outcome)" unsupported "no link, no PCI address: unsupported"
is "$(item ready/named/firmware .message)" 'no link matches named: its PCI device is not known' "...with the reason"
is "$(item ready/named/pcie-link .message)" 'no link matches named: its PCI device is not known' "...for the PCIe link too"
is "$(jq -r .failed <<<"$out")" false "nothing failed"
is "$(jq -c '[.items[] | .subsystem] | unique' <<<"$out")" '["ready"]' "--only ready: only readiness items"
is "$(state e810a .requests.devlink.get)" $((gets + 1)) "one INFO_GET per NIC"
is "$(snap "$ROOT")" "$before_root" "check: the root is unchanged"
is "$(nics)" "$before_nics" "check: the NICs' state is unchanged"

# Apply never applies them, so never fails on them (an apply takes the
# run lock under /run: compare the rest).
run --json
is "$rc" 0 "apply: exit 0 (nothing it can change, nothing failed)"
is "$(item ready/rdma1/firmware .outcome)" drift "apply: the old NVM is still drift"
is "$(snap "$ROOT/sys"; snap "$ROOT/etc")" "$before_sys_etc" "apply: sys and etc are unchanged"
is "$(nics)" "$before_nics" "apply: the NICs' state is unchanged"
is "$(jq -c '[.[] | .requests | .dcbnl.set + .devlink.set + .ethtool.set] | add' -s "$NICSIM_STATE"/*.json)" 0 \
	"no set request ever reached a NIC"

# The NVM updated behind the tool's back (the simulator's state), and an
# NVM above 4.99 in ice's hex digits.
jq '.firmware = "4.a0"' "$NICSIM_STATE/e810b.json" >"$TEST_TMP/s" && mv "$TEST_TMP/s" "$NICSIM_STATE/e810b.json"
run --check --json
is "$rc" 0 "NVM 4.a0: check clean"
is "$(item ready/rdma1/firmware .observed)" "NVM 4.a0 (fw.bundle_id 0x8001f1a3)" "the new NVM is seen"
jq '.firmware = "4.90"' "$NICSIM_STATE/e810a.json" >"$TEST_TMP/s" && mv "$TEST_TMP/s" "$NICSIM_STATE/e810a.json"
run --check --json
is "$(item ready/rdma0/firmware .outcome)" drift "NVM 4.90: one below the minimum is drift"

# --interface: that NIC's firmware only.
run --check --json --interface rdma1
is "$(jq -c '[.items[] | .key]' <<<"$out")" '["ready/rdma1/pcie-link","ready/rdma1/firmware"]' \
	"--interface rdma1: its own readiness items only"

# --- no simulator: this kernel's own devlink (none here, or no such device) ---
out=$(env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	"$HALO" -c "$CONF" --root "$ROOT" --netns "$NS" --only ready --check --json 2>"$TEST_TMP/stderr")
rc=$?
is "$rc" 0 "kernel devlink: exit 0"
is "$(item ready/rdma0/firmware .outcome)" unsupported "kernel devlink: unsupported, never failed"
like "$(item ready/rdma0/firmware .message)" '^devlink has no info for pci/0000:3b:00.0: (No such file or directory|No such device)$' \
	"...with the kernel's reason"

# --- a tree without --netns: not the running kernel's to answer ---
run_halo -c "$CONF" --root "$ROOT" --only ready --check --json
is "$rc" 0 "--root without --netns: exit 0"
like "$(item ready/rdma0/firmware .message)" 'is a tree: the firmware is asked of the running kernel' \
	"...unsupported, with the reason"
is "$(jq .stats.netlink_requests <<<"$out")" 0 "...and no netlink request"
is "$(item ready/cx0/firmware .message)" \
	"the PCI device of cx0 is not known: a tree under --root has no links (give --netns, or match.pci)" \
	"...and an entry without match.pci says what would tell its device"
is "$(snap "$ROOT/sys"; snap "$ROOT/etc")" "$before_sys_etc" "sys and etc are still unchanged"

done_testing
