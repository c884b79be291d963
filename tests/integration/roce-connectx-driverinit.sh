#!/bin/bash
# mlx5's enable_roce is a driverinit parameter: a set reads back at once,
# but the device runs with the old value until a devlink reload or a
# reboot. On a simulated ConnectX with RoCE off: apply sets it and exits
# with the reboot bit (8), and so does every later --check, until the
# device reloads (iproute2's `devlink dev reload`, not our client) or the
# host boots again (a new boot_id in the root); then --check is clean.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/nicsim/nicsim-lib.sh"

sim_node cxinit cx0 0000:c1:00.0 mlx5_core
echo "cx0 connectx pci=0000:c1:00.0 enable_roce=false" >"$NICSIM_CONFIG"
mkdir -p "$ROOT/proc/sys/kernel/random"
echo 7c1d0a4e-0000-4000-8000-000000000001 >"$ROOT/proc/sys/kernel/random/boot_id"
STATE=$ROOT/var/lib/halo-provision/state.json

write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "cx"; match = { driver = "mlx5_core"; };
    roce = { enable = true; }; }
);
CONF

halo() { nicsim_halo --only roce --json "$@"; }
item() { jq -r --arg k roce/cx/enable '.items[] | select(.key==$k) | '"$1" <<<"$out"; }

halo --check
is "$rc" 2 "check before: drift (RoCE off)"
halo --dry-run
is "$rc" 10 "dry-run: changed and a reboot (or reload) would be needed"
halo
is "$rc" 10 "apply: changed, reboot bit set"
is "$(item .outcome)" pending-reboot "enable: pending-reboot"
like "$(item .message)" 'active after `devlink dev reload pci/0000:c1:00.0` or a reboot' \
	"... saying what makes it active"
is "$(state cx0 '[.devlink.enable_roce, .devlink_active.enable_roce]')" '[true,false]' \
	"the simulated device: stored true, still running without RoCE"
is "$(nicsim "$NS" devlink -j dev param show pci/0000:c1:00.0 name enable_roce |
	jq -c '[.param[][0].values[] | [.cmode, .value]]')" '[["driverinit",true]]' \
	"iproute2's devlink dev param show: driverinit true"
like "$(jq -r '.items[] | select(.key=="roce/cx/enable") | .memo' "$STATE")" \
	'^boot 7c1d0a4e-0000-4000-8000-000000000001 reloads 0$' "the state file remembers the set: boot and reload count"

halo --check
is "$rc" 8 "check after the apply: the reboot bit alone"
is "$(item .outcome)" pending-reboot "... still pending-reboot, though the value reads back true"
halo
is "$rc" 8 "apply again: nothing to change, still pending (8)"

nicsim "$NS" devlink dev reload pci/0000:c1:00.0 action driver_reinit >/dev/null 2>&1
is "$(state cx0 .devlink_active.enable_roce)" true "iproute2's devlink reload: RoCE active in the device"
halo --check
is "$rc" 0 "check after the reload: clean"
is "$(item .outcome)" ok "enable: ok"

# A reboot also makes the value active: a second set, then another boot.
jq '.devlink.enable_roce = false | .devlink_active.enable_roce = false' "$NICSIM_STATE/cx0.json" \
	>"$TEST_TMP/s" && mv "$TEST_TMP/s" "$NICSIM_STATE/cx0.json"
halo
is "$rc" 10 "RoCE off again behind the tool's back: apply sets it, reboot bit"
halo --check
is "$rc" 8 "... and check says pending"
echo 7c1d0a4e-0000-4000-8000-000000000002 >"$ROOT/proc/sys/kernel/random/boot_id"
halo --check
is "$rc" 0 "after a reboot (another boot_id): clean"
halo
is "$rc" 0 "apply after the reboot: nothing to do"
is "$(jq -r '.items[] | select(.key=="roce/cx/enable") | .memo' "$STATE")" null \
	"the state file forgets the set once it is active"

done_testing
