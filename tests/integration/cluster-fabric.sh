#!/bin/bash
# --cluster on switched fabrics. Three simulated nodes (network namespaces
# with their own --root) on a real Linux bridge in a fourth namespace, one
# /24: a switched segment, not three cables; clean after the apply, and
# with one node's MTU changed behind the tool's back exactly that port,
# from the nodes' live audits; --dot draws the switch. Then 1,500 generated
# state files in one /16 (tests/lib/fabric-states.py): one item per port
# and one for the segment (the count grows with the nodes, not with their
# pairs), exactly the one port whose MTU differs, and the memory bounded:
# --cluster under `ulimit -v` (64 MiB of address space; not under ASan,
# which reserves terabytes). Timings are bench/cluster-fabric.sh's.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/lib/svg.sh"

SW=$(new_netns switch) && N1=$(new_netns node1) && N2=$(new_netns node2) &&
	N3=$(new_netns node3) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ns_of() { case $1 in 1) echo "$N1";; 2) echo "$N2";; 3) echo "$N3";; esac; }

# --- a real switch: a bridge, one port per node ---
ip -n "$SW" link add br0 type bridge
ip -n "$SW" link set br0 mtu 9000 up
for n in 1 2 3; do
	ip -n "$SW" link add "p$n" mtu 9000 type veth peer name rdma0 netns "$(ns_of "$n")"
	ip -n "$SW" link set "p$n" master br0 up
	R=$TEST_TMP/root$n
	mkdir -p "$R/etc/halo-provision"
	echo "node$n" >"$R/etc/hostname"
	write_conf "$R/etc/halo-provision/halo.conf" <<-CONF
	version = 1;
	interfaces = ( { name = "rdma0"; mtu = 9000; addresses = [ "10.50.0.$n/24" ]; } );
	CONF
done
halo_node() { # halo_node N ARGS...
	local n=$1; shift
	run_halo -c "$TEST_TMP/root$n/etc/halo-provision/halo.conf" \
		--root "$TEST_TMP/root$n" --netns "$(ns_of "$n")" "$@"
}
audits() { # each node's --check --json in $TEST_TMP/auditN.json
	for n in 1 2 3; do
		halo_node "$n" --check --json
		printf '%s\n' "$out" >"$TEST_TMP/audit$n.json"
	done
}
for n in 1 2 3; do
	halo_node "$n"
	is "$(( rc & 5 ))" 0 "node$n: the apply neither fails nor stops (exit $rc)"
done
ip netns exec "$N1" ping -q -M do -s 8972 -c 1 -W 2 10.50.0.3 >/dev/null
ok $? "node1 -> node3 through the switch: ping -M do -s 8972"

audits
run_halo --cluster "$TEST_TMP/audit1.json" "$TEST_TMP/audit2.json" "$TEST_TMP/audit3.json"
is "$rc" 0 "three nodes behind a switch: exit 0"
is "$(tail -n 1 <<<"$out")" "cluster: 3 nodes, 0 cables, 1 switched segment, 4 items, 4 ok" \
	"one switched segment, one item per port and one for the segment (not three cables)"

# node2's MTU lowered behind the tool's back: exactly its port.
ip -n "$N2" link set rdma0 mtu 1500
audits
run_halo --cluster "$TEST_TMP/audit1.json" "$TEST_TMP/audit2.json" "$TEST_TMP/audit3.json"
is "$rc" 2 "node2's MTU changed live: exit 2"
is "$(grep -v '^cluster:' <<<"$out")" \
	"drift   node2:rdma0 <-> switch 10.50.0.0/24  mtu 1500 (configured 9000), the segment's 9000" \
	"exactly node2's port, its live and configured MTU against the segment's"
run_halo --cluster --json "$TEST_TMP/audit1.json" "$TEST_TMP/audit2.json" "$TEST_TMP/audit3.json"
is "$(jq -c '[.segments, [.items[] | select(.outcome != "ok") | .key]]' <<<"$out")" \
	'[[{"subnet":"10.50.0.0/24","ports":3,"nodes":3,"mtu":"9000","prefix":"/24","differing":1}],["cluster/node2:rdma0~10.50.0.0/24/port"]]' \
	"--json: the segment, and the one key that drifts"
run_halo --cluster --dot "$TEST_TMP/audit1.json" "$TEST_TMP/audit2.json" "$TEST_TMP/audit3.json"
printf '%s\n' "$out" | dot -Tsvg >"$TEST_TMP/switch.svg"
ok $? "--dot: dot -Tsvg renders the switched segment"
{ svg_elements "$TEST_TMP/switch.svg" segment; svg_elements "$TEST_TMP/switch.svg" switchport; } |
	cut -d' ' -f1-4 >"$TEST_TMP/switch.txt"
is "$(cat "$TEST_TMP/switch.txt")" "10.50.0.0/24 node segment black
node1:rdma0~10.50.0.0/24 edge switchport black
node2:rdma0~10.50.0.0/24 edge switchport drift
node3:rdma0~10.50.0.0/24 edge switchport black" "the SVG: a switch, an edge per port, node2's marked"

# --- two cables, one end's prefix mistyped ---
# node1 - node2 on 10.1.0.0/24, node3 - node4 on 10.1.1.0/24; node1 says
# /16, which holds both cables' addresses. That is one cable with a prefix
# mismatch, not a switch of four ports.
addressed() { # addressed DIR ADDR...: node000N's state file in DIR with rdma0 at the Nth ADDR
	local dir=$1 n=0 a f
	shift
	python3 "$top_srcdir/tests/lib/fabric-states.py" $# "$dir" ||
		{ echo "Bail out! cannot generate the state files"; exit 1; }
	for a in "$@"; do
		f=$dir/node000$((++n)).json
		jq --arg a "$a" '.node.interfaces[0].addresses = [$a]' "$f" >"$f.new" && mv "$f.new" "$f"
	done
}
addressed "$TEST_TMP/wide" 10.1.0.1/16 10.1.0.2/24 10.1.1.1/24 10.1.1.2/24
run_halo --cluster --json "$TEST_TMP"/wide/*.json
is "$rc" 2 "one end's prefix /16 on a /24 cable: exit 2"
is "$(jq -c '[.cables, (.segments | length)]' <<<"$out")" "[2,0]" "... two cables, no switch"
is "$(jq -r '[.items[] | select(.outcome != "ok") | .subject + ": " + .message] | join(",")' <<<"$out")" \
	"node0001:rdma0 <-> node0002:rdma0: subnet differs: /16 on node0001:rdma0, /24 on node0002:rdma0" \
	"... and only the first cable's prefix differs"
# A dangling port under the wide prefix, or a cable whose other end's
# file is not read, still makes no switch of them.
addressed "$TEST_TMP/wide5" 10.1.0.1/16 10.1.0.2/24 10.1.1.1/24 10.1.1.2/24 10.1.5.5/24
run_halo --cluster "$TEST_TMP"/wide5/*.json
is "$(tail -n 1 <<<"$out")" "cluster: 5 nodes, 2 cables, 1 dangling port, 29 items, 27 ok, 2 drift" \
	"a dangling port under the /16 as well: two cables and that port, no switch"
run_halo --cluster "$TEST_TMP"/wide5/node000[123].json "$TEST_TMP/wide5/nowhere.json"
is "$(grep '^drift' <<<"$out" | sed 's/:.*//; s/  */ /g')" \
"drift node0001
drift node0003" "node0004's file missing: the cable's prefix differs, and ..."
like "$(grep '^drift' <<<"$out" | tail -n 1)" "node0003:rdma0  dangling port" "... node0003's port dangles"
like "$(tail -n 1 <<<"$out")" "1 cable, 1 dangling port, " "... no switch"
# One port of a switch with a narrower prefix stays in the switch.
addressed "$TEST_TMP/narrow" 10.1.0.1/24 10.1.0.2/24 10.1.0.200/24 10.1.0.201/24 10.1.0.5/25
run_halo --cluster "$TEST_TMP"/narrow/*.json
is "$out" "drift   node0005:rdma0 <-> switch 10.1.0.0/24  prefix /25, the segment's /24
cluster: 5 nodes, 0 cables, 1 switched segment, 16 items, 15 ok, 1 drift" \
	"a /25 port in a /24 switch: one switch, that port's prefix differs"

# --- no majority: a tie is said, not passed off as the most nodes' value ---
python3 "$top_srcdir/tests/lib/fabric-states.py" 4 "$TEST_TMP/tie" 1:1500 2:1500 ||
	{ echo "Bail out! cannot generate the state files"; exit 1; }
jq '.node.boot.gtt_mib = 65536' "$TEST_TMP/tie/node0004.json" >"$TEST_TMP/gtt.json"
run_halo --cluster "$TEST_TMP/tie/node0003.json" "$TEST_TMP/gtt.json"
like "$(grep '^drift' <<<"$out")" 'gtt_mib differs: 65536 here, 126976 on node0003 \(no value has most nodes: a tie' \
	"two nodes, two GTT sizes: the line says it is a tie"
run_halo --cluster --json "$TEST_TMP"/tie/*.json
like "$(jq -r '.items[] | select(.key | endswith("/segment")) | .message' <<<"$out")" \
	"\\(the most ports' values; a tie in mtu, configured mtu\\)" \
	"a switch with two ports at 1500 and two at 9000: the segment says mtu is a tie"

# --- 1,500 nodes in one /16 ---
python3 "$top_srcdir/tests/lib/fabric-states.py" 1500 "$TEST_TMP/fab" ||
	{ echo "Bail out! cannot generate the state files"; exit 1; }
python3 "$top_srcdir/tests/lib/fabric-states.py" 750 "$TEST_TMP/fab750" ||
	{ echo "Bail out! cannot generate the state files"; exit 1; }
items() { jq -r '.items | length' <<<"$out"; }
run_halo --cluster --json "$TEST_TMP"/fab750/*.json
is "$rc,$(items)" "0,2251" "750 nodes: exit 0, 2,251 items (3 per node, 1 for the segment)"
run_halo --cluster --json "$TEST_TMP"/fab/*.json
is "$rc,$(items)" "0,4501" "1,500 nodes: exit 0, 4,501 items: linear in the nodes"
is "$(jq -c '[.cables, (.segments | length), .segments[0].ports]' <<<"$out")" "[0,1,1500]" \
	"1,500 nodes: one segment of 1,500 ports, no cable"

python3 "$top_srcdir/tests/lib/fabric-states.py" 1500 "$TEST_TMP/fab" 700:1500
run_halo --cluster "$TEST_TMP"/fab/*.json
is "$rc" 2 "node0700 at MTU 1500: exit 2"
is "$(grep -v '^cluster:' <<<"$out")" \
	"drift   node0700:rdma0 <-> switch 10.0.0.0/16  mtu 1500, the segment's 9000" \
	"exactly that port is reported"

# The memory a switch of 1,500 costs is bounded: 64 MiB of address space
# is enough (the pairwise check needed 24 GB).
if grep -q __asan_report_load "$HALO"; then
	ok 0 "# SKIP ulimit -v under AddressSanitizer (it reserves terabytes of address space)"
else
	(ulimit -v 65536 && exec "$HALO" --cluster "$TEST_TMP"/fab/*.json) >"$TEST_TMP/limited" 2>&1
	is "$?,$(tail -n 1 "$TEST_TMP/limited")" "2,cluster: 1500 nodes, 0 cables, 1 switched segment, 4501 items, 4500 ok, 1 drift" \
		"1,500 nodes under ulimit -v 65536: the same answer"
fi

# A file over 16 MiB among them is refused by name, never read.
truncate -s 17M "$TEST_TMP/fab/node0001.json"
run_halo --cluster "$TEST_TMP"/fab/*.json
is "$(grep '^failed' <<<"$out")" \
	"failed  $TEST_TMP/fab/node0001.json  17825792 bytes, over the 16 MiB a state file or report can have: not read" \
	"a 17 MiB file: refused, named"

done_testing
