#!/bin/bash
# boot-cloudimg: loader = "grub" on an Ubuntu cloud image, whose
# /etc/default/grub.d/50-cloudimg-settings.cfg replaces
# GRUB_CMDLINE_LINUX_DEFAULT. The edit goes to GRUB_CMDLINE_LINUX, which no
# drop-in touches, so it is accepted; it is refused only when a drop-in
# assigns a variable the edit has to change (the error names FILE:LINE).
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/fixtures/boot/lib.sh"

FX=$top_srcdir/tests/fixtures/boot/ubuntu-cloud
R=$(boot_root ubuntu-cloud cloud)
write_conf "$TEST_TMP/halo.conf" <<'CONF'
version = 1;
boot = { loader = "grub"; iommu = "pt"; pci_realloc = true; };
CONF

run_halo --root "$R" -c "$TEST_TMP/halo.conf"
is "$rc" 10 "loader grub on a cloud image: applied (10)"
is "$err" "" "no error"
is "$(diff "$FX/etc/default/grub" "$R/etc/default/grub" | grep '^[<>]')" \
	'< GRUB_CMDLINE_LINUX=""
> GRUB_CMDLINE_LINUX="iommu=pt pci=realloc"' "only GRUB_CMDLINE_LINUX changed in /etc/default/grub"
for f in 40-force-partuuid.cfg 50-cloudimg-settings.cfg; do
	cmp -s "$FX/etc/default/grub.d/$f" "$R/etc/default/grub.d/$f"
	ok $? "$f untouched"
done
ok "$([ ! -e "$R/etc/default/grub.d/zz-halo-provision.cfg" ]; echo $?)" "no drop-in of ours"
got=$(grub_cmdline "$R")
is "$got" "iommu=pt pci=realloc console=tty1 console=ttyS0" \
	"bash, sourcing the file and the drop-ins, sees the edit and the cloud image's console="
settles "$R" "$TEST_TMP/halo.conf" "root=PARTUUID=4f1b8c6e-2a3d-4e5f-8a9b-0c1d2e3f4a5b ro $got"

# refuses ROOT CONF REGEX DESCRIPTION: exit 1, one line, nothing changed.
refuses() {
	local before
	before=$(tree_snapshot "$1" | grep -v '\./run/halo-provision\.lock$')
	run_halo --root "$1" -c "$2"
	is "$rc" 1 "$4: exit 1"
	is "$(printf '%s\n' "$err" | wc -l)" 1 "$4: one line"
	like "$err" "$3" "$4: names the drop-in and the variable"
	is "$(tree_snapshot "$1" | grep -v '\./run/halo-provision\.lock$')" "$before" "$4: nothing changed"
}

# Taking out the cloud image's console= means editing the variable its
# drop-in assigns: that edit would be undone.
R=$(boot_root ubuntu-cloud console)
write_conf "$TEST_TMP/console.conf" <<'CONF'
version = 1;
boot = { loader = "grub"; iommu = "pt"; remove = [ "console" ]; };
CONF
refuses "$R" "$TEST_TMP/console.conf" \
	'/etc/default/grub.d/50-cloudimg-settings.cfg:11: assigns GRUB_CMDLINE_LINUX_DEFAULT after /etc/default/grub and would undo boot.loader = "grub"'"'"'s edit of it; use loader "grub-dropin"' \
	"removing a drop-in's parameter"

# Same for /etc/default/grub's own "quiet splash", which the drop-in replaces.
write_conf "$TEST_TMP/splash.conf" <<'CONF'
version = 1;
boot = { loader = "grub"; remove = [ "splash" ]; };
CONF
refuses "$R" "$TEST_TMP/splash.conf" '50-cloudimg-settings.cfg:11: assigns GRUB_CMDLINE_LINUX_DEFAULT' \
	"editing GRUB_CMDLINE_LINUX_DEFAULT under the drop-in"

# A drop-in that assigns GRUB_CMDLINE_LINUX itself: refused for any edit.
printf '# local\nGRUB_CMDLINE_LINUX="nomodeset"\n' >"$R/etc/default/grub.d/60-local.cfg"
refuses "$R" "$TEST_TMP/halo.conf" '/etc/default/grub.d/60-local.cfg:2: assigns GRUB_CMDLINE_LINUX after' \
	"a drop-in assigning GRUB_CMDLINE_LINUX"

done_testing
