#!/bin/bash
# The halo.provision.node role with the real ansible-playbook on a simulated
# daisy chain node1 - node2 - node3 (each a network namespace and its own
# --root; node2 a Fedora BLS root), connection local, nothing of ~/.ansible
# or /etc/ansible used. Each node's halo-provision is its own copy of the
# build's program in another path (halo_node_command), never the
# controller's file, which only runs --cluster. Runs:
#   1. --check --diff: every node reports changed, the module's file diffs
#      are shown, no root or link changes; the cluster check runs over the
#      nodes' live audits (kept on the controller) and finds them agreeing;
#   2. apply: converges; only node1 and node2 (boot parameters) reboot, one
#      at a time; jumbo ping across both cables; --cluster clean;
#   3. node1's MTU changed behind the tool's back, --check --diff: node1
#      alone reports changed, with the prepared line of its drift, and
#      --cluster over the live audits names the drifted cable, both MTUs;
#      nothing is written on a node;
#   4. apply: node1 converges, node2 and node3 change nothing;
#   5. apply again: changed=0 on every host;
#   6. node3's config broken and node1's MTU lowered: node3 fails alone with
#      the config error and its root untouched, node1 and node2 converge,
#      and --cluster on the controller fails naming the node1-node2 cable;
#   7. the package tasks in check mode: a package file on the controller
#      (a stand-in .deb) would be installed by apt and is not, and a node
#      whose program is missing is noted, not audited; a package by name
#      goes to the node's package manager; both at once are refused.
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
like "$out" '"cluster: 3 nodes, 2 cables, [0-9]+ items, [0-9]+ ok"' \
	"check mode: --cluster over the three live audits, in agreement"
is "$(jq -c '[.mode, .node.hostname, [.node.interfaces[] | .live_mtu]]' "$ANS/state/node2.audit.json")" \
	'["dry-run","node2",[1500,1500]]' "check mode: node2's audit, kept on the controller, has its live facts"

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

# The module ran each node's own copy of the program.
for n in node1 node2 node3; do
	is "$(task_result 'halo.provision.node : Converge the node' "$n" | jq -r '.invocation.module_args.executable')" \
		"$(node_program "$n")" "apply: $n's module ran $n's own halo-provision"
done

# 3. Drift behind the tool's back: node1's end of the first cable at 1500.
reboots=$(cat "$ANS/reboots.log")
ip -n "$(node_ns node1)" link set rdma0 mtu 1500
before=$(snap_all)
ansible_play --check --diff
is "$rc" 0 "drift, check mode: ansible-playbook exits 0"
is "$(recap_text node1 changed) $(recap_text node2 changed) $(recap_text node3 changed)" "2 0 0" \
	"drift, check mode: node1 alone reports changed (its module and the cluster check)"
like "$out" '^link/rdma0/mtu: 1500 -> 9000$' "--diff: the prepared line of node1's drift"
# (A prepared line is "KEY: BEFORE -> AFTER"; "[node1 -> localhost]" is
# a task the role delegates to the controller.)
is "$(grep -c '^[a-z]*/[^ ]*: .* -> ' <<<"$out")" 1 "--diff: and no other item's line"
like "$out" '"drift   node1:rdma0 <-> node2:rdma0  mtu differs: 1500 on node1:rdma0 \(configured 9000\), 9000 on node2:rdma0"' \
	"drift, check mode: --cluster over the live audits names the drifted cable"
like "$out" '"cluster: 3 nodes, 2 cables, [0-9]+ items, [0-9]+ ok, 1 drift"' "... and nothing else"
is "$(snap_all) $(mtu node1 rdma0)" "$before 1500" "drift, check mode: nothing changed"

# 4. Apply: node1 converges, the others have nothing to do.
ansible_play_json
is "$rc" 0 "drift, apply: ansible-playbook exits 0"
is "$(recap node1 changed) $(recap node2 changed) $(recap node3 changed)" "1 0 0" \
	"drift, apply: node1 changed, node2 and node3 not"
is "$(mtu node1 rdma0)" 9000 "drift, apply: node1's rdma0 is back at 9000"
is "$(task_result 'halo.provision.node : Converge the node' node1 | jq -c '[.items[] | select(.changed) | .key]')" \
	'["link/rdma0/mtu"]' "drift, apply: the MTU is the one item changed"

# 5. Apply again: nothing to do anywhere.
ansible_play_json
is "$rc" 0 "second apply: ansible-playbook exits 0"
for n in node1 node2 node3; do
	is "$(recap "$n" changed)/$(recap "$n" failures)" 0/0 "second apply: $n changed=0 failed=0"
done
is "$(cat "$ANS/reboots.log")" "$reboots" "no reboot since the first apply"

# 6. node3's config broken, node1's MTU lowered to 1500.
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

# 7. The package tasks, in check mode only (nothing may be installed on
# this machine): node3 gets a package file and a program path that does
# not exist yet, node2 a package by name (jq, installed here: the node's
# apt answers). The stand-in .deb's preinst fails, so even a real install
# by mistake would leave nothing installed.
PKG=halo-provision-role-check
mkdir -p "$TEST_TMP/pkg/DEBIAN"
printf 'Package: %s\nVersion: 0.0.1\nArchitecture: all\nMaintainer: halo-provision tests <tests@example.invalid>\nDescription: stand-in package for the role test\n' \
	"$PKG" >"$TEST_TMP/pkg/DEBIAN/control"
printf '#!/bin/sh\nexit 1\n' >"$TEST_TMP/pkg/DEBIAN/preinst"
chmod 0755 "$TEST_TMP/pkg/DEBIAN/preinst"
dpkg-deb -b --root-owner-group "$TEST_TMP/pkg" "$TEST_TMP/${PKG}_0.0.1_all.deb" >/dev/null
ok $? "dpkg-deb built the stand-in package"
printf 'version = 1;\ninterfaces = ( %s );\n' "$(link rdma0 192.168.100.6/30)" | ansible_config node3
ansible_host_var node3 halo_package_file "$TEST_TMP/${PKG}_0.0.1_all.deb"
sed -i "s|^halo_node_command: .*|halo_node_command: $ANS/programs/none/halo-provision|" "$ANS/host_vars/node3.yml"
ansible_host_var node2 halo_package jq
ansible_play_json --check --limit node2,node3
is "$rc" 0 "package, check mode: ansible-playbook exits 0"
[ "$rc" = 0 ] || diag "$err $(jq -c '[.plays[].tasks[] | .hosts | to_entries[] | select(.value.failed) | [.key, .value.msg]]' <<<"$out")"
is "$(task_result 'halo.provision.node : Install the package file (Debian, Ubuntu)' node3 | jq -r '.changed')" true \
	"package file: apt would install it"
is "$(dpkg-query -W -f='${Status}' "$PKG" 2>/dev/null)" "" "package file: and did not"
copy=$(task_result 'halo.provision.node : Make a directory for the package file' node3 | jq -r '.path')
ok "$([ -n "$copy" ] && [ "$copy" != null ] && [ ! -e "$copy" ]; echo $?)" "package file: its copy on the node ($copy) is removed"
like "$(task_result 'halo.provision.node : Note that check mode cannot audit the node yet' node3 | jq -r '.msg')" \
	"node3: $ANS/programs/none/halo-provision is not installed yet" "package file: no program yet, noted"
is "$(task_result 'halo.provision.node : Converge the node' node3 | jq -r '.skipped')" true \
	"package file: the module is not run"
is "$(task_result 'halo.provision.node : Install the package from the node'"'"'s repositories' node2 | jq -r '.failed // false, .changed')" \
	"false
false" "package by name: the node's package manager has it installed"
is "$(task_result 'halo.provision.node : Converge the node' node2 | jq -r '.changed')" false \
	"package by name: node2 audited (in sync)"
ansible_host_var node3 halo_package jq
ansible_play_json --check --limit node3
is "$rc" 2 "package by name and file: ansible-playbook exits 2"
like "$(task_result 'halo.provision.node : Check the package inputs' node3 | jq -r '.msg')" \
	'set halo_package .* or halo_package_file .*, not both' "package by name and file: refused"

# The overlap check above can fail: two simulated reboots at once are caught.
mkdir -p "$TEST_TMP/r1" "$TEST_TMP/r2"
for r in r1 r2; do cp -a "$(node_root node3)/." "$TEST_TMP/$r/"; done
"$ANS/bin/reboot" "$TEST_TMP/r1" & "$ANS/bin/reboot" "$TEST_TMP/r2"; wait
is "$(grep -c overlap "$ANS/reboots.log")" 1 "two reboots at once are logged as an overlap"

done_testing
