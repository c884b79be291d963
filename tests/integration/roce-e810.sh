#!/bin/bash
# roce on a simulated E810 (tests/nicsim, profile e810) through the real
# codecs: the firmware LLDP agent (on, as shipped) is turned off before
# any host DCB change; enable_roce by devlink with iWARP turned off first;
# DCBX host, PFC on 3, DSCP 26 -> 3; a second apply sends no SETDCB; a
# check is clean; an edit of the NIC behind the tool's back is drift
# naming the item; DSCP 26 moved to another priority, then DSCP trust
# dropped, each converge in one apply. Driver and PCI address come from a
# fixture sysfs under --root, the live link from --netns.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/nicsim/nicsim-lib.sh"

e810_node roce810
export NICSIM_LOG=$TEST_TMP/nicsim.log
echo "e810a e810 pci=0000:3b:00.0 enable_roce=false enable_iwarp=true" >"$NICSIM_CONFIG"

write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "rdma0"; match = { driver = "ice"; pci = "0000:3b:00.0"; };
    roce = { enable = true; dcbx = "host"; pfc = [ 3 ]; trust = "dscp";
             dscp_prio = ( [ 26, 3 ] ); tos = 106; ecn = [ 3 ]; }; }
);
CONF

run() { nicsim_halo --only roce "$@"; }
item() { jq -r --arg k "$1" '.items[] | select(.key==$k) | '"$2" <<<"$out"; }

run --check --json
is "$rc" 2 "check before the first apply: drift (exit 2)"
is "$(item roce/rdma0/fw-lldp-agent .observed)" on "the factory agent is seen on"
is "$(item roce/rdma0/pfc .outcome)" drift "pfc is drift while the firmware manages DCB"
is "$(state e810a .requests.dcbnl.set)" 0 "check sent no SETDCB"

run --json
is "$rc" 2 "first apply: exit 2 (changed, nothing failed)"
[ "$rc" = 2 ] || diag "$out $err"
is "$(jq -c '[.items[] | select(.subsystem=="roce") | .key]' <<<"$out")" \
	'["roce/rdma0/fw-lldp-agent","roce/rdma0/enable","roce/rdma0/dcbx","roce/rdma0/pfc","roce/rdma0/dscp-prio","roce/rdma0/trust","roce/rdma0/ecn"]' \
	"items in apply order, the agent first"
is "$(item roce/rdma0/fw-lldp-agent .outcome)" changed "agent: changed"
is "$(state e810a '.priv_flags["fw-lldp-agent"]')" false "state: the agent is off"
# The log: "IF dcbnl type=79 ..." is an RTM_SETDCB, "IF genl ... cmd=14" an
# ETHTOOL_MSG_PRIVFLAGS_SET.
first_set=$(grep -n -m1 '^e810a dcbnl type=79 ' "$NICSIM_LOG" | cut -d: -f1)
agent_set=$(grep -n -m1 '^e810a genl .* cmd=14 ' "$NICSIM_LOG" | cut -d: -f1)
[ -n "$agent_set" ] && [ -n "$first_set" ] && [ "$agent_set" -lt "$first_set" ]
ok $? "the agent went off before the first DCB set (log lines ${agent_set:-none} < ${first_set:-none})"
is "$(item roce/rdma0/enable .outcome)" changed "enable: changed"
like "$(item roce/rdma0/enable .note)" 'enable_iwarp turned off first' "enable says iWARP went off first"
is "$(state e810a .devlink)" '{"enable_roce":true,"enable_iwarp":false}' "state: RoCE on, iWARP off"
is "$(state e810a .dcbx)" '"host"' "state: dcbx host"
is "$(state e810a .pfc_enabled)" '[3]' "state: PFC on 3"
is "$(state e810a .app)" '[{"selector":"dscp","protocol":26,"priority":3}]' "state: DSCP 26 -> 3"
is "$(state e810a .trust)" '"dscp"' "state: L3 DSCP mode"
is "$(item roce/rdma0/ecn .outcome)" unsupported "ecn: unsupported on ice"
like "$(item roce/rdma0/ecn .message)" 'upstream mlx5 and irdma have no such knob' "ecn says why"
is "$(jq -r '.failed' <<<"$out")" false "nothing failed"
# The check before the apply said the agent blocked these; after it the
# agent is off, and no message may still say otherwise.
stale=$(jq -r '[.items[] | select(.subsystem=="roce" and .outcome=="changed")
	| select(((.message // "") + (.note // "")) | test("LLDP agent|fw-lldp-agent"))
	| .key] | join(" ")' <<<"$out")
is "$stale" "" "no changed item still speaks of the firmware agent that is now off"

sets=$(state e810a .requests.dcbnl.set)
run --json
is "$rc" 0 "second apply: exit 0"
is "$(state e810a .requests.dcbnl.set)" "$sets" "second apply: 0 SETDCB requests"
run --check
is "$rc" 0 "check: clean"

# Behind the tool's back: PFC moved to priority 4.
jq '.pfc_enabled = [4]' "$NICSIM_STATE/e810a.json" >"$TEST_TMP/s" && mv "$TEST_TMP/s" "$NICSIM_STATE/e810a.json"
run --check --json
is "$rc" 2 "drift: check exit 2"
is "$(jq -c '[.items[] | select(.outcome=="drift") | .key]' <<<"$out")" '["roce/rdma0/pfc"]' "drift names roce/rdma0/pfc"
is "$(item roce/rdma0/pfc .observed)" '[ 4 ]' "observed PFC [ 4 ]"
run
is "$rc" 2 "apply repairs it"
is "$(state e810a .pfc_enabled)" '[3]' "state: PFC back on 3"

# The agent turned back on behind our back resets host DCB: the agent
# item and the DCB items drift, and one apply converges again.
jq '.priv_flags["fw-lldp-agent"] = true | .dcbx = "firmware" | del(.dcbx_mode) | .app = [] | .pfc_enabled = []' \
	"$NICSIM_STATE/e810a.json" >"$TEST_TMP/s" && mv "$TEST_TMP/s" "$NICSIM_STATE/e810a.json"
run --check --json
is "$rc" 2 "agent on again: drift"
is "$(item roce/rdma0/fw-lldp-agent .outcome)" drift "... naming fw-lldp-agent"
run
is "$rc" 2 "apply converges again"
run --check
is "$rc" 0 "and checks clean"

# DSCP 26 moved to priority 4, PFC with it. ice refuses a second mapping
# of a DSCP value, so the old entry goes first: the port passes through L2
# (PFC off) and back to DSCP mode, taking PFC from ice's desired copy. One
# apply still ends with exactly the config.
sed -i -e 's/pfc = \[ 3 \]/pfc = [ 4 ]/' -e 's/\[ 26, 3 \]/[ 26, 4 ]/' -e 's/ecn = \[ 3 \]/ecn = [ 4 ]/' "$CONF"
run --json
is "$rc" 2 "DSCP 26 moved to priority 4: exit 2"
[ "$rc" = 2 ] || diag "$out $err"
is "$(state e810a '[.app, .pfc_enabled, .trust]')" '[[{"selector":"dscp","protocol":26,"priority":4}],[4],"dscp"]' \
	"state: DSCP 26 -> 4 alone, PFC on 4, DSCP mode"
run --check
is "$rc" 0 "and checks clean"

# DSCP trust dropped (no dscp_prio, no trust), PFC kept: deleting the last
# DSCP entry returns ice to L2 with PFC off, so the PFC item is applied
# again after it, one apply, and the entries recorded as ours are gone.
sed -i -e 's/pfc = \[ 4 \]/pfc = [ 2 ]/' -e 's/ trust = "dscp";//' \
	-e 's/dscp_prio = ( \[ 26, 4 \] ); tos = 106; ecn = \[ 4 \];//' "$CONF"
run --json
is "$rc" 2 "DSCP trust dropped: exit 2"
[ "$rc" = 2 ] || diag "$out $err"
is "$(state e810a '[.app, .pfc_enabled, .trust]')" '[[],[2],"pcp"]' "state: no APP entry, PFC on 2, PCP"
is "$(item roce/rdma0/dscp-prio .outcome)" changed "the entry recorded as ours is deleted"
like "$(item roce/rdma0/pfc .note)" \
	'^applied again: undone by .*default DCB \(PFC off\) when the last DSCP entry goes \(roce/rdma0/dscp-prio\)$' \
	"the PFC note names ice's return to its default DCB"
run --check
is "$rc" 0 "and checks clean"

done_testing
