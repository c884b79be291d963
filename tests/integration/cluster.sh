#!/bin/bash
# --cluster over the state files and the live audits (--check --json) of a
# simulated daisy chain (node1 - node2 - node3): each node a network
# namespace with its own --root and /etc/hostname, joined by veth pairs,
# provisioned by a full apply. The state files agree (exit 0); one end's
# MTU changed → exactly that cable and "mtu" (exit 2); a missing file →
# exit 4; one file → exit 1. An MTU changed behind the tool's back is
# invisible in the state files and named by --cluster over the nodes'
# audits, which change nothing; a node left out leaves its peer's port
# dangling; --dot draws the map, rendered by the real `dot -Tsvg` with the
# broken cable marked; a FIFO, a directory and a file over 16 MiB are
# refused by name, never read.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/lib/svg.sh"

N1=$(new_netns node1) && N2=$(new_netns node2) && N3=$(new_netns node3) || {
	echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ip -n "$N1" link add rdma0 type veth peer name rdma0 netns "$N2"
ip -n "$N2" link add rdma1 type veth peer name rdma0 netns "$N3"

# The RoCE section of the first cable: the fixture sysfs says mlx5_core
# (so the section is accepted), the veth answers EOPNOTSUPP for DCB, so
# its items are unsupported; the configured values are compared. RoCE
# off: no RDMA device is wanted (mlx5_ib is not loaded here).
ROOT=$TEST_TMP/root1 fake_nic rdma0 0000:c1:00.0 mlx5_core
ROOT=$TEST_TMP/root2 fake_nic rdma0 0000:c1:00.0 mlx5_core
ROCE='roce = { enable = false; pfc = [ 3 ]; trust = "dscp"; dscp_prio = ( [ 26, 3 ] ); tos = 106; };'
node_conf() { # node_conf N "iface-entries"
	mkdir -p "$TEST_TMP/root$1/etc/halo-provision"
	echo "node$1" >"$TEST_TMP/root$1/etc/hostname"
	write_conf "$TEST_TMP/root$1/etc/halo-provision/halo.conf" <<-CONF
	version = 1;
	interfaces = ( $2 );
	CONF
}
conf3() { # conf3 MTU
	node_conf 3 "{ name = \"rdma0\"; mtu = $1; addresses = [ \"192.168.100.6/30\" ]; }"
}
node_conf 1 "{ name = \"rdma0\"; mtu = 9000; addresses = [ \"192.168.100.1/30\" ]; $ROCE }"
node_conf 2 "{ name = \"rdma0\"; mtu = 9000; addresses = [ \"192.168.100.2/30\" ]; $ROCE },
	     { name = \"rdma1\"; mtu = 9000; addresses = [ \"192.168.100.5/30\" ]; }"
conf3 9000
ns_of() { case $1 in 1) echo "$N1";; 2) echo "$N2";; 3) echo "$N3";; esac; }
halo_node() { # halo_node N ARGS...: a full run (the node facts need one)
	local n=$1; shift
	run_halo -c "$TEST_TMP/root$n/etc/halo-provision/halo.conf" \
		--root "$TEST_TMP/root$n" --netns "$(ns_of "$n")" "$@"
}
state() { echo "$TEST_TMP/root$1/var/lib/halo-provision/state.json"; }

for n in 1 2 3; do
	halo_node "$n"
	ok $(( rc & 5 )) "node$n: the apply neither fails nor stops (exit $rc)"
	[ -z "$err" ] || diag "$err"
	(( rc & 4 )) && diag "$(jq -c '.items[] | select(.outcome=="failed") | [.key,.message]' "$(state "$n")")"
done

# The node facts in the state file.
is "$(jq -c '.node | {hostname, i: [.interfaces[] | [.name, .mtu, .addresses]]}' "$(state 2)")" \
	'{"hostname":"node2","i":[["rdma0",9000,["192.168.100.2/30"]],["rdma1",9000,["192.168.100.5/30"]]]}' \
	"node2: the state file holds its hostname and interfaces"
is "$(jq -c '.node.interfaces[0].roce | [.pfc, .dscp, .tos]' "$(state 1)")" '[[3],["26:3"],106]' \
	"node1: the configured RoCE facts"

# A no-op apply rewrites nothing (the node facts carry no timestamp).
before=$(tree_snapshot "$TEST_TMP/root1/var/lib")
halo_node 1
is "$(tree_snapshot "$TEST_TMP/root1/var/lib")" "$before" "node1: a no-op apply leaves the state file as it is"
# A partial run keeps the node facts.
halo_node 1 --only links
is "$(jq -r '.node.hostname' "$(state 1)")" node1 "node1: an --only links apply keeps the node facts"

# Clean: every cable agrees.
run_halo --cluster "$(state 1)" "$(state 2)" "$(state 3)"
is "$rc" 0 "--cluster over three agreeing nodes: exit 0"
is "$(tail -n 1 <<<"$out" | sed 's/, [0-9]* items.*//')" "cluster: 3 nodes, 2 cables" "the summary counts 2 cables"
is "$(grep -c -v '^cluster:' <<<"$out")" 0 "no finding line"
run_halo --cluster --json "$(state 3)" "$(state 1)" "$(state 2)"
is "$rc" 0 "--cluster --json: exit 0"
is "$(jq -r '[.mode, .exit_code, .changed, .failed, .cables] | @tsv' <<<"$out")" \
	"$(printf 'cluster\t0\tfalse\tfalse\t2')" "--json: mode, exit code, flags, cables"
is "$(jq -r '[.items[] | select(.key | test("^cluster/node1:rdma0~node2:rdma0/")) | .fact] | sort | join(",")' <<<"$out")" \
	"address,dscp,ecn,mtu,pfc,roce,subnet,tos,trust" "--json: every fact of the RoCE cable, keyed by cable"
is "$(jq -r '[.items[] | select(.key | test("^cluster/node2:rdma1~node3:rdma0/")) | .fact] | sort | join(",")' <<<"$out")" \
	"address,mtu,subnet" "--json: the plain cable has no RoCE facts"

# One end's MTU changed: exactly that cable, exactly "mtu".
conf3 1500
halo_node 3
is "$(ip -n "$N3" -j link show dev rdma0 | jq -r '.[0].mtu')" 1500 "node3: rdma0 now has MTU 1500 (ip -j)"
run_halo --cluster "$(state 1)" "$(state 2)" "$(state 3)"
is "$rc" 2 "--cluster: one MTU differs, exit 2"
is "$(grep -v '^cluster:' <<<"$out")" \
	"drift   node2:rdma1 <-> node3:rdma0  mtu differs: 9000 on node2:rdma1, 1500 on node3:rdma0" \
	"exactly one finding: that cable's mtu"
run_halo --cluster --json "$(state 1)" "$(state 2)" "$(state 3)"
is "$rc" 2 "--cluster --json: exit 2"
is "$(jq -c '[.changed, [.items[] | select(.outcome != "ok") | .key]]' <<<"$out")" \
	'[true,["cluster/node2:rdma1~node3:rdma0/mtu"]]' "--json: that key alone drifts"

# A node whose last apply failed (RoCE on: no RDMA device here) is
# stale: its facts need not be live.
node_conf 1 "{ name = \"rdma0\"; mtu = 9000; addresses = [ \"192.168.100.1/30\" ]; ${ROCE/false/true} }"
halo_node 1
is "$(( rc & 4 ))" 4 "node1: an apply with RoCE on fails on the veth"
run_halo --cluster --json "$(state 1)" "$(state 2)" "$(state 3)"
is "$(jq -c '[.items[] | select(.outcome != "ok") | .key]' <<<"$out")" \
	'["cluster/node1/stale","cluster/node1:rdma0~node2:rdma0/roce","cluster/node2:rdma1~node3:rdma0/mtu"]' \
	"--json: node1 is stale, and its RoCE mode differs from node2's"

node_conf 1 "{ name = \"rdma0\"; mtu = 9000; addresses = [ \"192.168.100.1/30\" ]; $ROCE }"
halo_node 1
is "$(( rc & 4 ))" 0 "node1: RoCE off again, the apply succeeds"

# A node's state file missing: failed, one line, exit 4 (node2's port to
# it dangles).
run_halo --cluster "$(state 1)" "$(state 2)" "$TEST_TMP/nowhere/state.json"
is "$rc" 6 "--cluster with a missing state file: exit 6 (failed and drift)"
is "$(grep '^failed' <<<"$out")" \
	"failed  $TEST_TMP/nowhere/state.json  missing state file: No such file or directory" \
	"one line names the missing file"

# Not regular files and huge ones are refused by name, never read (a
# FIFO would block): exit 4, and the other nodes are still compared.
mkfifo "$TEST_TMP/fifo.json"
mkdir "$TEST_TMP/dir.json"
truncate -s 17M "$TEST_TMP/huge.json"
run_halo --cluster "$(state 1)" "$(state 2)" "$TEST_TMP/fifo.json" "$TEST_TMP/dir.json" "$TEST_TMP/huge.json"
is "$rc" 6 "--cluster with a FIFO, a directory, a 17 MiB file: exit 6"
is "$(grep '^failed' <<<"$out")" \
"failed  $TEST_TMP/fifo.json  a FIFO, not a regular file
failed  $TEST_TMP/dir.json  a directory, not a regular file
failed  $TEST_TMP/huge.json  17825792 bytes, over the 16 MiB a state file or report can have: not read" \
	"each named, with what it is"
like "$out" 'cluster: 2 nodes \(3 files without node facts\), 1 cable, 1 dangling port' \
	"node1 - node2 still compared; the files without node facts are no nodes"
like "$out" 'dangling port: .* among the inputs \(3 without node facts: its peer may be in one\)' \
	"... and the dangling port says its peer may be in one of them"

# --- Live audits: the facts of a full --check --json ---
conf3 9000
halo_node 3
is "$(( rc & 5 ))" 0 "node3: back at MTU 9000"
audit() { # audit N: node N's --check --json, in $TEST_TMP/auditN.json
	halo_node "$1" --check --json
	printf '%s\n' "$out" >"$TEST_TMP/audit$1.json"
}
for n in 1 2 3; do audit "$n"; done
is "$(jq -c '[.node.hostname, [.node.interfaces[] | [.name, .mtu, .live_mtu]]]' "$TEST_TMP/audit2.json")" \
	'["node2",[["rdma0",9000,9000],["rdma1",9000,9000]]]' "--check --json: the node facts, with the live MTUs"
halo_node 1 --check --json --only links
is "$(jq -r 'has("node")' <<<"$out")" false "--check --only links: no node facts (not a full run)"
printf '%s\n' "$out" >"$TEST_TMP/partial.json"
run_halo --cluster "$TEST_TMP/audit1.json" "$TEST_TMP/audit2.json" "$TEST_TMP/audit3.json"
is "$rc,$(grep -c -v '^cluster:' <<<"$out")" "0,0" "--cluster over three audits in sync: exit 0, no finding"
run_halo --cluster "$TEST_TMP/partial.json" "$TEST_TMP/audit2.json"
like "$(grep '^failed' <<<"$out")" "partial.json  no node facts \(a run with --only or --interface" \
	"--cluster: a partial audit has no facts, and says why"

# node3's end changed behind the tool's back: the state files still
# agree, the audits show the broken cable; nothing is written.
ip -n "$N3" link set rdma0 mtu 1500
run_halo --cluster "$(state 1)" "$(state 2)" "$(state 3)"
is "$rc" 0 "live drift: the state files cannot see it (exit 0)"
snap=$(for n in 1 2 3; do tree_snapshot "$TEST_TMP/root$n"; done)
for n in 1 2 3; do audit "$n"; done
is "$(jq -r '.exit_code' "$TEST_TMP/audit3.json")" 2 "node3's audit: drift"
is "$(for n in 1 2 3; do tree_snapshot "$TEST_TMP/root$n"; done)" "$snap" "the audits wrote nothing"
run_halo --cluster "$TEST_TMP/audit1.json" "$TEST_TMP/audit2.json" "$TEST_TMP/audit3.json"
is "$rc" 2 "live drift: --cluster over the audits, exit 2"
is "$(grep -v '^cluster:' <<<"$out")" \
	"drift   node2:rdma1 <-> node3:rdma0  mtu differs: 9000 on node2:rdma1, 1500 on node3:rdma0 (configured 9000)" \
	"exactly the drifted cable, its live MTUs and node3's configured one"
run_halo --cluster --json "$(state 1)" "$TEST_TMP/audit2.json" "$TEST_TMP/audit3.json"
is "$(jq -c '[.items[] | select(.outcome != "ok") | [.key, .values]]' <<<"$out")" \
	'[["cluster/node2:rdma1~node3:rdma0/mtu",["9000","1500"]]]' "--json, a state file and two audits: that key"

# The map: the real dot renders it, the drifted cable marked in red.
run_halo --cluster --dot "$TEST_TMP/audit1.json" "$TEST_TMP/audit2.json" "$TEST_TMP/audit3.json"
is "$rc" 2 "--cluster --dot: the exit status of the check"
printf '%s\n' "$out" >"$TEST_TMP/map.dot"
dot -Tsvg "$TEST_TMP/map.dot" >"$TEST_TMP/map.svg"
ok $? "dot -Tsvg renders the map"
is "$(svg_elements "$TEST_TMP/map.svg" edge | cut -d'|' -f1)" \
"node1:rdma0~node2:rdma0 edge cable black 
node2:rdma1~node3:rdma0 edge cable drift #d7301f " "the SVG: the drifted cable alone is marked, in red"
is "$(svg_elements "$TEST_TMP/map.svg" drift | cut -d'|' -f2)" " 192.168.100.4/30 / mtu 9000/1500 / differs: mtu" \
	"... labelled with its subnet, both MTUs and what differs"

# node3 left out: node2's port to it dangles, drawn in orange.
run_halo --cluster "$TEST_TMP/audit1.json" "$TEST_TMP/audit2.json"
is "$rc,$(grep -v '^cluster:' <<<"$out")" \
	"2,drift   node2:rdma1  dangling port: no other node's port in the subnet of 192.168.100.5/30 among the inputs" \
	"a port with no peer among the inputs: dangling, exit 2"
run_halo --cluster --dot "$TEST_TMP/audit1.json" "$TEST_TMP/audit2.json" "$TEST_TMP/nowhere.json"
printf '%s\n' "$out" | dot -Tsvg >"$TEST_TMP/map2.svg"
ok $? "dot -Tsvg renders a map with a dangling port and a missing node"
is "$(svg_elements "$TEST_TMP/map2.svg" dangling | cut -d'|' -f1)" "node2:rdma1 node port dangling #e6850e " \
	"... the dangling port marked, in orange"
is "$(svg_elements "$TEST_TMP/map2.svg" missing | cut -d'|' -f1)" "file:$TEST_TMP/nowhere.json node host missing #d7301f " \
	"... the missing node, in red"

# Usage: one file, another option.
run_halo --cluster "$(state 1)"
is "$rc" 1 "--cluster with one file: exit 1"
like "$err" "needs at least two state files" "and says why"
run_halo --cluster --json "$(state 1)"
is "$(jq -r '.failed' <<<"$out")" true "--json usage error: a JSON document"
is "$(jq -c '[.mode, .exit_code, .items, .errors]' <<<"$out")" \
	'["cluster",1,[],["--cluster needs at least two state files (one per node), not 1"]]' \
	"... --cluster's own, with the error"
is "$(jq -r 'has("root") or has("config")' <<<"$out")" false "... naming no root or config"
run_halo --cluster --root "$TEST_TMP/root1" "$(state 1)" "$(state 2)"
is "$rc" 1 "--cluster --root: exit 1"
like "$err" "takes no --root" "and says so"
run_halo --dot --check
is "$rc,$err" "1,halo-provision: --dot draws the cable map of --cluster: give --cluster and the nodes' files" \
	"--dot without --cluster: exit 1"
run_halo --cluster "$(state 1)" "$(state 2)" --dot --json
is "$rc,$err" "1,halo-provision: --json and --dot cannot be used together" "--dot --json: exit 1"

done_testing
