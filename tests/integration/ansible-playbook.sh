#!/bin/bash
# The halo.provision.node role with the real ansible-playbook on a simulated
# daisy chain node1 - node2 - node3 (each a network namespace and its own
# --root; node2 a Fedora BLS root), connection local, nothing of ~/.ansible
# or /etc/ansible used. Four runs:
#   1. --check --diff: every node reports changed, the module's file diffs
#      are shown, no root or link changes;
#   2. apply: converges; only node1 and node2 (boot parameters) reboot, one
#      at a time; jumbo ping across both cables; --cluster clean;
#   3. apply again: changed=0 on every host;
#   4. node3's config broken and node1's MTU lowered: node3 fails alone with
#      the config error and its root untouched, node1 and node2 converge,
#      and --cluster on the controller fails naming the node1-node2 cable.
# The serial-reboot check is shown able to fail: two reboots at once are
# logged as an overlap.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/lib/ansible.sh"
ansible_cluster_require
ansible_env

ansible_node node1 debian && ansible_node node2 fedora && ansible_node node3 debian || {
	echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ansible_cable node1 rdma0 node2 rdma0
ansible_cable node2 rdma1 node3 rdma0

BOOT='boot = { iommu = "pt"; pci_realloc = true; };'
link() { echo "{ name = \"$1\"; mtu = ${3:-9000}; addresses = [ \"$2\" ]; }"; }
conf1() { printf 'version = 1;\n%s\ninterfaces = ( %s );\n' "$BOOT" "$(link rdma0 192.168.100.1/30 "$@")" | ansible_config node1; }
conf1
printf 'version = 1;\n%s\ninterfaces = ( %s, %s );\n' "$BOOT" "$(link rdma0 192.168.100.2/30)" \
	"$(link rdma1 192.168.100.5/30)" | ansible_config node2
# node3 has no boot section: it never needs a reboot.
conf3() { printf 'version = 1;\ninterfaces = ( %s );\n' "$(link rdma0 192.168.100.6/30)" | ansible_config node3; }
conf3
ansible_inventory

snap_all() { local n; for n in node1 node2 node3; do tree_snapshot "$(node_root "$n")"; done; }
mtu() { ip -n "$(node_ns "$1")" -j link show dev "$2" | jq -r '.[0].mtu'; }
recap_text() { # recap_text HOST FIELD: from the text PLAY RECAP
	sed -n "s/^$1 *:.* $2=\([0-9]*\).*/\1/p" <<<"$out"
}

# 1. Check mode with diffs.
before=$(snap_all)
ansible_play --check --diff
is "$rc" 0 "check mode: ansible-playbook exits 0"
[ "$rc" = 0 ] || diag "$(tail -n 30 <<<"$out") $err"
for n in node1 node2 node3; do
	c=$(recap_text "$n" changed)
	ok $(( ${c:-0} > 0 ? 0 : 1 )) "check mode: $n reports changed (changed=${c:-none})"
done
is "$(snap_all)" "$before" "check mode: every node's root is byte-identical"
is "$(mtu node1 rdma0) $(mtu node2 rdma1) $(mtu node3 rdma0)" "1500 1500 1500" "check mode: no link changed"
ok "$([ ! -s "$ANS/reboots.log" ]; echo $?)" "check mode: no node rebooted"
like "$out" '\+\+\+ .*etc/default/grub\.d/zz-halo-provision\.cfg' \
	"--diff: the module's diff of node1's grub drop-in"
like "$out" '\+GRUB_CMDLINE_LINUX_DEFAULT=.*iommu=pt' "--diff: its added line"
like "$out" '\+\+\+ .*etc/kernel/cmdline' "--diff: node2's /etc/kernel/cmdline (BLS)"
like "$out" '\+interfaces = \( \{ name = "rdma0"; mtu = 9000; addresses = \[ "192.168.100.6/30" \]; \} \);' \
	"--diff: the config file the role would install on node3"

# 2. Apply.
ansible_play_json
is "$rc" 0 "apply: ansible-playbook exits 0"
[ "$rc" = 0 ] || diag "$err $(jq -c '[.plays[].tasks[] | .hosts | to_entries[] | select(.value.failed) | [.key, .value.msg]]' <<<"$out")"
for n in node1 node2 node3; do
	is "$(recap "$n" failures)" 0 "apply: $n did not fail"
	is "$(task_result 'halo.provision.node : Converge the node' "$n" | jq -r '.changed')" true \
		"apply: the module changed $n"
done
is "$(stat -c '%a %U' "$(node_root node3)/etc/halo-provision/halo.conf")" "600 root" \
	"apply: the config is installed 0600, root-owned"
is "$(mtu node1 rdma0) $(mtu node2 rdma0) $(mtu node2 rdma1) $(mtu node3 rdma0)" "9000 9000 9000 9000" \
	"apply: every cable end has MTU 9000 (ip -j)"
ip netns exec "$(node_ns node1)" ping -q -M do -s 8972 -c 1 -W 2 192.168.100.2 >/dev/null
ok $? "apply: jumbo ping node1 -> node2 (-M do -s 8972)"
ip netns exec "$(node_ns node3)" ping -q -M do -s 8972 -c 1 -W 2 192.168.100.5 >/dev/null
ok $? "apply: jumbo ping node3 -> node2 (-M do -s 8972)"
is "$(sed "s|$ANS/nodes/||" "$ANS/reboots.log" | sort -k2 -s | tr '\n' ' ')" \
	"start node1 end node1 start node2 end node2 " "apply: node1 and node2 rebooted, node3 (no boot section) did not"
is "$(grep -c overlap "$ANS/reboots.log")" 0 "apply: the reboots never overlapped (throttle 1)"
like "$(cat "$(node_root node2)/proc/cmdline")" ' iommu=pt pci=realloc' "apply: node2 booted with the new parameters"
is "$(task_result 'halo.provision.node : Check that both ends of every cable agree' node1 | jq -r '.rc')" 0 \
	"apply: halo-provision --cluster ran on the controller, clean"
like "$(task_result 'halo.provision.node : Check that both ends of every cable agree' node1 | jq -r '.cmd | join(" ")')" \
	"--cluster $ANS/state/node1.json $ANS/state/node2.json $ANS/state/node3.json" "apply: over the three fetched state files"

# 3. Apply again: nothing to do anywhere.
reboots=$(cat "$ANS/reboots.log")
ansible_play_json
is "$rc" 0 "second apply: ansible-playbook exits 0"
for n in node1 node2 node3; do
	is "$(recap "$n" changed)/$(recap "$n" failures)" 0/0 "second apply: $n changed=0 failed=0"
done
is "$(cat "$ANS/reboots.log")" "$reboots" "second apply: no reboot"

# 4. node3's config broken, node1's MTU lowered to 1500.
printf 'version = 1;\ninterfaces = ( { name = "rdma0"; mtu = "9000x"; } );\n' | ansible_config node3
install -m 0600 "$ANS/configs/node3.conf" "$TEST_TMP/bad.conf"
want=$("$HALO" --validate -c "$TEST_TMP/bad.conf" 2>&1 >/dev/null | sed -n "s|.*$TEST_TMP/bad.conf||p" | head -n 1)
conf1 1500
root3=$(tree_snapshot "$(node_root node3)")
ansible_play_json
is "$rc" 2 "broken node: ansible-playbook exits 2"
is "$(recap node3 failures)" 1 "broken node: node3 failed"
msg=$(task_result 'halo.provision.node : Install the config' node3 | jq -r '[.msg, .stderr] | join(" ")')
ok "$([ -n "$want" ] && [[ $msg == *"$want"* ]]; echo $?)" "broken node: with the config error ($want)"
is "$(tree_snapshot "$(node_root node3)")" "$root3" "broken node: node3's root is untouched"
for n in node1 node2; do
	is "$(task_result 'halo.provision.node : Converge the node' "$n" | jq -r '.failed // false')" false \
		"broken node: $n still converges"
done
is "$(mtu node1 rdma0)" 1500 "node1's rdma0 now has MTU 1500"
res=$(task_result 'halo.provision.node : Fail when the nodes disagree' node1)
is "$(jq -r '.failed' <<<"$res")" true "--cluster on the controller fails the play"
like "$(jq -r '.msg' <<<"$res")" 'node1:rdma0 <-> node2:rdma0 +mtu differs: 1500 on node1:rdma0, 9000 on node2:rdma0' \
	"and names the cable and its MTUs"
like "$(task_result 'halo.provision.node : Check that both ends of every cable agree' node1 | jq -r '.cmd | join(" ")')" \
	"--cluster $ANS/state/node1.json $ANS/state/node2.json\$" "over the nodes still in the play"

# The overlap check above can fail: two simulated reboots at once are caught.
mkdir -p "$TEST_TMP/r1" "$TEST_TMP/r2"
for r in r1 r2; do cp -a "$(node_root node3)/." "$TEST_TMP/$r/"; done
"$ANS/bin/reboot" "$TEST_TMP/r1" & "$ANS/bin/reboot" "$TEST_TMP/r2"; wait
is "$(grep -c overlap "$ANS/reboots.log")" 1 "two reboots at once are logged as an overlap"

done_testing
