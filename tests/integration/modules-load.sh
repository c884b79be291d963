#!/bin/bash
# Loading with a real libkmod on a fixture tree: dependency order, already
# loaded and built-in modules, the drop-ins, idempotence, --check drift.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/integration/modules-lib.sh"

mkfx
# rdma-core's udev rules have already loaded ib_uverbs (and so ib_core).
preload ib_core
preload ib_uverbs
write_conf "$CONF" <<'CONF'
version = 1;
modules = {
  load = [ "irdma", "ib_uverbs", "rdma_ucm", "ttm" ];
  options = { mlx5_core = "prof_sel=2"; };
  blacklist = [ "nouveau" ];
};
CONF

before=$(tree_snapshot "$FX")
run_trap --check --only modules
is "$rc" 2 "check on a fresh host: drift (exit 2)"
like "$out" 'drift +module/irdma' "check reports irdma not loaded"
is "$(loads)" "" "check loads nothing"
is "$(tree_snapshot "$FX")" "$before" "check writes nothing"

run_trap --dry-run --only modules
is "$rc" 2 "dry-run: exit 2"
is "$(loads)" "" "dry-run loads nothing"

run_trap --only modules --json
is "$rc" 2 "apply: changed (exit 2)"
is "$(loads)" "ice_helper ice irdma rdma_cm rdma_ucm" \
	"dependency chain in order; ib_core and ib_uverbs (already live) not loaded again"
for m in ice_helper ice irdma rdma_cm rdma_ucm ib_uverbs; do
	is "$(initstate $m)" live "$m live in sysfs"
done
is "$(item module/irdma outcome)" changed "module/irdma changed"
is "$(item module/ib_uverbs outcome)" ok "module/ib_uverbs already loaded: ok"
is "$(item module/ttm outcome)/$(item module/ttm observed)" "ok/built-in" "module/ttm built in: ok"
is "$(item module/mlx5_core/options outcome)" ok \
	"options of a module nobody loads: ok (they apply when it loads)"
is "$(printf '%s' "$out" | jq -r '[.items[].subsystem] | unique | join(",")')" modules \
	"--only modules: only module items"

want_load="# Managed by halo-provision; local changes will be overwritten.
# Kernel modules loaded at boot (systemd-modules-load).
irdma
ib_uverbs
rdma_ucm
ttm"
is "$(cat "$FX/etc/modules-load.d/halo-provision.conf")" "$want_load" "modules-load.d drop-in"
is "$(stat -c %a "$FX/etc/modules-load.d/halo-provision.conf")" 644 "modules-load.d drop-in mode 0644"
want_mp="# Managed by halo-provision; local changes will be overwritten.
options mlx5_core prof_sel=2
blacklist nouveau"
is "$(cat "$FX/etc/modprobe.d/halo-provision.conf")" "$want_mp" "modprobe.d drop-in"
# The consumer's reading: modprobe's own config parser.
cfg=$(modprobe -C "$FX/etc/modprobe.d" --showconfig 2>/dev/null)
ok "$(printf '%s\n' "$cfg" | grep -qx 'options mlx5_core prof_sel=2'; echo $?)" \
	"modprobe --showconfig reads the options line"
ok "$(printf '%s\n' "$cfg" | grep -qx 'blacklist nouveau'; echo $?)" \
	"modprobe --showconfig reads the blacklist line"

# Idempotence: nothing loaded, nothing written.
: >"$FX/trap.log"
before=$(tree_snapshot "$FX")
run_trap --only modules --json
is "$rc" 0 "second apply: in sync (exit 0)"
is "$(loads)" "" "second apply loads nothing"
is "$(printf '%s' "$out" | jq -r .stats.files_written)" 0 "second apply: files_written 0"
is "$(tree_snapshot "$FX")" "$before" "second apply: tree byte-identical"
run_trap --check --only modules
is "$rc" 0 "check after apply: no drift"

# Drift: a module unloaded behind our back, a drop-in edited by hand.
rm -rf "$FX/sys/module/rdma_ucm"
echo "options mlx5_core prof_sel=0" >>"$FX/etc/modprobe.d/halo-provision.conf"
before=$(tree_snapshot "$FX")
run_trap --check --only modules --json
is "$rc" 2 "check: unloaded module and edited drop-in are drift (exit 2)"
is "$(item module/rdma_ucm outcome)" drift "module/rdma_ucm drift"
is "$(item file/etc/modprobe.d/halo-provision.conf outcome)" drift "edited drop-in drift"
is "$(loads)" "" "check loaded nothing"
is "$(tree_snapshot "$FX")" "$before" "check changed nothing"
run_trap --only modules
is "$rc" 2 "apply repairs the drift"
is "$(loads)" "rdma_ucm" "only rdma_ucm loaded again"
is "$(cat "$FX/etc/modprobe.d/halo-provision.conf")" "$want_mp" "drop-in restored"

# persist = false: the drop-ins must not exist; loaded modules stay.
write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "irdma" ]; persist = false; };
CONF
run_trap --check --only modules --json
is "$rc" 2 "persist = false: existing drop-ins are stale drift"
is "$(item file/etc/modules-load.d/halo-provision.conf wanted)" absent "modules-load.d drop-in wanted absent"
run_trap --only modules
is "$rc" 2 "apply removes the stale drop-ins"
ok "$([ ! -e "$FX/etc/modules-load.d/halo-provision.conf" ] && [ ! -e "$FX/etc/modprobe.d/halo-provision.conf" ]; echo $?)" \
	"both drop-ins removed"
is "$(initstate irdma)" live "irdma still loaded"
run_trap --only modules
is "$rc" 0 "persist = false: second apply in sync"

# '-' and '_' are one name to the kernel.
write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "ice-helper" ]; options = { mlx5-core = "prof-sel=1"; }; persist = false; };
CONF
run_trap --check --only modules --json
is "$rc" 0 "ice-helper is ice_helper (loaded): in sync"
is "$(item module/ice_helper observed)" live "item keyed module/ice_helper"
is "$(item module/mlx5_core/options wanted)" prof_sel=1 "option names normalized too (prof-sel is prof_sel)"

# Soft dependencies from the root's modprobe.d are honoured (probe path).
mkfx
echo "softdep mlx5_ib pre: rdma_cm post: amdgpu" >"$FX/etc/modprobe.d/rdma.conf"
write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "mlx5_ib" ]; persist = false; };
CONF
run_trap --only modules
is "$rc" 2 "softdep: apply changed"
is "$(loads)" "ib_core ib_uverbs mlx5_core rdma_cm mlx5_ib amdgpu" \
	"hard dependencies, then softdep pre (rdma_cm), mlx5_ib, softdep post (amdgpu)"

done_testing
