#!/bin/bash
# A simulated daisy chain of three nodes (node1 - node2 - node3), each a
# network namespace with its own --root, joined by veth pairs; node2 has two
# RDMA interfaces. Each node is provisioned from its own config with --netns.
# Read back with ip -j, proven with jumbo pings that must not fragment.
source "$top_srcdir/tests/lib/tap.sh"

N1=$(new_netns node1) && N2=$(new_netns node2) && N3=$(new_netns node3) || {
	echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ip -n "$N1" link add rdma0 type veth peer name rdma0 netns "$N2"
ip -n "$N2" link add rdma1 type veth peer name rdma0 netns "$N3"

node_conf() { # node_conf N "iface-entries"
	mkdir -p "$TEST_TMP/root$1/etc/halo-provision"
	write_conf "$TEST_TMP/root$1/etc/halo-provision/halo.conf" <<-CONF
	version = 1;
	interfaces = ( $2 );
	CONF
}
node_conf 1 '{ name = "rdma0"; mtu = 9000; addresses = [ "192.168.100.1/30" ]; }'
node_conf 2 '{ name = "rdma0"; mtu = 9000; addresses = [ "192.168.100.2/30" ]; },
	     { name = "rdma1"; mtu = 9000; addresses = [ "192.168.100.5/30" ]; }'
node_conf 3 '{ name = "rdma0"; mtu = 9000; addresses = [ "192.168.100.6/30" ]; }'
ns_of() { case $1 in 1) echo "$N1";; 2) echo "$N2";; 3) echo "$N3";; esac; }
halo_node() { # halo_node N ARGS...
	local n=$1; shift
	run_halo -c "$TEST_TMP/root$n/etc/halo-provision/halo.conf" \
		--root "$TEST_TMP/root$n" --netns "$(ns_of "$n")" --only links "$@"
}

# Dry run first: the differences, and nothing touched.
before=$(ip -n "$N1" -j addr show)
halo_node 1 --dry-run --json
is "$rc" 2 "node1: --dry-run finds the differences (exit 2)"
is "$(jq -c '[.items[] | select(.outcome == "drift") | .key]' <<<"$out")" \
	'["link/rdma0/mtu","link/rdma0/up","link/rdma0/addr/192.168.100.1/30"]' \
	"node1: --dry-run lists mtu, up and the address"
is "$(ip -n "$N1" -j addr show)" "$before" "node1: --dry-run changed nothing (ip -j)"

for n in 1 2 3; do
	halo_node "$n"
	is "$rc" 2 "node$n: first apply changes the links (exit 2)"
	[ -z "$err" ] || diag "$err"
done

# Independent read-back.
link_json() { ip -n "$1" -j link show dev "$2"; }
addr_of() { ip -n "$1" -j addr show dev "$2" | jq -r '.[0].addr_info[] | select(.family=="inet") | "\(.local)/\(.prefixlen)"'; }
for spec in "$N1 rdma0 192.168.100.1/30" "$N2 rdma0 192.168.100.2/30" \
	    "$N2 rdma1 192.168.100.5/30" "$N3 rdma0 192.168.100.6/30"; do
	set -- $spec
	node=${1#halo-}; node=${node%%-*}
	is "$(link_json "$1" "$2" | jq -r '.[0].mtu')" 9000 "$node/$2: mtu 9000 (ip -j)"
	is "$(link_json "$1" "$2" | jq -r '.[0].flags | index("UP") != null')" true "$node/$2: admin up (ip -j)"
	is "$(addr_of "$1" "$2")" "$3" "$node/$2: exactly $3 (ip -j)"
done

# Jumbo frames cross every cable unfragmented (8972 + 28 = 9000).
ip netns exec "$N1" ping -M do -s 8972 -c 1 -W 2 192.168.100.2 >/dev/null 2>&1
ok $? "node1 -> node2: ping -M do -s 8972"
ip netns exec "$N3" ping -M do -s 8972 -c 1 -W 2 192.168.100.5 >/dev/null 2>&1
ok $? "node3 -> node2: ping -M do -s 8972"
ip netns exec "$N2" ping -M do -s 8972 -c 1 -W 2 192.168.100.6 >/dev/null 2>&1
ok $? "node2 -> node3: ping -M do -s 8972"
ip netns exec "$N1" ping -M do -s 8973 -c 1 -W 1 192.168.100.2 >/dev/null 2>&1
ok $(( $? == 0 )) "one byte more does not fit (the MTU is really 9000)"

for n in 1 2 3; do
	halo_node "$n"
	is "$rc" 0 "node$n: second apply changes nothing (exit 0)"
	halo_node "$n" --check
	is "$rc" 0 "node$n: --check is clean"
done

# The carrier is reported, as a fact.
halo_node 1 --check --json
is "$(jq -r '.items[] | select(.key=="link/rdma0/up") | .message' <<<"$out")" carrier \
	"node1: the up item reports the carrier"

# Drift behind the tool's back: exactly that item is named.
ip -n "$N1" link set rdma0 mtu 1500
halo_node 1 --check --json
is "$rc" 2 "node1: --check after ip link set mtu 1500 exits 2"
is "$(jq -c '[.items[] | select(.outcome != "ok") | .key]' <<<"$out")" '["link/rdma0/mtu"]' \
	"node1: --check names exactly link/rdma0/mtu"
is "$(jq -r '.items[] | select(.key=="link/rdma0/mtu") | "\(.wanted) \(.observed) \(.outcome)"' <<<"$out")" \
	"9000 1500 drift" "node1: wanted 9000, observed 1500, drift"
halo_node 1 --check
like "$out" 'link/rdma0/mtu' "node1: text report names the item"
for n in 2 3; do
	halo_node "$n" --check
	is "$rc" 0 "node$n: unaffected by node1's drift"
done
halo_node 1
is "$rc" 2 "node1: apply repairs the drift (exit 2)"
is "$(link_json "$N1" rdma0 | jq -r '.[0].mtu')" 9000 "node1: mtu back to 9000 (ip -j)"

done_testing
