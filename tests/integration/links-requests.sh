#!/bin/bash
# The cost of a check grows with the host's links only through the dumps:
# --check --json stats.netlink_requests is the same with 2 and with 50 more
# veth links in the namespace (one link dump + one address dump, and one
# route dump when routes are configured).
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
halo() { run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only links "$@"; }
# requests: runs --check --json, sets $rc and $n (requests sent).
requests() { halo --check --json; n=$(jq -r '.stats.netlink_requests' <<<"$out"); }

halo --json
is "$rc" 2 "apply converges the two links"
# Apply: the two dumps, one request per change (2 x mtu, up, address), and
# one dump per changed kind to verify -- not one address dump per address.
is "$(jq -r '.stats.netlink_requests' <<<"$out")" $((2 + 6 + 2)) \
	"apply: 2 dumps + 6 changes + 2 verifying dumps"
is "$(ip -n "$NS" -j addr show dev rdma0 | jq -r '.[0].addr_info[] | select(.family=="inet") | .broadcast')" \
	192.168.100.3 "the /30 gets its broadcast address (ip -j)"
requests; few=$n
is "$rc" 0 "check is clean"
is "$few" 2 "check with 2 links: one link dump + one address dump"

for i in $(seq 1 25); do echo "link add extra$i type veth peer name xpeer$i"; done |
	ip -n "$NS" -batch -
for i in $(seq 1 25); do echo "addr add 10.77.$i.1/24 dev extra$i"; done |
	ip -n "$NS" -batch -
is "$(ip -n "$NS" -j link show | jq length)" 55 "50 more veth links (lo + 4 + 50)"
requests; many=$n
is "$rc" 0 "check is still clean"
is "$many" "$few" "check with 50 more links sends as many requests ($few)"

# Routes add exactly one dump.
write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "rdma0"; mtu = 9000; addresses = [ "192.168.100.1/30" ];
    routes = ( { to = "10.0.2.0/24"; via = "192.168.100.2"; },
               { to = "10.0.3.0/24"; via = "192.168.100.2"; metric = 50; } ); },
  { name = "rdma1"; mtu = 9000; addresses = [ "192.168.100.5/30" ]; }
);
CONF
halo
is "$rc" 2 "apply adds the routes"
is "$(ip -n "$NS" -j route show 10.0.3.0/24 | jq -r '.[0] | "\(.gateway) \(.dev) \(.metric)"')" \
	"192.168.100.2 rdma0 50" "route with metric read back (ip -j)"
requests
is "$n" 3 "check with routes: one more dump, whatever the number of routes"
is "$rc" 0 "check with routes is clean"

done_testing
