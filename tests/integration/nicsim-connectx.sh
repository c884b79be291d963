#!/bin/bash
# The simulated ConnectX (mlx5): a new PFC bitmap flaps the real veth down
# and up (counted; carrier back), the same bitmap does not; the first DSCP
# entry makes trust DSCP, the last one gone makes it PCP; enable_roce is a
# driverinit param; with flap_ms the carrier is still down when the reply
# comes, so a client must wait for it.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/nicsim/nicsim-lib.sh"

NS=$(new_netns cx) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
veth_pair "$NS" cx0 && veth_pair "$NS" cx1 || { echo "1..0 # SKIP no veth"; exit 0; }
export NICSIM_STATE=$TEST_TMP/state NICSIM_CONFIG=$TEST_TMP/nicsim.conf
mkdir -p "$NICSIM_STATE"
cat >"$NICSIM_CONFIG" <<CONF
cx0 connectx pci=0000:41:00.0
cx1 connectx pci=0000:41:00.1 pfc=3 dscp=26:3 flap_ms=1500 dcbx=host
CONF
carrier() { ip -n "$NS" -j link show dev "$1" | jq -r '.[0].flags | index("LOWER_UP") != null'; }
ifindex() { ip -n "$NS" -j link show dev "$1" | jq -r '.[0].ifindex'; }

probe "$NS" dcb-get cx0
like "$out" 'dcbx 0xc' "firmware DCBX by default (CEE|IEEE)"
like "$out" 'pfc_delay 7' "cable length 7 m by default"
before=$(ifindex cx0)
probe "$NS" dcb-pfc cx0 3
like "$out" 'verdict 0' "PFC on priority 3 accepted"
is "$(state cx0 .link_flaps)" 1 "a new PFC bitmap flapped the link once"
is "$(carrier cx0)" true "carrier is back (ip -j: LOWER_UP)"
is "$(ifindex cx0)" "$before" "the same link (a flap, not a new one)"
probe "$NS" dcb-pfc cx0 3 30
like "$out" 'verdict 0' "same bitmap, new cable length"
is "$(state cx0 .link_flaps)" 1 "the same bitmap does not flap"
is "$(state cx0 .pfc_delay)" 30 "delay is the cable length"
probe "$NS" dcb-pfc cx0 3,4
is "$(state cx0 .link_flaps)" 2 "another bitmap, another flap"
is "$(state cx0 .pfc_delay)" 30 "read-modify-write kept the cable length"
ip -n "$NS" link set cx0 down
probe "$NS" dcb-pfc cx0 4
is "$(state cx0 .link_flaps)" 2 "a port that is down is not toggled"
ip -n "$NS" link set cx0 up

probe "$NS" dcb-app-add cx0 stream:4791:3
like "$out" 'verdict -22' "only the DSCP selector (EINVAL)"
is "$(state cx0 .trust)" '"pcp"' "trust pcp without DSCP entries"
probe "$NS" dcb-app-add cx0 dscp:26:3 dscp:48:6
like "$out" 'verdict 0' "two DSCP entries in one request"
is "$(state cx0 .trust)" '"dscp"' "trust dscp with the first DSCP entry"
probe "$NS" dcb-app-add cx0 dscp:26:5
like "$out" 'verdict 0' "mlx5 replaces a DSCP's priority"
is "$(state cx0 '[.app[] | "\(.protocol):\(.priority)"] | sort')" '["26:5","48:6"]' "the table after the replace"
probe "$NS" dcb-app-del cx0 dscp:26:3
like "$out" 'verdict -2' "deleting a mapping the NIC does not hold: ENOENT"
probe "$NS" dcb-app-del cx0 dscp:26:5 dscp:48:6
like "$out" 'verdict 0' "both deleted"
is "$(state cx0 .trust)" '"pcp"' "the last DSCP entry gone: trust pcp"

probe "$NS" dcb-set-dcbx cx0 9
like "$out" 'dcbx 0x0' "SDCBX host|ieee accepted (0)"
is "$(state cx0 .dcbx)" '"host"' "state: dcbx host"
probe "$NS" dcb-set-dcbx cx0 2
like "$out" 'dcbx 0x1' "SDCBX LLD_MANAGED refused (1)"
probe "$NS" dcb-set-dcbx cx0 0
is "$(state cx0 .dcbx)" '"firmware"' "SDCBX 0 hands DCBX back to the firmware"

probe "$NS" devlink-get pci/0000:41:00.0 enable_roce
like "$out" 'enable_roce driverinit true' "devlink: enable_roce is driverinit, on"
probe "$NS" devlink-set pci/0000:41:00.0 enable_roce false
like "$out" 'error -95' "devlink: runtime cmode is EOPNOTSUPP on mlx5"
probe "$NS" devlink-get pci/0000:41:00.0 enable_iwarp
like "$out" 'error -22' "devlink: no enable_iwarp on mlx5 (EINVAL)"
probe "$NS" privflags-get cx0 compact
like "$out" 'size 8' "ethtool: 8 mlx5 private flags"
like "$out" 'mask 0xff' "ethtool: compact bitset with its mask"

# flap_ms: the reply comes while the carrier is still down.
probe "$NS" dcb-pfc cx1 3,4
like "$out" 'verdict 0' "cx1: PFC change accepted"
is "$(carrier cx1)" false "cx1: carrier down right after the reply"
for _ in $(seq 50); do [ "$(carrier cx1)" = true ] && break; sleep 0.1; done
is "$(carrier cx1)" true "cx1: carrier back within 5 s"
is "$(state cx1 .link_flaps)" 1 "cx1: one flap"
done_testing
