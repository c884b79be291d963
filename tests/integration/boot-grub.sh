#!/bin/bash
# boot-grub: plain GRUB, GRUB_CMDLINE_LINUX edited in place in a CRLF file
# with single quotes, a ${VAR} reference, kernel-style quotes, a trailing
# comment and no final newline: every other byte stays.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/fixtures/boot/lib.sh"

R=$(boot_root grub grub)
G=$R/etc/default/grub
write_conf "$TEST_TMP/halo.conf" <<'CONF'
version = 1;
boot = { iommu = "pt"; pci_realloc = true; remove = [ "splash" ]; };
CONF

run_halo --root "$R" -c "$TEST_TMP/halo.conf"
is "$rc" 10 "apply: 10 (auto picked grub: no grub.d, no os-release)"
printf '%s\r\n' \
	'# Plain GRUB, CRLF line ends, no final newline after the last line.' \
	'GRUB_DEFAULT=0' \
	"GRUB_CMDLINE_LINUX_DEFAULT='quiet'" \
	'GRUB_CMDLINE_LINUX="${GRUB_EXTRA} iommu=pt dyndbg=\"file x.c +p\" pci=realloc"   # site params' \
	>"$TEST_TMP/want"
printf 'GRUB_TIMEOUT=3' >>"$TEST_TMP/want"
cmp -s "$G" "$TEST_TMP/want"
ok $? "only the two values changed, byte for byte (CRLF, quotes, comment, no final newline)"
[ $? -eq 0 ] || diff <(cat -A "$TEST_TMP/want") <(cat -A "$G") | sed 's/^/# /'

# bash reads it (line ends made Unix first: bash itself keeps the CR).
tr -d '\r' <"$G" >"$TEST_TMP/grub.unix"
got=$(GRUB_EXTRA=site=1 bash -c '. "$1"; echo "$GRUB_CMDLINE_LINUX|$GRUB_CMDLINE_LINUX_DEFAULT"' _ "$TEST_TMP/grub.unix")
is "$got" 'site=1 iommu=pt dyndbg="file x.c +p" pci=realloc|quiet' "bash sees the merged values, \${GRUB_EXTRA} still expands"

settles "$R" "$TEST_TMP/halo.conf" 'root=/dev/sda2 ro ${GRUB_EXTRA} iommu=pt dyndbg="file x.c +p" pci=realloc quiet'

# generated level: a stale grub.cfg under the root is pending (not run
# under --root), an up-to-date one is in sync.
mkdir -p "$R/boot/grub"
printf 'menuentry x {\n\tlinux\t/vmlinuz root=/dev/sda2 ro quiet splash\n}\n' >"$R/boot/grub/grub.cfg"
run_halo --root "$R" -c "$TEST_TMP/halo.conf" --check --json
is "$rc" 8 "stale grub.cfg: 8"
like "$(printf '%s' "$out" | jq -r '.items[] | select(.key == "boot/regenerate") | .message')" \
	'^run it in the image$' "regenerate reported, not run"
# A real node's entry is long: the text report stays one line per item
# within 120 columns, the command line cut first, then the message at a
# blank, and -v gives both whole.
long="BOOT_IMAGE=/vmlinuz-6.12.9-amd64 root=UUID=0d1c2b3a-4f5e-6d7c-8b9a-0a1b2c3d4e5f ro console=tty1 console=ttyS0,115200n8 quiet splash amd_iommu=on pcie_aspm=off ttm.pages_limit=32505856 ttm.page_pool_size=32505856 amd_pstate=active amdgpu.cwsr_enable=0 transparent_hugepage=always systemd.unified_cgroup_hierarchy=1 nvme_core.default_ps_max_latency_us=0"
printf 'menuentry x {\n\tlinux\t/vmlinuz %s\n}\n' "$long" >"$R/boot/grub/grub.cfg"
run_halo --root "$R" -c "$TEST_TMP/halo.conf" --check
is "$rc" 8 "a long stale entry: 8"
is "$(grep -c ' boot/regenerate ' <<<"$out")" 1 "text report: one line for boot/regenerate"
like "$(grep ' boot/regenerate ' <<<"$out")" ' boot/regenerate +(update-grub|grub-mkconfig -o /boot/grub/grub\.cfg); run it in the image \(-v: in full\)$' \
	"boot/regenerate: the entry left to -v, the command and the message whole"
is "$(awk 'length > 120' <<<"$out")" "" "text report: no line wider than 120 columns"
run_halo --root "$R" -c "$TEST_TMP/halo.conf" --check -v
like "$(grep '^[a-z-]* *boot/regenerate ' <<<"$out")" "/boot/grub/grub.cfg: .*nvme_core.default_ps_max_latency_us=0\\); run it in the image$" \
	"-v: the whole command line and message, on the item's line"
printf 'menuentry x {\n\tlinux\t/vmlinuz root=/dev/sda2 ro iommu=pt pci=realloc quiet\n}\n' >"$R/boot/grub/grub.cfg"
run_halo --root "$R" -c "$TEST_TMP/halo.conf" --check
is "$rc" 0 "regenerated grub.cfg: 0"

# kernel-cmdline backend: /etc/kernel/cmdline with root=LABEL= resolved.
K=$(boot_root kcmdline kc)
boot_image "$K"
write_conf "$TEST_TMP/k.conf" <<'CONF'
version = 1;
boot = { iommu = "pt"; pcie_aspm = "off"; remove = [ "quiet" ]; };
CONF
run_halo --root "$K" -c "$TEST_TMP/k.conf" --json
is "$rc" 10 "kernel-cmdline apply: 10"
is "$(cat "$K/etc/kernel/cmdline")" "root=LABEL=haloroot rw iommu=pt pcie_aspm=off" "/etc/kernel/cmdline merged"
is "$(printf '%s' "$out" | jq -r '[.items[].key] | map(select(. == "boot/regenerate")) | length')" 0 \
	"no regenerate item for kernel-install"
settles "$K" "$TEST_TMP/k.conf" "root=LABEL=haloroot rw iommu=pt pcie_aspm=off"

# Nothing to detect: a one-line error naming the fix.
rm "$K/etc/kernel/cmdline"
run_halo --root "$K" -c "$TEST_TMP/k.conf"
is "$rc" 1 "no loader detectable: exit 1"
like "$err" 'boot.loader = "auto": no boot loader found under .*; set boot.loader$' "one-line error"

# A missing /etc/kernel/cmdline starts from /proc/cmdline without initrd=.
printf 'initrd=\\initrd.img root=LABEL=haloroot rw splash\n' >"$K/proc/cmdline"
sed -i 's/boot = {/boot = { loader = "kernel-cmdline";/' "$TEST_TMP/k.conf"
run_halo --root "$K" -c "$TEST_TMP/k.conf"
is "$rc" 10 "explicit kernel-cmdline: 10"
is "$(cat "$K/etc/kernel/cmdline")" "root=LABEL=haloroot rw splash iommu=pt pcie_aspm=off" \
	"created from /proc/cmdline, initrd= dropped"

done_testing
