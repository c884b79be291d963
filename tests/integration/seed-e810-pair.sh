#!/bin/bash
# The E810 pair of examples/e810-pair, end to end through the real
# ansible-playbook: two Fedora nodes (BLS roots), each a network namespace
# and its own root, an E810 port each on the simulated NIC (tests/nicsim),
# one veth cable. Check mode changes nothing; the apply converges (both
# nodes rebooted, one at a time, for iommu=pt and the 124 GiB GTT); the
# second run changes nothing; jumbo frames cross the cable; the NICs hold
# RoCE v2, host DCB, PFC 3, DSCP 26 -> 3; the env files say GID index 1;
# --cluster is clean; one end's MTU broken → --cluster names that cable.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/lib/ansible.sh"
ansible_cluster_require
ansible_env
source "$top_srcdir/tests/lib/seed-cluster.sh"
seed_require
seed_cluster "$top_srcdir/examples/e810-pair" || { echo "Bail out! the simulated cluster could not be built"; exit 1; }
IF=enp194s0f0np0

diag "driven by: $SEED_MODE$([ "$SEED_MODE" = direct ] && echo " (this halo-provision does not answer an Ansible args file: the role's steps run directly)")"

# --- check mode: every node would change, nothing is touched ---
seed_check_mode "$IF"

# --- apply: converges, reboots serially, the cluster check passes ---
seed_apply 2
for n in node1 node2; do
	R=$(node_root "$n")
	like "$(cat "$R/proc/cmdline")" ' iommu=pt ttm\.pages_limit=32505856$' \
		"$n: booted with iommu=pt and GTT 124 GiB (32505856 pages)"
	is "$(sed -n 's/^options //p' "$R"/boot/loader/entries/*.conf)" "$(cat "$R/etc/kernel/cmdline")" \
		"$n: the BLS entry has /etc/kernel/cmdline's arguments"
done

# --- second run: nothing to change anywhere ---
seed_converge
for n in node1 node2; do
	is "${SEED_CHANGED[$n]},${SEED_FAILED[$n]}" "0,0" "second run: $n changed=0, no failure"
	seed_halo "$n" --check
	is "$rc" 0 "$n: --check in sync"
	[ "$rc" = 0 ] || diag "$out"
done
is "$(grep -c '^start ' "$ANS/reboots.log")" 2 "second run: no reboot"
is "$SEED_CLUSTER_RC" 0 "second run: the cluster check is clean"

# --- the cable carries jumbo frames ---
ip netns exec "$(node_ns node1)" ping -M do -s 8972 -c 1 -W 2 192.168.100.2 >/dev/null
ok $? "node1 -> node2: ping -M do -s 8972 (MTU 9000, no fragmentation)"
ip netns exec "$(node_ns node2)" ping -M do -s 8972 -c 1 -W 2 192.168.100.1 >/dev/null
ok $? "node2 -> node1: ping -M do -s 8972"

# --- the simulated E810s and the env files ---
for n in node1 node2; do
	is "$(jq -c '[.devlink.enable_roce, .devlink.enable_iwarp, .priv_flags["fw-lldp-agent"], .dcbx, .pfc_enabled, .trust, [.app[] | "\(.selector) \(.protocol)->\(.priority)"]]' "$(seed_nic "$n" $IF)")" \
		'[true,false,false,"host",[3],"dscp",["dscp 26->3"]]' \
		"$n's E810: RoCE v2, agent off, host DCB, PFC 3, DSCP 26 -> 3"
	R=$(node_root "$n")
	is "$(grep -E '^NCCL_IB_(HCA|GID_INDEX|TC)=' "$R/etc/halo-provision/rccl.env" | paste -sd' ')" \
		"NCCL_IB_HCA==rocep194s0f0:1 NCCL_IB_GID_INDEX=1 NCCL_IB_TC=106" "$n: the env file says GID index 1"
	is "$(cat "$R/sys/kernel/config/rdma_cm/rocep194s0f0/ports/1/default_roce_mode")" "RoCE v2" \
		"$n: rdma_cm default RoCE v2"
	like "$(cat "$R/etc/firewalld/zones/halo-rdma.xml")" "<interface name=\"$IF\"/>" \
		"$n: the E810 port is in the trusted firewalld zone"
done

# --- --cluster: clean, then one end's MTU broken ---
run_halo --cluster "$(seed_state node1)" "$(seed_state node2)"
is "$rc" 0 "--cluster over both nodes: exit 0"
is "$(tail -n 1 <<<"$out" | sed 's/, [0-9]* items.*//')" "cluster: 2 nodes, 1 cable" "one cable found"

sed 's/mtu = 9000;/mtu = 1500;/' "$top_srcdir/examples/e810-pair/node2.conf" |
	install -m 0600 /dev/stdin "$ANS/configs/node2.conf"
sed -i "s|^halo_config_src: .*|halo_config_src: $ANS/configs/node2.conf|" "$ANS/host_vars/node2.yml"
seed_converge
ok "$([ "${SEED_CHANGED[node2]}" -ge 1 ]; echo $?)" "node2 at MTU 1500: node2 changed (${SEED_CHANGED[node2]})"
[ "$SEED_MODE" = direct ] || is "${SEED_FAILED[node1]},$rc" "1,2" "... and the role's cluster check fails the play (exit 2)"
is "$SEED_CLUSTER_RC" 2 "the cluster check after it: exit 2"
is "$SEED_CLUSTER_OUT" \
	"drift   node1:$IF <-> node2:$IF  mtu differs: 9000 on node1:$IF, 1500 on node2:$IF" \
	"... naming that cable and its two MTUs"
is "$(ip -n "$(node_ns node2)" -j link show dev $IF | jq -r '.[0].mtu')" 1500 "node2's link has MTU 1500 (ip -j)"
run_halo --cluster "$(seed_state node1)" "$(seed_state node2)"
is "$rc" 2 "--cluster: exit 2"
is "$(grep -v '^cluster:' <<<"$out")" \
	"drift   node1:$IF <-> node2:$IF  mtu differs: 9000 on node1:$IF, 1500 on node2:$IF" \
	"--cluster names that cable, both ends"

done_testing
