#!/bin/bash
# Module options: passed when the module loads (also to a dependency),
# compared with the live values in /sys/module/<name>/parameters, and a
# changed option on a loaded module is pending a reload, never applied by
# reloading the driver.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/integration/modules-lib.sh"

# Options for a dependency: loaded first, with its own options.
mkfx
write_conf "$CONF" <<'CONF'
version = 1;
modules = {
  load = [ "mlx5_ib" ];
  options = { mlx5_core = "prof_sel=2 probe_vf=0"; };
  persist = false;
};
CONF
run_trap --only modules --json
is "$rc" 2 "apply: changed"
is "$(grep '^load' "$FX/trap.log" | paste -sd'|' -)" \
	"load mlx5_core prof_sel=2 probe_vf=0|load ib_core |load ib_uverbs |load mlx5_ib " \
	"mlx5_core loaded first with its options, then mlx5_ib's other dependencies"
is "$(cat "$FX/sys/module/mlx5_core/parameters/prof_sel")" 2 "live prof_sel is 2"
is "$(item module/mlx5_core/options outcome)" changed "options item verified after the load"
is "$(item module/mlx5_core/options observed)" "prof_sel=2 probe_vf=N" \
	"observed shows the kernel's values (bool as N)"
run_trap --check --only modules
is "$rc" 0 "probe_vf=0 matches the kernel's N: in sync"

# A different value on a loaded module: pending a reload, nothing reloaded.
mkfx
preload mlx5_core prof_sel=1 debug_mask=0 probe_vf=Y
write_conf "$CONF" <<'CONF'
version = 1;
modules = {
  load = [ "mlx5_core" ];
  options = { mlx5_core = "prof_sel=2 debug_mask=0x0"; };
  persist = false;
};
CONF
run_trap --check --only modules --json
is "$rc" 8 "check: option differs on a loaded module: exit 8 (reload needed)"
is "$(item module/mlx5_core/options outcome)" pending-reboot "options item pending"
is "$(item module/mlx5_core/options message)" "reload mlx5_core to apply (not done automatically)" \
	"says which module to reload"
is "$(item module/mlx5_core/options observed)" "prof_sel=1 debug_mask=0" "observed live values"
run_trap --only modules --json
is "$rc" 8 "apply: still exit 8, nothing reloaded"
is "$(loads)" "" "the driver was not reloaded"
is "$(printf '%s' "$out" | jq -r .reboot_required)" true "JSON reboot_required"
ok "$([ -e "$FX/run/reboot-required" ]; echo $?)" "/run/reboot-required created"

# Built-in module: options only on the kernel command line.
mkfx
write_conf "$CONF" <<'CONF'
version = 1;
modules = { options = { ttm = "pages_limit=31457280"; }; persist = false; };
CONF
run_trap --check --only modules --json
is "$rc" 8 "built-in ttm with another pages_limit: exit 8"
like "$(item module/ttm/options message)" "ttm is built in: set ttm.<option> on the kernel command line" \
	"points to the kernel command line"
echo 31457280 >"$FX/sys/module/ttm/parameters/pages_limit"
run_trap --check --only modules
is "$rc" 0 "built-in ttm with the wanted value: in sync"

# An image build: the kernel of the tree is not the running one. Nothing
# can be loaded; the drop-in loads the modules at boot.
mkfx
echo "6.1.0-other" >"$FX/proc/sys/kernel/osrelease"
write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "irdma", "ttm" ]; options = { mlx5_core = "prof_sel=2"; }; };
CONF
run_trap --only modules --json
is "$rc" 10 "image build: drop-ins written, modules pending boot (exit 10)"
is "$(loads)" "" "nothing loaded into a kernel that is not the tree's"
is "$(item module/irdma outcome)" pending-reboot "module/irdma pending"
like "$(item module/irdma message)" "kernel $REL is not running here; /etc/modules-load.d/halo-provision.conf loads it at boot" \
	"says the drop-in loads it at boot"
is "$(item module/ttm outcome)" ok "built-in module: ok without a running kernel"
ok "$([ -f "$FX/etc/modules-load.d/halo-provision.conf" ]; echo $?)" "modules-load.d drop-in written"
write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "irdma" ]; persist = false; };
CONF
run_trap --check --only modules --json
is "$(item module/irdma outcome)" unsupported "not running and not persisted: unsupported"

done_testing
