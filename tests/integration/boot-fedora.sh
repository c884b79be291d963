#!/bin/bash
# boot-fedora: the BLS backend on a Fedora-like root: /etc/kernel/cmdline and
# GRUB_CMDLINE_LINUX edited, grubby reported (not run) under --root, the
# default entry's options line as the generated level, root=UUID= resolved
# through the root's libblkid cache to a real ext4 image.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/fixtures/boot/lib.sh"

R=$(boot_root fedora fed)
boot_image "$R"
ENTRY=$(ls "$R"/boot/loader/entries/*.conf)
write_conf "$TEST_TMP/halo.conf" <<'CONF'
version = 1;
boot = {
  iommu = "pt";
  gtt_mib = "auto";
  gtt_params = "ttm+gttsize";
  remove = [ "rhgb" ];
};
CONF
# auto on 128 GiB: 120 GiB = 122880 MiB = 31457280 pages.
WANT=(iommu=pt ttm.pages_limit=31457280 amdgpu.gttsize=122880)

before=$(tree_snapshot "$R")
run_halo --root "$R" -c "$TEST_TMP/halo.conf" --dry-run
is "$rc" 10 "dry-run: 10"
is "$(tree_snapshot "$R")" "$before" "dry-run changed nothing"

run_halo --root "$R" -c "$TEST_TMP/halo.conf" --json
is "$rc" 10 "first apply: 10 (root=UUID= resolved through the cache)"
kc=$(cat "$R/etc/kernel/cmdline")
is "$kc" "root=UUID=$ROOT_UUID ro quiet ${WANT[*]}" "/etc/kernel/cmdline merged (rhgb removed, new ones appended)"
is "$(bash -c '. "$1/etc/default/grub"; echo "$GRUB_CMDLINE_LINUX"' _ "$R")" "quiet ${WANT[*]}" \
	"GRUB_CMDLINE_LINUX gets the same edit"
is "$(stat -c %a "$R/etc/kernel/cmdline" "$R/etc/default/grub" | tr '\n' ' ')" "644 644 " \
	"edited files keep their 0644 (whatever the checkout's umask was)"
is "$(item_outcome "$out" boot/regenerate)" pending-reboot "grubby not run under --root: pending"
is "$(printf '%s' "$out" | jq -r '.items[] | select(.key == "boot/regenerate") | .wanted')" \
	"grubby --update-kernel=ALL '--args=iommu=pt ttm.pages_limit=31457280 amdgpu.gttsize=122880' --remove-args=rhgb" \
	"the wanted value is the grubby command, quoted for pasting"
is "$(printf '%s' "$out" | jq -r '.items[] | select(.key == "boot/regenerate") | .message')" \
	"run it in the image" "the message says to run it in the image"
is "$(printf '%s' "$out" | jq -r .stats.spawned)" 0 "nothing spawned under --root"
like "$(item_outcome "$out" boot/param/iommu)" pending-reboot "param pending"
like "$(printf '%s' "$out" | jq -r '.items[] | select(.key == "boot/param/iommu") | .message')" \
	'not yet in /boot/loader/entries/' "param says the BLS entry lacks it"

# What grubby would do in the image, then the reboot.
sed -i "s|^options .*|options $kc|" "$ENTRY"
settles "$R" "$TEST_TMP/halo.conf" "$kc"

# Drift: someone puts a conflicting gttsize back and a modprobe.d option.
sed -i 's/amdgpu.gttsize=122880/amdgpu.gttsize=4096/' "$R/etc/kernel/cmdline"
run_halo --root "$R" -c "$TEST_TMP/halo.conf" --check --json
is "$rc" 2 "edited /etc/kernel/cmdline is drift (2)"
is "$(item_outcome "$out" boot/param/amdgpu.gttsize)" drift "gttsize item drifts"
sed -i 's/amdgpu.gttsize=4096/amdgpu.gttsize=122880/' "$R/etc/kernel/cmdline"
mkdir -p "$R/etc/modprobe.d"
echo "options ttm pages_limit=1000" >"$R/etc/modprobe.d/ttm.conf"
run_halo --root "$R" -c "$TEST_TMP/halo.conf" --check --json
is "$rc" 2 "a disagreeing modprobe.d option is drift (2)"
like "$(printf '%s' "$out" | jq -r '.items[] | select(.key == "boot/param/ttm.pages_limit") | .message')" \
	'etc/modprobe.d/ttm.conf:1: options ttm pages_limit=1000 disagrees' "message names file:line"
rm "$R/etc/modprobe.d/ttm.conf"

# amdgpu card after boot: mem_info_gtt_total compared in bytes.
mkdir -p "$R/sys/devices/pci0000:00/0000:c3:00.0/drm/card1" "$R/sys/class/drm"
printf 'DRIVER=amdgpu\nPCI_CLASS=38000\n' >"$R/sys/devices/pci0000:00/0000:c3:00.0/uevent"
echo $((122880 * 1048576)) >"$R/sys/devices/pci0000:00/0000:c3:00.0/mem_info_gtt_total"
ln -s ../.. "$R/sys/devices/pci0000:00/0000:c3:00.0/drm/card1/device"
ln -s ../../devices/pci0000:00/0000:c3:00.0/drm/card1 "$R/sys/class/drm/card1"
ln -s ../../devices/pci0000:00/0000:c3:00.0/drm/card1 "$R/sys/class/drm/card1-eDP-1"
run_halo --root "$R" -c "$TEST_TMP/halo.conf" --check --json
is "$(item_outcome "$out" boot/gtt)" ok "mem_info_gtt_total matches: boot/gtt ok"
echo $((65536 * 1048576)) >"$R/sys/devices/pci0000:00/0000:c3:00.0/mem_info_gtt_total"
run_halo --root "$R" -c "$TEST_TMP/halo.conf" --check --json
is "$(item_outcome "$out" boot/gtt)" drift "active param but 64 GiB GTT: drift"
is "$rc" 2 "check exit 2"

# Seeding a missing /etc/kernel/cmdline from a BLS entry whose options
# refer to GRUB variables (Fedora with tuned: $tuned_params; RHEL 8 style:
# $kernelopts): GRUB expands them at boot; they are no kernel parameters
# and must never be copied into /etc/kernel/cmdline.
R=$(boot_root fedora tuned)
boot_image "$R"
ENTRY=$(ls "$R"/boot/loader/entries/*.conf)
rm "$R/etc/kernel/cmdline"
sed -i 's/^options .*/& $tuned_params ${extra_cmdline}/' "$ENTRY"
printf 'initrd /initramfs-6.17.1-300.fc43.x86_64.img $tuned_initrd\n' >>"$ENTRY"
write_conf "$TEST_TMP/tuned.conf" <<<'version = 1; boot = { loader = "bls"; iommu = "pt"; };'
run_halo --root "$R" -c "$TEST_TMP/tuned.conf" --json
is "$rc" 10 "seeded from a BLS entry with GRUB variables: 10"
is "$(cat "$R/etc/kernel/cmdline")" "root=UUID=$ROOT_UUID ro rhgb quiet iommu=pt" \
	"/etc/kernel/cmdline has the entry's kernel parameters, no GRUB variable"
ok "$(grep -q '\$' "$R/etc/kernel/cmdline"; [ $? -ne 0 ]; echo $?)" "no '\$' in /etc/kernel/cmdline"
like "$(printf '%s' "$out" | jq -r '.items[] | select(.key == "file/etc/kernel/cmdline") | .note')" \
	'^created from the options of /boot/loader/entries/[^ ]+\.conf without \$tuned_params \$\{extra_cmdline\} \(GRUB variables, not kernel parameters\)$' \
	"the file's item says which were left out"

done_testing
