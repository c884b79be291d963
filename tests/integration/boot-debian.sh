#!/bin/bash
# boot-debian: the grub.d drop-in backend on an Ubuntu-like root (cloud image
# drop-in replacing GRUB_CMDLINE_LINUX_DEFAULT), read back by bash itself.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/fixtures/boot/lib.sh"

R=$(boot_root debian deb)
DROPIN=$R/etc/default/grub.d/zz-halo-provision.cfg
write_conf "$TEST_TMP/halo.conf" <<'CONF'
version = 1;
boot = {
  loader = "auto";
  iommu = "pt";
  gtt_mib = 126976;
  pci_realloc = true;
  pcie_aspm = "off";
  extra = [ "amd_pstate=active" ];
  remove = [ "splash" ];
};
CONF
WANT=(iommu=pt pcie_aspm=off pci=realloc ttm.pages_limit=32505856 amd_pstate=active)

# dry-run: reports, changes nothing.
before=$(tree_snapshot "$R")
run_halo --root "$R" -c "$TEST_TMP/halo.conf" --dry-run --diff
is "$rc" 10 "dry-run exits 10 (drift, reboot would be required)"
like "$out" '\+GRUB_CMDLINE_LINUX_DEFAULT="\$GRUB_CMDLINE_LINUX_DEFAULT iommu=pt' "dry-run shows the drop-in diff"
is "$(tree_snapshot "$R")" "$before" "dry-run changed nothing"

# apply
run_halo --root "$R" -c "$TEST_TMP/halo.conf" --json
is "$rc" 10 "first apply exits 10 (changed, reboot pending)"
is "$(printf '%s' "$out" | jq -r .reboot_required)" true "JSON says reboot_required"
is "$(item_outcome "$out" file/etc/default/grub.d/zz-halo-provision.cfg)" changed "drop-in item changed"
is "$(item_outcome "$out" boot/param/iommu)" pending-reboot "iommu param pending-reboot"
is "$(item_outcome "$out" boot/gtt)" unsupported "no amdgpu card: boot/gtt unsupported"
ok "$([ -f "$R/run/reboot-required" ]; echo $?)" "/run/reboot-required created"
is "$(stat -c %a "$DROPIN")" 644 "drop-in is 0644"
like "$(head -1 "$DROPIN")" '^# Managed by halo-provision' "drop-in carries the managed header"
like "$(grep -c '^GRUB_CMDLINE_LINUX_DEFAULT="\$GRUB_CMDLINE_LINUX_DEFAULT ' "$DROPIN")" '^1$' \
	"drop-in appends to GRUB_CMDLINE_LINUX_DEFAULT"
got=$(grub_cmdline "$R")
has_all "$got" "${WANT[@]}" console=tty1 console=ttyS0
ok $? "bash reads every wanted parameter and keeps the cloud image's ($got)"
is "$(grep -c . "$R/etc/default/grub.d/50-cloudimg-settings.cfg")" 8 "other drop-in untouched"
is "$(cat "$DROPIN")" "$(head -5 "$top_srcdir/grub/zz-halo-provision.cfg.example")" \
	"the shipped example is what the code writes"

settles "$R" "$TEST_TMP/halo.conf" "root=UUID=x ro $got"

# remove must work too: quiet comes from /etc/default/grub's DEFAULT when
# the cloud drop-in is gone; appending cannot remove it, so the drop-in
# assigns the computed value.
R2=$(boot_root debian deb2)
rm "$R2/etc/default/grub.d/50-cloudimg-settings.cfg"
write_conf "$TEST_TMP/rm.conf" <<'CONF'
version = 1;
boot = { iommu = "pt"; remove = [ "quiet" ]; extra = [ "console=ttyS0,115200" ]; };
CONF
printf 'GRUB_CMDLINE_LINUX="iommu=soft $GRUB_CMDLINE_LINUX"\n' >"$R2/etc/default/grub.d/10-local.cfg"
run_halo --root "$R2" -c "$TEST_TMP/rm.conf"
is "$rc" 10 "apply with removals: 10"
got=$(grub_cmdline "$R2")
is "$got" "iommu=pt console=ttyS0,115200" "quiet removed, iommu=soft replaced in place"
like "$(cat "$R2/etc/default/grub.d/zz-halo-provision.cfg")" 'computed' "drop-in says its values are computed"
settles "$R2" "$TEST_TMP/rm.conf" "$got"

# Nothing left to add: a stale drop-in is removed.
write_conf "$TEST_TMP/none.conf" <<'CONF'
version = 1;
boot = { loader = "grub-dropin"; remove = [ "nosuchparam" ]; };
CONF
run_halo --root "$R" -c "$TEST_TMP/none.conf"
is "$rc" 2 "config needing no drop-in: apply removes the stale one (2)"
ok "$([ ! -e "$DROPIN" ]; echo $?)" "stale drop-in removed"

done_testing
