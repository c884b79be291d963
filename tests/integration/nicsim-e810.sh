#!/bin/bash
# The simulated E810 (ice): host DCB refused while the firmware LLDP agent
# runs (the verdict inside the reply, ACK 0), accepted once the agent is off;
# DSCP APP entries only, L3 mode at the first; RoCE and iWARP exclusive;
# DCB refused in a bond. Read back through the probe and the state file.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/nicsim/nicsim-lib.sh"

NS=$(new_netns e810) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
veth_pair "$NS" e810a && veth_pair "$NS" e810b || { echo "1..0 # SKIP no veth"; exit 0; }
export NICSIM_STATE=$TEST_TMP/state NICSIM_CONFIG=$TEST_TMP/nicsim.conf
mkdir -p "$NICSIM_STATE"
cat >"$NICSIM_CONFIG" <<CONF
# one E810 port with the factory agent on, one bonded with the agent off
e810a e810 pci=0000:3b:00.0
e810b e810 fw_lldp_agent=off bonded=yes pfc=3
CONF

probe "$NS" dcb-get e810a
is "$rc" 0 "IEEE_GET answered (ACK 0)"
like "$out" '^dcbx 0xa$' "agent on: DCBX is LLD_MANAGED|IEEE, one version bit (ice_dcb_get_mode)"
is "$(state e810a .dcbx)" '"firmware"' "state: dcbx firmware"
is "$(state e810a '.priv_flags["fw-lldp-agent"]')" true "state: fw-lldp-agent on"

probe "$NS" dcb-pfc e810a 3
is "$rc" 0 "agent on: PFC set ACKed 0 all the same"
like "$out" 'verdict -22' "agent on: the reply attribute says EINVAL"
is "$(state e810a .pfc_enabled)" '[]' "agent on: PFC unchanged"
probe "$NS" dcb-app-add e810a dscp:26:3
like "$out" 'verdict -22' "agent on: DSCP APP refused with EINVAL"
probe "$NS" dcb-set-dcbx e810a 9
like "$out" 'dcbx 0x1' "agent on: SDCBX host|ieee answers ICE_DCB_NO_HW_CHG (1)"

probe "$NS" privflags-set e810a fw-lldp-agent off
is "$rc" 0 "ethtool: fw-lldp-agent off"
probe "$NS" privflags-get e810a
like "$out" 'flag fw-lldp-agent off' "ethtool reads the flag back off"
probe "$NS" dcb-dcbx e810a
like "$out" 'dcbx 0x9' "agent off: DCBX host|ieee"
probe "$NS" dcb-pfc e810a 3
like "$out" 'verdict 0' "agent off: PFC on priority 3 accepted"
is "$(state e810a .pfc_enabled)" '[3]' "state: pfc_enabled [3]"
probe "$NS" dcb-app-add e810a stream:4791:3
like "$out" 'verdict -22' "a non-DSCP selector is refused (EINVAL)"
is "$(state e810a .trust)" '"pcp"' "still L2 (VLAN priority) mode"
probe "$NS" dcb-app-add e810a dscp:26:3
like "$out" 'verdict 0' "DSCP 26 -> 3 accepted"
is "$(state e810a .app)" '[{"selector":"dscp","protocol":26,"priority":3}]' "state: the APP entry"
is "$(state e810a .trust)" '"dscp"' "the first DSCP entry switches to L3 DSCP mode"
probe "$NS" dcb-app-add e810a dscp:26:3
like "$out" 'verdict -17' "the same entry again: EEXIST"
probe "$NS" dcb-app-add e810a dscp:26:5
like "$out" 'verdict -22' "DSCP 26 mapped again: EINVAL"
probe "$NS" privflags-set e810a fw-lldp-agent on
is "$rc" 1 "the agent cannot start in L3 DSCP mode"
like "$out" 'error -95 .*L3 DSCP mode' "... EOPNOTSUPP with the driver's message"
probe "$NS" dcb-app-del e810a dscp:26:3
like "$out" 'verdict 0' "IEEE_DEL of the entry"
is "$(state e810a .trust)" '"pcp"' "the last DSCP entry gone: back to L2 mode"
probe "$NS" dcb-raw-pfc e810a 8
is "$rc" 1 "a short DCB_ATTR_IEEE_PFC is a request error"
like "$out" 'error -34' "... ERANGE, as nla_parse gives"

# RoCE v2 and iWARP: exclusive, the validator refuses either while the
# other is on (even a false value).
probe "$NS" devlink-get pci/0000:3b:00.0 enable_roce
like "$out" 'enable_roce runtime true' "devlink: RoCE v2 on by default (runtime cmode)"
probe "$NS" devlink-set pci/0000:3b:00.0 enable_iwarp true
is "$rc" 1 "devlink: iWARP refused while RoCE is on"
like "$out" 'error -95 .*RoCEv2 is currently enabled' "... EOPNOTSUPP with ice's message"
probe "$NS" devlink-set pci/0000:3b:00.0 enable_roce false driverinit
like "$out" 'error -95' "devlink: a cmode ice does not have is EOPNOTSUPP"
probe "$NS" devlink-set pci/0000:3b:00.0 enable_roce false
is "$rc" 0 "devlink: RoCE off"
probe "$NS" devlink-set pci/0000:3b:00.0 enable_iwarp true
is "$rc" 0 "devlink: then iWARP on"
probe "$NS" devlink-set pci/0000:3b:00.0 enable_roce true
like "$out" 'iWARP is currently enabled' "devlink: RoCE refused while iWARP is on"
is "$(state e810a .devlink)" '{"enable_roce":false,"enable_iwarp":true}' "state: devlink params"
probe "$NS" devlink-get pci/0000:99:00.0 enable_roce
like "$out" 'error -19' "devlink: an unknown handle is ENODEV"

# Bonded: every host DCB change refused, the agent being off or not.
probe "$NS" dcb-pfc e810b 3,4
like "$out" 'verdict -22' "bonded: PFC refused (EINVAL)"
probe "$NS" dcb-app-add e810b dscp:26:3
like "$out" 'verdict -22' "bonded: APP refused (EINVAL)"
is "$(state e810b .pfc_enabled)" '[3]' "bonded: PFC as it was"

# Requests counted per kind (get/set), per interface.
is "$(state e810b .requests.dcbnl)" '{"get":1,"set":2}' "e810b: 1 get (the read of dcb-pfc), 2 sets"
is "$(state e810b '[.requests.get, .requests.set]')" '[1,2]' "e810b: totals"
done_testing
