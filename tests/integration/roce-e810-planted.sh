#!/bin/bash
# The net under the apply order: a change no order avoids. The simulated
# E810 is given a fault no driver has (planted=addr-clears-pfc: an address
# or route added on the port turns PFC off), on top of ice's real port
# reset on every DCB change (which flushes the static route). PFC undoes
# the route and the route undoes PFC, whichever comes first: apply
# applies what was undone again, a bounded number of times, then fails
# the item still undone, naming the change that undid it; exit bit 4, and
# the report is the final observation (what the simulator holds).
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/nicsim/nicsim-lib.sh"

e810_node e810plant
echo "e810a e810 pci=0000:3b:00.0 enable_roce=false enable_iwarp=true planted=addr-clears-pfc" \
	>"$NICSIM_CONFIG"

write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "rdma0"; match = { driver = "ice"; pci = "0000:3b:00.0"; };
    addresses = [ "192.168.100.1/30" ];
    routes = ( { to = "10.0.2.0/24"; via = "192.168.100.2"; } );
    roce = { enable = true; dcbx = "host"; pfc = [ 3 ]; trust = "dscp";
             dscp_prio = ( [ 26, 3 ] ); }; }
);
CONF

halo() { nicsim_halo --only links,roce --json "$@"; }
item() { jq -r --arg k "$1" '.items[] | select(.key==$k) | '"$2" <<<"$out"; }
failed() { jq -r '[.items[] | select(.outcome=="failed") | .key] | join(" ")' <<<"$out"; }

halo
is "$rc" 6 "apply exits 6: changed, and the failed bit"
[ "$rc" = 6 ] || diag "$(jq -c '[.items[] | {key, outcome, message, note}]' <<<"$out") $err"
is "$(failed)" roce/rdma0/pfc "one item failed: PFC, undone by the route applied again after it"
like "$(item roce/rdma0/pfc .message)" \
	'^undone by a later change on the same interface \(link/rdma0/route/10\.0\.2\.0/24[^)]*\), also after applying it again: observed ' \
	"... naming the change that undid it"
is "$(state e810a '.pfc_enabled | length')" 0 "the simulator ends with PFC off"
is "$(item roce/rdma0/pfc .observed)" "[ ]" \
	"the reported PFC is the simulator's (the final observation)"
like "$(item 'link/rdma0/route/10.0.2.0/24' .note)" \
	'applied again: undone by the port reset that ice does on every DCB change \(roce/rdma0/pfc\)' \
	"the route was applied again, naming ice's reset"
ok "$(( $(state e810a .port_resets) >= 2 ? 0 : 1 ))" "the simulator reset the port more than once"

# Without the planted fault the same node converges: the failure is the
# fault's, not the order's.
echo "e810a e810 pci=0000:3b:00.0 enable_roce=false enable_iwarp=true" >"$NICSIM_CONFIG"
rm -f "$NICSIM_STATE"/*.json
ip -n "$NS" addr flush dev e810a scope global
halo
is "$rc" 2 "without the fault: apply exits 2"
halo --check
is "$rc" 0 "... and --check is clean"
done_testing
