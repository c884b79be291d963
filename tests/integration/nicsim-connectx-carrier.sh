#!/bin/bash
# The simulated ConnectX does what mlx5 does on a PFC change
# (mlx5e_dcbnl_ieee_setpfc -> mlx5_toggle_port_link): the port toggles in
# firmware, so the carrier goes and comes back while the netdev stays
# administratively UP and keeps its addresses and routes. Here the veth's
# peer, in another namespace, goes down for flap_ms. iproute2's dcb makes
# the change and reads the state back; DCBX bits and ETS as mlx5 reports
# them (mlx5e_dcbnl_getdcbx, mlx5e_dcbnl_ieee_getets).
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/nicsim/nicsim-lib.sh"

NS=$(new_netns cxcar) && PEER=$(new_netns cxpeer) ||
	{ echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ip -n "$NS" link add name cx0 type veth peer name cx0p netns "$PEER" &&
	ip -n "$PEER" link set cx0p up && ip -n "$NS" link set cx0 up ||
	{ echo "1..0 # SKIP no veth"; exit 0; }
export NICSIM_STATE=$TEST_TMP/state NICSIM_CONFIG=$TEST_TMP/nicsim.conf
mkdir -p "$NICSIM_STATE"
echo "cx0 connectx pci=0000:41:00.0 flap_ms=1500" >"$NICSIM_CONFIG"
ip -n "$NS" addr add 10.10.12.1/30 dev cx0
ip -n "$NS" -6 addr add fd00::1/64 dev cx0 nodad
ip -n "$NS" route add 10.8.0.0/24 via 10.10.12.2
ip -n "$NS" -6 route add fd01::/64 dev cx0

flags() { ip -n "$NS" -j link show dev cx0 | jq -c '.[0].flags | [index("UP") != null, index("LOWER_UP") != null]'; }
kept() {
	echo "$(ip -n "$NS" -j addr show dev cx0 | jq -r '[.[0].addr_info[] | select(.scope == "global") | .local] | join(",")')" \
	     "$(ip -n "$NS" -j route show dev cx0 proto boot | jq -r '[.[].dst] | join(",")')" \
	     "$(ip -n "$NS" -j -6 route show dev cx0 proto boot | jq -r '[.[].dst] | join(",")')"
}
dcb() { nicsim "$NS" dcb "$@" 2>&1; }
for _ in $(seq 30); do [ "$(flags)" = '[true,true]' ] && break; sleep 0.1; done

is "$(dcb -j dcbx show dev cx0)" '{"cee":true,"ieee":true}' "DCBX: firmware (auto), CEE|IEEE (mlx5e_dcbnl_initialize)"
is "$(dcb -j ets show dev cx0 | jq -c '[.tc_tsa[0], .tc_bw[0], .prio_tc]')" '["vendor",100,[1,0,2,3,4,5,6,7]]' \
	"dcb ets show: mlx5e_ets_init (vendor TCs, priority 0 on TC1, 1 on TC0)"

# PFC on 3: the reply comes while the carrier is down.
before=$(kept)
is "$before" "10.10.12.1,fd00::1 10.8.0.0/24 fd01::/64" "before: addresses and a static route of each family"
dcb pfc set dev cx0 prio-pfc 3:on >/dev/null
is "$(flags)" '[true,false]' "right after the change: admin UP, no carrier"
is "$(ip -n "$NS" -j route show 10.8.0.0/24 | jq -r '.[0].flags | index("linkdown") != null')" true \
	"the static route is marked linkdown, not deleted"
is "$(kept)" "$before" "addresses and routes stay while the carrier is down"
for _ in $(seq 50); do [ "$(flags)" = '[true,true]' ] && break; sleep 0.1; done
is "$(flags)" '[true,true]' "the carrier comes back (admin UP throughout)"
is "$(kept)" "$before" "addresses and routes still there"
is "$(dcb -j pfc show dev cx0 | jq -c .prio_pfc)" '[false,false,false,true,false,false,false,false]' \
	"dcb pfc show: PFC on priority 3"
is "$(state cx0 '[.link_flaps, .port_resets]')" '[1,0]' "one carrier flap, no port reset"
is "$(ip -n "$PEER" -j link show dev cx0p | jq -r '.[0].flags | index("UP") != null')" true "the peer is up again"

# The same bitmap: no toggle.
dcb pfc set dev cx0 prio-pfc 3:on >/dev/null
is "$(flags)" '[true,true]' "the same PFC again: the carrier stays"
is "$(state cx0 .link_flaps)" 1 "... no flap"

# ETS: mlx5e_dbcnl_validate_ets, judged by the probe; no toggle.
probe "$NS" dcb-ets cx0 50,40,0,0,0,0,0,0 2,2,0,0,0,0,0,0 0,0,0,1,0,0,0,0
like "$out" 'verdict -22' "ETS classes summing to 90: EINVAL"
probe "$NS" dcb-ets cx0 50,50,0,0,0,0,0,0 2,2,0,0,0,0,0,0 0,0,0,9,0,0,0,0
like "$out" 'verdict -22' "a priority mapped to TC 9: EINVAL"
probe "$NS" dcb-ets cx0 60,40,0,0,0,0,0,0 2,2,0,0,0,0,0,0 0,0,0,1,0,0,0,0
like "$out" 'verdict 0' "ETS 60/40 with priority 3 on TC1 taken"
is "$(dcb -j ets show dev cx0 | jq -c '[.tc_bw[0:3], .tc_tsa[0:3], .prio_tc]')" \
	'[[60,40,100],["ets","ets","strict"],[0,0,0,1,0,0,0,0]]' "dcb ets show: the ETS classes, strict ones at 100"
is "$(state cx0 .link_flaps)" 1 "an ETS change does not toggle the port"

# SDCBX host and back (mlx5e_dcbnl_setdcbx): the mode given, then the
# HOST bit dropped.
probe "$NS" dcb-set-dcbx cx0 9
is "$(dcb -j dcbx show dev cx0)" '{"host":true,"ieee":true}' "SDCBX host|ieee: getdcbx returns it"
probe "$NS" dcb-set-dcbx cx0 0
is "$(dcb -j dcbx show dev cx0)" '{"ieee":true}' "SDCBX 0: back to the firmware, the HOST bit gone"

# A netdev that is down: the firmware leaves the port down, no flap.
ip -n "$NS" link set cx0 down
dcb pfc set dev cx0 prio-pfc 4:on >/dev/null
is "$(state cx0 .link_flaps)" 1 "a port that is down is not toggled"
is "$(ip -n "$PEER" -j link show dev cx0p | jq -r '.[0].flags | index("UP") != null')" true "... and the peer not touched"
done_testing
