#!/bin/bash
# The halo.provision.node role's answers to inputs an operator gets wrong,
# under the real ansible-playbook (connection local, nodes as in
# tests/lib/ansible.sh): each fails the play with one line saying what to
# do, before anything on the node changes; and a tree (halo_root other
# than /) that needs a new kernel command line is never a reason to
# reboot the node that holds it.
#
#   - a text variable given as a number (YAML reads 6.10 as 6.1);
#   - a package file that is neither a .deb nor an .rpm;
#   - a node without the program and a config to install;
#   - a controller without the program the cluster check runs, in check
#     mode and in an apply;
#   - a tree whose apply leaves a reboot pending, with no reboot command:
#     no reboot (ansible.builtin.reboot on a local connection would fail
#     with "would reboot the control node"), a note, and the second run
#     reports changed=0.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/lib/ansible.sh"
ansible_cluster_require
ansible_env

ansible_node node1 debian && ansible_node node2 debian || {
	echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ansible_cable node1 rdma0 node2 rdma0
link() { echo "{ name = \"rdma0\"; mtu = 9000; addresses = [ \"$1\" ]; }"; }
printf 'version = 1;\ninterfaces = ( %s );\n' "$(link 192.168.101.1/30)" | ansible_config node1
printf 'version = 1;\ninterfaces = ( %s );\n' "$(link 192.168.101.2/30)" | ansible_config node2
ansible_inventory
snap_all() { tree_snapshot "$(node_root node1)"; tree_snapshot "$(node_root node2)"; }
mtu() { ip -n "$(node_ns "$1")" -j link show dev rdma0 | jq -r '.[0].mtu'; }
# failed_msg TASK HOST: the message of HOST's failed TASK.
failed_msg() {
	task_result "$1" "$2" | jq -r 'select(.failed) | [.results // [.] | .[] | select(.failed) | .msg][0]'
}
# refused NAME TASK WANT: the play failed at TASK for node1 with WANT, and
# no node changed.
refused() {
	is "$rc" 2 "$1: ansible-playbook exits 2 (a host failed)"
	is "$(failed_msg "$2" node1 | tr -s ' \n' ' ' | sed 's/ $//')" "$3" "$1: one line: $3"
	is "$(snap_all) $(mtu node1)" "$before 1500" "$1: nothing changed on the nodes"
}

before=$(snap_all)

# A number where text is meant.
ansible_host_var node1 halo_kernel_release 6.10
ansible_play_json --limit node1
refused "kernel release as a number" "halo.provision.node : Check that the role's text inputs are text" \
	"halo_kernel_release: expected a string, got float (quote it: YAML reads 6.10 as the number 6.1)"
sed -i '/^halo_kernel_release:/d' "$ANS/host_vars/node1.yml"

# A package file of another kind.
ansible_host_var node1 halo_package_file "$TEST_TMP/halo-provision.tar.gz"
ansible_play_json --limit node1
refused "a package file neither .deb nor .rpm" "halo.provision.node : Check the package file's kind" \
	"halo_package_file: $TEST_TMP/halo-provision.tar.gz is neither a .deb nor an .rpm"
sed -i '/^halo_package_file:/d' "$ANS/host_vars/node1.yml"

# No program on the node: said before the config directory is made.
ansible_host_var node1 halo_node_command "$TEST_TMP/nowhere/halo-provision"
ansible_play_json --limit node1
refused "a node without the program" "halo.provision.node : Check that the node has the program" \
	"node1: $TEST_TMP/nowhere/halo-provision does not exist: install the halo-provision package (halo_package or halo_package_file), or set halo_node_command"
sed -i "\|^halo_node_command: $TEST_TMP/nowhere|d" "$ANS/host_vars/node1.yml"

# No program on the controller for the cluster check.
sed -i "s|^    halo_cluster_command: .*|    halo_cluster_command: $TEST_TMP/nowhere/halo-provision|" "$ANS/site.yml"
for mode in check apply; do
	if [ $mode = check ]; then ansible_play_json --check; else ansible_play_json; fi
	is "$rc" 2 "$mode, no program on the controller: ansible-playbook exits 2"
	like "$(failed_msg 'halo.provision.node : Check that the controller can run the cluster check' node1 | tr -s ' \n' ' ')" \
		"^the controller cannot run $TEST_TMP/nowhere/halo-provision for the cluster check \(.*No such file or directory.*\): install the halo-provision package there, set halo_cluster_command, or set halo_cluster_check to false" \
		"$mode, no program on the controller: one line saying so"
done
is "$(mtu node1) $(mtu node2)" "9000 9000" "the apply converged the nodes before the cluster check failed"
sed -i "s|^    halo_cluster_command: .*|    halo_cluster_command: $HALO|" "$ANS/site.yml"

# A tree whose apply leaves a reboot pending, and no reboot command: the
# node that holds the tree is not rebooted.
echo 'boot = { iommu = "pt"; };' >>"$ANS/configs/node1.conf"
sed -i '/halo_reboot_command:/d' "$ANS/site.yml"
for run in first second; do
	ansible_play_json --limit node1
	is "$rc" 0 "a tree, $run run: ansible-playbook exits 0"
	is "$(task_result 'halo.provision.node : Converge the node' node1 | jq -r .reboot_required)" true \
		"a tree, $run run: the apply says reboot_required"
	like "$(task_result 'halo.provision.node : Note a pending reboot' node1 | jq -r .msg)" \
		"^node1: the tree at $(node_root node1) takes its new kernel command line when it boots$" \
		"a tree, $run run: noted as the tree's"
	is "$(task_result 'halo.provision.node : Reboot' node1) $(task_result 'halo.provision.node : Reboot with the configured command' node1)" \
		"null null" "a tree, $run run: no reboot handler ran"
done
is "$(recap node1 changed)" 0 "a tree, second run: changed=0"

done_testing
