#!/bin/bash
# Load failures: the failed item names the module and the errno text, the
# run exits with bit 4, and every other module is still loaded.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/integration/modules-lib.sh"

conf_load() { # conf_load MODULE...: a config loading these, no drop-ins
	local list="" m
	for m in "$@"; do list="$list${list:+, }\"$m\""; done
	write_conf "$CONF" <<CONF
version = 1;
modules = { load = [ $list ]; persist = false; };
CONF
}

# EPERM on a dependency: irdma fails naming ice, mlx5_ib still loads.
mkfx
conf_load irdma mlx5_ib
TRAP_FAIL=ice:EPERM run_trap --only modules --json
is "$rc" 6 "EPERM: exit 6 (changed + failed)"
is "$(item module/irdma outcome)" failed "module/irdma failed"
is "$(item module/irdma message)" "ice: Operation not permitted (dependency of irdma)" \
	"message names the module that failed and the errno text"
is "$(item module/mlx5_ib outcome)" changed "module/mlx5_ib still loaded"
is "$(initstate mlx5_ib)" live "mlx5_ib live"
is "$(initstate irdma)" "" "irdma not live"
is "$(printf '%s' "$out" | jq -r '.failed')" true "JSON failed: true"
like "$(grep -c '^fail ice EPERM' "$FX/trap.log")" '^1$' "the trap saw one failed ice load"

# ENOENT on the module itself, another module still loads.
mkfx
conf_load ib_uverbs ice
TRAP_FAIL=ib_uverbs:ENOENT run_trap --only modules --json
is "$rc" 6 "ENOENT: exit 6"
is "$(item module/ib_uverbs message)" "ib_uverbs: No such file or directory" "ENOENT message"
is "$(item module/ice outcome)" changed "module/ice loaded"
is "$(loads)" "ib_core ice_helper ice" "the others loaded (ib_core before the failure)"

# EEXIST from the kernel while sysfs says it is not there: failed, not ok.
mkfx
conf_load ice rdma_cm
TRAP_FAIL=ice:EEXIST run_trap --only modules --json
is "$rc" 6 "EEXIST: exit 6"
is "$(item module/ice message)" "ice: File exists" "EEXIST message"
is "$(item module/rdma_cm outcome)" changed "module/rdma_cm loaded"

# Only failures: exit 4 alone. The next run retries.
mkfx
conf_load ice
TRAP_FAIL=ice_helper:EPERM run_trap --only modules
is "$rc" 4 "only a failure: exit 4"
like "$out" 'failed +module/ice .*ice_helper: Operation not permitted \(dependency of ice\)' \
	"text output shows the failure"
run_trap --only modules
is "$rc" 2 "without the fault the next apply loads it"
is "$(initstate ice)" live "ice live"

# A modprobe.d install command is a shell line: refused, never run.
mkfx
echo "install amdgpu /bin/false" >"$FX/etc/modprobe.d/local.conf"
conf_load amdgpu ice
run_trap --only modules --json
is "$rc" 6 "install command: exit 6"
like "$(item module/amdgpu message)" '^amdgpu: modprobe.d install command not run \(halo-provision runs no shell\): /bin/false' \
	"install command refused with a reason"
like "$(printf '%s' "$out" | jq -r '.warnings[]')" 'module/amdgpu: amdgpu: install /bin/false' \
	"and warned about at plan time"
is "$(initstate amdgpu)" "" "amdgpu not loaded"

done_testing
