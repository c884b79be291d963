#!/bin/bash
# revert: --revert on a root that an apply provisioned (boot drop-in,
# modules drop-ins, loaded modules). Owned files go only while they carry
# the managed header, files the state file records go too, runtime state
# is one "left as is" item each, a symlink is never removed through, and
# a revert followed by an apply converges again.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/integration/modules-lib.sh"

mkfx
cp -R "$top_srcdir/tests/fixtures/boot/debian/." "$FX/"
chmod -R u=rwX,go=rX "$FX/etc" "$FX/proc"
write_conf "$CONF" <<'CONF'
version = 1;
boot = { loader = "grub-dropin"; iommu = "pt"; };
modules = {
  load = [ "irdma", "rdma_ucm" ];
  options = { mlx5_core = "prof_sel=2"; };
  blacklist = [ "nouveau" ];
};
CONF
DROPIN=$FX/etc/default/grub.d/zz-halo-provision.cfg
MLOAD=$FX/etc/modules-load.d/halo-provision.conf
MPROBE=$FX/etc/modprobe.d/halo-provision.conf
STATE=$FX/var/lib/halo-provision/state.json

run_trap --json
is "$rc" 10 "apply: changed, reboot pending"
for f in "$DROPIN" "$MLOAD" "$MPROBE" "$STATE"; do
	ok "$([ -f "$f" ]; echo $?)" "apply wrote ${f#"$FX"}"
done
loaded=$(loads)
first_state=$(cat "$STATE")
cp "$DROPIN" "$TEST_TMP/dropin"; cp "$MLOAD" "$TEST_TMP/mload"; cp "$MPROBE" "$TEST_TMP/mprobe"

# --dry-run --revert: everything shown, nothing written.
before=$(tree_snapshot "$FX")
run_trap --dry-run --revert --json
is "$rc" 2 "dry-run revert: 2 (iommu=pt never became active: no reboot would be pending)"
is "$(tree_snapshot "$FX")" "$before" "dry-run revert changes nothing"
is "$(printf '%s' "$out" | jq -r '[.items[] | select(.outcome == "drift") | .key] | sort | join(" ")')" \
	"boot/remove/iommu=pt file/etc/default/grub.d/zz-halo-provision.cfg file/etc/modprobe.d/halo-provision.conf file/etc/modules-load.d/halo-provision.conf file/var/lib/halo-provision/state.json" \
	"dry-run: the owned files, the state file and the parameter to take out"
is "$(printf '%s' "$out" | jq -r '[.items[] | select(.key | startswith("module/")) | .outcome] | unique | join(",")')" \
	ok "runtime module items: ok, never changed"
is "$(printf '%s' "$out" | jq -r '[.items[] | select(.key == "module/irdma")] | length')" 1 \
	"one item each"
like "$(item module/irdma message)" '^left as is: loaded module' "module/irdma: left as is"
run_trap --dry-run --revert
like "$out" 'ok +module/rdma_ucm .*left as is' "text lists the runtime items too"

# A symlink planted at an owned path: refused, nothing changed.
mv "$MPROBE" "$TEST_TMP/mprobe.real"
ln -s "$TEST_TMP/mprobe.real" "$MPROBE"
before=$(tree_snapshot "$FX")
run_trap --revert
is "$rc" 1 "symlink at an owned path: exit 1"
like "$err" 'symlink' "the error names the symlink"
is "$(tree_snapshot "$FX")" "$before" "nothing removed"
ok "$([ -f "$TEST_TMP/mprobe.real" ]; echo $?)" "the symlink's target is intact"
rm "$MPROBE"
mv "$TEST_TMP/mprobe.real" "$MPROBE"

# The operator took over the modprobe.d file (header gone): it stays.
printf 'options mlx5_core prof_sel=2\n' >"$MPROBE"
# A file of an earlier config, known only from the state file: goes.
sed -i '/^modules = {/,/^};/d' "$CONF"
cp "$FX/proc/cmdline" "$TEST_TMP/cmdline"
printf 'BOOT_IMAGE=/boot/vmlinuz root=/dev/sda1 ro quiet iommu=pt\n' >"$FX/proc/cmdline"
run_trap --dry-run --revert
is "$rc" 10 "dry-run revert with iommu=pt active: 10 (a reboot would be pending)"
run_trap --revert --json
is "$rc" 10 "revert: changed, reboot pending (iommu=pt active until reboot)"
is "$(item boot/remove/iommu=pt outcome)" pending-reboot "the parameter taken out is pending"
cp "$TEST_TMP/cmdline" "$FX/proc/cmdline"
ok "$([ ! -e "$DROPIN" ]; echo $?)" "grub drop-in removed"
ok "$([ ! -e "$MLOAD" ]; echo $?)" "modules-load.d drop-in (known from the state file) removed"
is "$(cat "$MPROBE")" "options mlx5_core prof_sel=2" "the file without the header left"
like "$(item file/etc/modprobe.d/halo-provision.conf message)" '^not ours' "and said so"
ok "$([ ! -e "$STATE" ]; echo $?)" "state file removed"
is "$(loads)" "$loaded" "no module loaded or unloaded by the revert"

# Revert then apply converges: the same files as the first apply.
cp "$TEST_TMP/mprobe" "$MPROBE"
write_conf "$CONF" <<'CONF'
version = 1;
boot = { loader = "grub-dropin"; iommu = "pt"; };
modules = {
  load = [ "irdma", "rdma_ucm" ];
  options = { mlx5_core = "prof_sel=2"; };
  blacklist = [ "nouveau" ];
};
CONF
run_trap
cmp -s "$DROPIN" "$TEST_TMP/dropin" && cmp -s "$MLOAD" "$TEST_TMP/mload" &&
	cmp -s "$MPROBE" "$TEST_TMP/mprobe"
ok $? "apply after revert: the same owned files"
is "$(cat "$STATE")" "$first_state" "and the same state file"
run_trap
is "$rc" 8 "the apply after that changes nothing (reboot still pending)"

# A revert of boot alone, with iommu=pt active: the state file keeps the
# other subsystems' items and says the reboot the revert left pending.
cp "$FX/proc/cmdline" "$TEST_TMP/cmdline"
printf 'BOOT_IMAGE=/boot/vmlinuz root=/dev/sda1 ro quiet iommu=pt\n' >"$FX/proc/cmdline"
run_trap --revert --only boot
is "$rc" 10 "--revert --only boot, iommu=pt active: exit 10"
is "$(jq -c '[.reboot_required, ([.items[] | select(.subsystem=="boot")] | length), ([.items[] | select(.subsystem=="modules")] | length > 0)]' "$STATE")" \
	'[true,0,true]' "... the state file: reboot required, no boot items, the module items kept"
cp "$TEST_TMP/cmdline" "$FX/proc/cmdline"

done_testing
