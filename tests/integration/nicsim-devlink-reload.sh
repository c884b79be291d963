#!/bin/bash
# devlink driverinit parameters and reload on the simulated NICs, read by
# iproute2's devlink (not our client): mlx5's enable_roce is driverinit, so
# a set reads back at once while the device keeps running with the old
# value until `devlink dev reload` (driver_reinit) loads it; the reload
# statistics in DEVLINK_CMD_GET (devlink_nl_fill, devlink_reload_stats_put)
# count it. ice's parameters are runtime; ice refuses a reinit in a bond.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/nicsim/nicsim-lib.sh"

NS=$(new_netns dlrel) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
veth_pair "$NS" cx0 && veth_pair "$NS" ice0 && veth_pair "$NS" ice1 || { echo "1..0 # SKIP no veth"; exit 0; }
export NICSIM_STATE=$TEST_TMP/state NICSIM_CONFIG=$TEST_TMP/nicsim.conf
mkdir -p "$NICSIM_STATE"
cat >"$NICSIM_CONFIG" <<CONF
cx0 connectx pci=0000:41:00.0
ice0 e810 pci=0000:3b:00.0 fw_lldp_agent=off
ice1 e810 pci=0000:3b:00.1 bonded=yes
CONF
CX=pci/0000:41:00.0 ICE=pci/0000:3b:00.0
devlink() { nicsim "$NS" devlink "$@" 2>&1; }
param() { devlink -j dev param show "$1" name "$2" | jq -c '[.param[][0].values[] | [.cmode, .value]]'; }
reloads() { devlink -j -s dev show "$1" | jq -c ".dev[\"$1\"].stats.reload.driver_reinit.unspecified"; }

is "$(param "$CX" enable_roce)" '[["driverinit",true]]' "devlink dev param show: enable_roce driverinit true"
is "$(reloads "$CX")" 0 "devlink -s dev show: no reload yet"
is "$(devlink -j -s dev show "$CX" | jq -c ".dev[\"$CX\"].stats | [.reload.fw_activate, .remote_reload.driver_reinit]")" \
	'[{"unspecified":0,"no_reset":0},{"unspecified":0}]' "mlx5's statistics: fw_activate with its no_reset limit, remote ones"

devlink dev param set "$CX" name enable_roce value false cmode driverinit
is "$?" 0 "devlink dev param set enable_roce false (driverinit)"
is "$(param "$CX" enable_roce)" '[["driverinit",false]]' "the driverinit value reads back false at once"
is "$(state cx0 '[.devlink.enable_roce, .devlink_active.enable_roce]')" '[false,true]' \
	"state: stored false, the device still runs with RoCE on"
is "$(reloads "$CX")" 0 "still no reload: a reader can tell the value is pending"

out=$(devlink dev reload "$CX" action driver_reinit)
is "$?" 0 "devlink dev reload action driver_reinit"
like "$out" 'driver_reinit' "... reload_actions_performed: driver_reinit"
is "$(reloads "$CX")" 1 "devlink -s dev show: one driver_reinit reload"
is "$(state cx0 '[.devlink_active.enable_roce, .devlink_reloads]')" '[false,1]' "state: RoCE now off in the device"
is "$(state cx0 '[.link_flaps, .port_resets]')" '[1,0]' "the reinit took the carrier away once (admin UP)"
out=$(devlink dev reload "$CX")
is "$?" 0 "devlink dev reload without an action (driver_reinit)"
is "$(reloads "$CX")" 2 "... counted"

out=$(devlink dev reload "$CX" action fw_activate)
is "$?" 1 "fw_activate: refused"
like "$out" 'FW activate is unsupported' "... with mlx5's message"
out=$(devlink dev reload "$CX" action driver_reinit limit no_reset)
like "$out" 'Requested limit is invalid for this action' "driver_reinit with no_reset: the core's EINVAL"
is "$(reloads "$CX")" 2 "refused reloads are not counted"

# ice: runtime parameters, in effect at once; reload limits none.
is "$(param "$ICE" enable_roce)" '[["runtime",true]]' "ice: enable_roce runtime true"
is "$(devlink -j -s dev show "$ICE" | jq -c ".dev[\"$ICE\"].stats.reload.fw_activate")" '{"unspecified":0}' \
	"ice's statistics: no limits declared"
devlink dev param set "$ICE" name enable_roce value false cmode runtime
is "$(state ice0 '[.devlink.enable_roce, .devlink_active.enable_roce]')" '[false,false]' "ice: a runtime set is in effect at once"
out=$(devlink dev reload "$ICE" action fw_activate)
like "$out" 'No pending firmware update' "ice fw_activate without a pending update: refused"
out=$(devlink dev reload "$ICE")
is "$?" 0 "ice: driver_reinit"
is "$(state ice0 '[.devlink_reloads, .port_resets]')" '[1,1]' "ice: counted, the port went down and up"
out=$(devlink dev reload pci/0000:3b:00.1)
is "$?" 1 "ice in a bond: reinit refused"
like "$out" 'Remove all associated Bonds before doing reinit' "... with ice's message"
like "$(nicsim "$NS" ethtool --show-priv-flags ice1)" 'fw-lldp-agent +: on' "ethtool --show-priv-flags reads the bonded port's agent"
done_testing
