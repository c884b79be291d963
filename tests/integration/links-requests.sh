#!/bin/bash
# The cost of a run does not grow with the host's links (issue 8, part 4):
# --check --json stats.netlink_requests is the same in a namespace of 2
# links and of 2,048 veth links. Entries matched by name are fetched with
# one RTM_GETLINK each; each configured address is one FIB-match lookup
# (is it on another link?); addresses are dumped per managed link, filtered
# by the kernel (NETLINK_GET_STRICT_CHK); routes add one dump of the main
# table. Only an entry matching by MAC, driver or PCI needs a link dump.
source "$top_srcdir/tests/lib/tap.sh"

NS=$(new_netns req) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ip -n "$NS" link add rdma0 type veth peer name peer0
ip -n "$NS" link add rdma1 type veth peer name peer1
ROOT=$TEST_TMP/root
mkdir -p "$ROOT/etc/halo-provision"
CONF=$ROOT/etc/halo-provision/halo.conf
write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "rdma0"; mtu = 9000; addresses = [ "192.168.100.1/30" ]; },
  { name = "rdma1"; mtu = 9000; addresses = [ "192.168.100.5/30" ]; }
);
CONF
MACCONF=$TEST_TMP/mac.conf
write_conf "$MACCONF" <<CONF
version = 1;
interfaces = (
  { name = "fast0"; match = { mac = "$(ip -n "$NS" -j link show rdma0 | jq -r '.[0].address')"; };
    mtu = 9000; addresses = [ "192.168.100.1/30" ]; },
  { name = "rdma1"; mtu = 9000; addresses = [ "192.168.100.5/30" ]; }
);
CONF
halo() { run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only links "$@"; }
# requests [CONF]: runs --check --json, sets $rc and $n (requests sent).
requests() {
	run_halo -c "${1:-$CONF}" --root "$ROOT" --netns "$NS" --only links --check --json
	n=$(jq -r '.stats.netlink_requests' <<<"$out")
}

# Per run of the two entries: 2 RTM_GETLINK (by name) + 2 address lookups
# + 2 address dumps (one per link) = 6.
halo --json
is "$rc" 2 "apply converges the two links"
# Apply: the 6 reads, one request per change (2 x mtu, up, address), and
# the changed kinds read again once to verify (2 links, 2 address dumps)
# -- not one address dump per address.
is "$(jq -r '.stats.netlink_requests' <<<"$out")" $((6 + 6 + 4)) \
	"apply: 6 reads + 6 changes + 4 verifying reads"
is "$(ip -n "$NS" -j addr show dev rdma0 | jq -r '.[0].addr_info[] | select(.family=="inet") | .broadcast')" \
	192.168.100.3 "the /30 gets its broadcast address (ip -j)"
requests; few=$n
is "$rc" 0 "check is clean"
is "$few" 6 "check with 2 links: 2 links by name + 2 address lookups + 2 address dumps"
requests "$MACCONF"; few_mac=$n
is "$rc" 0 "check matching by MAC is clean"
is "$few_mac" 5 "check matching by MAC: one link dump instead of 2 by name"

# 2,048 veth links: 1,022 more pairs, one end of each with an address.
for i in $(seq 1 1022); do echo "link add x$i type veth peer name y$i"; done |
	ip -n "$NS" -batch -
for i in $(seq 1 1022); do echo "addr add 10.$((i / 250)).$((i % 250)).1/24 dev x$i"; done |
	ip -n "$NS" -batch -
is "$(ip -n "$NS" -j link show type veth | jq length)" 2048 "2,048 veth links"
requests; many=$n
is "$rc" 0 "check is still clean"
is "$many" "$few" "check with 2,048 links sends as many requests ($few)"
requests "$MACCONF"
is "$rc" 0 "check matching by MAC is still clean"
is "$n" "$few_mac" "check matching by MAC with 2,048 links: as many requests ($few_mac)"

# An address on one of the 2,046 others is still found (one lookup).
ip -n "$NS" addr del 192.168.100.5/30 dev rdma1
ip -n "$NS" addr add 192.168.100.5/32 dev y77
requests
is "$rc" 1 "an address already on another link: exit 1"
like "$err" 'address 192\.168\.100\.5/30 is already on link y77' "... naming the link among 2,048"
ip -n "$NS" addr del 192.168.100.5/32 dev y77

# Routes add exactly one dump.
write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "rdma0"; mtu = 9000; addresses = [ "192.168.100.1/30" ];
    routes = ( { to = "10.99.2.0/24"; via = "192.168.100.2"; },
               { to = "10.99.3.0/24"; via = "192.168.100.2"; metric = 50; } ); },
  { name = "rdma1"; mtu = 9000; addresses = [ "192.168.100.5/30" ]; }
);
CONF
halo
is "$rc" 2 "apply adds the routes"
is "$(ip -n "$NS" -j route show 10.99.3.0/24 | jq -r '.[0] | "\(.gateway) \(.dev) \(.metric)"')" \
	"192.168.100.2 rdma0 50" "route with metric read back (ip -j)"
requests
is "$n" $((few + 1)) "check with routes: one more dump, whatever the number of routes"
is "$rc" 0 "check with routes is clean"

done_testing
