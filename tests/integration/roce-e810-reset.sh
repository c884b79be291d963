#!/bin/bash
# What apply reports is what the node keeps, on a simulated E810 that
# resets its port on every DCB change it applies (ice_dcbnl_devreset: the
# kernel then flushes the link's static routes and IPv6 addresses). A
# fresh NIC (firmware agent on) with an IPv4 /30, an IPv6 address, a
# static route of each family and RoCE (PFC 3, DSCP 26 -> 3): apply ends
# with everything present, and --check right after is clean. The same
# with the simulator's reset switched off passes too: the order alone is
# not what the test proves. iproute2's dcb, devlink and ethtool read the
# applied state back. Then a DCB repair on a node whose links are
# in sync: the reset it makes is seen, and what it removed is put back.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/nicsim/nicsim-lib.sh"

e810_node e810reset

write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "rdma0"; match = { driver = "ice"; pci = "0000:3b:00.0"; };
    mtu = 9000;
    addresses = [ "192.168.100.1/30", "fd00:100::1/64" ];
    routes = ( { to = "10.0.2.0/24"; via = "192.168.100.2"; },
               { to = "fd00:200::/64"; via = "fd00:100::2"; } );
    roce = { enable = true; dcbx = "host"; pfc = [ 3 ]; trust = "dscp";
             dscp_prio = ( [ 26, 3 ] ); tos = 106; }; }
);
CONF

halo() { nicsim_halo --only links,roce --json "$@"; }
item() { jq -r --arg k "$1" '.items[] | select(.key==$k) | '"$2" <<<"$out"; }
route() { ip -n "$NS" -j "$1" route show "$2" dev e810a | jq -r '.[0].gateway // "none"'; }
addr6() { ip -n "$NS" -j -6 addr show dev e810a scope global | jq -r '[.[0].addr_info[] | .local // empty] | join(" ")'; }
# A fresh NIC as shipped: agent on, iWARP, no DCB.
fresh() {
	echo "e810a e810 pci=0000:3b:00.0 enable_roce=false enable_iwarp=true $1" >"$NICSIM_CONFIG"
	rm -f "$NICSIM_STATE"/*.json "$ROOT/var/lib/halo-provision/state.json"
	ip -n "$NS" link set e810a mtu 1500
	ip -n "$NS" addr flush dev e810a scope global
}

for reset in on off; do
	fresh "reset=$reset"
	halo
	is "$rc" 2 "reset $reset: apply exits 2 (changed, nothing failed)"
	[ "$rc" = 2 ] || diag "$(jq -c '[.items[] | select(.outcome != "changed" and .outcome != "ok") | {key, outcome, message}]' <<<"$out") $err"
	is "$(route -4 10.0.2.0/24)" 192.168.100.2 "reset $reset: the IPv4 route is there after apply"
	is "$(route -6 fd00:200::/64)" fd00:100::2 "reset $reset: the IPv6 route is there after apply"
	is "$(addr6)" fd00:100::1 "reset $reset: the IPv6 address is there after apply"
	is "$(state e810a .pfc_enabled)" '[3]' "reset $reset: PFC on 3"
	if [ "$reset" = on ]; then
		resets=$(state e810a .port_resets)
		[ "${resets:-0}" -ge 1 ]
		ok $? "reset on: the simulated ice reset its port ($resets times)"
	else
		is "$(state e810a .port_resets)" 0 "reset off: no reset"
	fi
	halo --check
	is "$rc" 0 "reset $reset: --check right after the apply is clean"
done

# Witnesses that are not ours: iproute2's dcb, devlink and ethtool read
# the state the apply left (only to read: Debian 12's dcb can report
# success for a refused set, docs/hardware.md "iproute2 dcb").
is "$(nicsim "$NS" dcb -j pfc show dev e810a | jq -c .prio_pfc)" \
	'[false,false,false,true,false,false,false,false]' "dcb pfc show: PFC on priority 3 only"
is "$(nicsim "$NS" dcb -j app show dev e810a | jq -c .dscp_prio)" '[[26,3]]' \
	"dcb app show: DSCP 26 -> priority 3"
is "$(nicsim "$NS" devlink -j dev param show pci/0000:3b:00.0 name enable_roce |
	jq -c '[.param[][0].values[] | [.cmode, .value]]')" '[["runtime",true]]' \
	"devlink dev param show: enable_roce runtime true"
like "$(nicsim "$NS" ethtool --show-priv-flags e810a)" 'fw-lldp-agent +: off' \
	"ethtool --show-priv-flags: the firmware LLDP agent off"

# A DCB repair on a node whose links are in sync: PFC moved behind the
# tool's back, so only roce has work; the reset it makes flushes the
# routes that held before it. The final observation sees it and puts
# them back, saying why.
fresh "reset=on"
halo
jq '.pfc_enabled = [4]' "$NICSIM_STATE/e810a.json" >"$TEST_TMP/s" &&
	mv "$TEST_TMP/s" "$NICSIM_STATE/e810a.json"
halo --check
is "$(jq -r '[.items[] | select(.outcome=="drift") | .key] | join(" ")' <<<"$out")" \
	"roce/rdma0/pfc" "PFC moved behind the tool's back: only roce/rdma0/pfc drifts"
halo
is "$rc" 2 "the repair: exit 2"
is "$(item roce/rdma0/pfc .outcome)" changed "pfc: changed"
is "$(item 'link/rdma0/route/10.0.2.0/24' .outcome)" changed "the IPv4 route, removed by the reset, is changed"
like "$(item 'link/rdma0/route/10.0.2.0/24' .note)" \
	'^applied again: undone by the port reset that ice does on every DCB change \(roce/rdma0/pfc\)$' \
	"... and its note names the reset and the item that made it"
is "$(route -4 10.0.2.0/24)" 192.168.100.2 "the IPv4 route is back"
is "$(addr6)" fd00:100::1 "the IPv6 address is back"
halo --check
is "$rc" 0 "--check after the repair is clean"

done_testing
