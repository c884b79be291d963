#!/bin/bash
# An E810 port in a bond: ice refuses every DCB change there ("DCB changes
# not allowed when in a bond"; docs/hardware.md, "E810 (ice): DCB").
# halo-provision knows the bond from netlink, as the host table reads it:
# the port's IFLA_MASTER, and that upper device's IFLA_INFO_KIND "bond". It
# stops before anything changes (exit 1, naming the item and the bond),
# instead of turning the firmware agent off and then failing half-way. A
# bridge port is no bond; a bonded port whose DCB already matches checks
# and applies clean.
#
# This kernel has no bonding driver: the bond is a real bridge (so the
# port's IFLA_MASTER is the kernel's own) that the simulator shows as a
# bond (NICSIM_BONDS). The NIC: tests/nicsim, e810 profile with bonded=yes
# (the driver's refusal).
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/nicsim/nicsim-lib.sh"

e810_node rocebond
ip -n "$NS" link add probe0 type bridge 2>/dev/null && ip -n "$NS" link del probe0 ||
	{ echo "1..0 # SKIP no bridges"; exit 0; }
export NICSIM_LOG=$TEST_TMP/nicsim.log NICSIM_BONDS=bond0
echo "e810a e810 pci=0000:3b:00.0 bonded=yes" >"$NICSIM_CONFIG"

# upper NAME: the port's upper device is NAME, a new bridge (bond0 is
# shown as a bond); "" for none.
upper() {
	ip -n "$NS" link set e810a nomaster
	ip -n "$NS" link del bond0 2>/dev/null
	ip -n "$NS" link del br0 2>/dev/null
	[ -z "$1" ] && return
	ip -n "$NS" link add "$1" type bridge && ip -n "$NS" link set "$1" up &&
		ip -n "$NS" link set e810a master "$1"
}

write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "rdma0"; match = { driver = "ice"; };
    roce = { enable = true; dcbx = "host"; pfc = [ 3 ]; trust = "dscp";
             dscp_prio = ( [ 26, 3 ] ); }; }
);
CONF
run() { nicsim_halo --only roce "$@"; }

upper bond0
is "$(ip -n "$NS" -j link show e810a | jq -r '.[0].master')" bond0 \
	"the kernel says: e810a's upper device is bond0"
run
is "$rc" 1 "bonded E810 with DCB to change: exit 1"
like "$err" 'roce/rdma0/fw-lldp-agent: e810a is a port of bond bond0, and ice refuses DCB changes there \("DCB changes not allowed when in a bond"\)' \
	"the error names the item, the bond and the driver's words"
like "$err" 'roce/rdma0/pfc: e810a is a port of bond bond0' "... and the pfc item"
is "$(state e810a '.requests.dcbnl.set + .requests.ethtool.set + .requests.devlink.set')" 0 \
	"nothing was sent to change the NIC"
is "$(state e810a '.priv_flags["fw-lldp-agent"]')" true "the firmware agent is still on"
[ ! -e "$ROOT/var/lib/halo-provision/state.json" ]
ok $? "no state file written"
run --check
is "$rc" 1 "check: exit 1 as well"

# The same bridge not shown as a bond: a bridge's port, no prediction; the
# driver (still bonded) refuses by itself, with a bare EINVAL inside the
# dcbnl reply (its words go to the kernel log only).
NICSIM_BONDS="" run --json
is "$(jq -r '.items[] | select(.key=="roce/rdma0/pfc") | .outcome' <<<"$out")" failed \
	"unpredicted: the driver refuses pfc (failed)"
like "$(jq -r '.items[] | select(.key=="roce/rdma0/pfc") | .message' <<<"$out")" \
	'^setting PFC \(IEEE_SET\): Invalid argument' "... with a bare EINVAL"

# A bridge port is no bond: DCB is applied.
jq '.bonded = false' "$NICSIM_STATE/e810a.json" >"$TEST_TMP/s" && mv "$TEST_TMP/s" "$NICSIM_STATE/e810a.json"
upper br0
run
is "$rc" 2 "bridge port: apply exit 2"
is "$(state e810a .pfc_enabled)" '[3]' "PFC on 3"

# The port joins a bond with its DCB already right: in sync.
jq '.bonded = true' "$NICSIM_STATE/e810a.json" >"$TEST_TMP/s" && mv "$TEST_TMP/s" "$NICSIM_STATE/e810a.json"
upper bond0
run --check
is "$rc" 0 "bonded, DCB already right: check exit 0"
run
is "$rc" 0 "... and apply exit 0"
# Then someone moves PFC: the change is refused up front again.
jq '.pfc_enabled = [4]' "$NICSIM_STATE/e810a.json" >"$TEST_TMP/s" && mv "$TEST_TMP/s" "$NICSIM_STATE/e810a.json"
run
is "$rc" 1 "PFC drifted on a bonded port: exit 1"
like "$err" 'roce/rdma0/pfc: e810a is a port of bond bond0' "... naming pfc"
is "$(state e810a .pfc_enabled)" '[4]' "nothing changed"

# Out of the bond: the change is applied.
jq '.bonded = false' "$NICSIM_STATE/e810a.json" >"$TEST_TMP/s" && mv "$TEST_TMP/s" "$NICSIM_STATE/e810a.json"
upper ""
run
is "$rc" 2 "no upper device: apply exit 2"
is "$(state e810a .pfc_enabled)" '[3]' "PFC back on 3"

done_testing
