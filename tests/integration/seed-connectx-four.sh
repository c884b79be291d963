#!/bin/bash
# The ConnectX four of examples/connectx-four, end to end through the real
# ansible-playbook: four Ubuntu 24.04 cloud-image nodes (grub.d drop-in
# after the cloud image's), a dual-port ConnectX-5 each on the simulated
# NIC (tests/nicsim), daisy-chained by veth cables node1 - node2 - node3 -
# node4 (nodes 2 and 3 with two links). Check mode changes nothing; the
# apply converges (four serial reboots); the second run changes nothing;
# jumbo frames cross every cable; every port holds PFC 3, DSCP 26 -> 3 and
# ECN on 3; the env files say GID index 3; --cluster is clean; the MTU of
# one end of the node3 - node4 cable broken → --cluster names that cable,
# and --cluster --dot, rendered by the real `dot -Tsvg`, marks it alone.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/lib/ansible.sh"
ansible_cluster_require
ansible_env
source "$top_srcdir/tests/lib/seed-cluster.sh"
source "$top_srcdir/tests/lib/svg.sh"
seed_require
seed_cluster "$top_srcdir/examples/connectx-four" || { echo "Bail out! the simulated cluster could not be built"; exit 1; }
IF=enp65s0f0np0
NODES="node1 node2 node3 node4"

diag "driven by: $SEED_MODE$([ "$SEED_MODE" = direct ] && echo " (this halo-provision does not answer an Ansible args file: the role's steps run directly)")"

# --- check mode: every node would change, nothing is touched ---
seed_check_mode "$IF"

# --- apply: converges, reboots serially, the cluster check passes ---
seed_apply 4
for n in $NODES; do
	R=$(node_root "$n")
	like "$(cat "$R/proc/cmdline")" ' iommu=pt ttm\.pages_limit=32505856$' \
		"$n: booted with iommu=pt and GTT 124 GiB (32505856 pages)"
	like "$(grep -P '^\tlinux\t' "$R/boot/grub/grub.cfg")" 'console=ttyS0 quiet iommu=pt ttm\.pages_limit=32505856$' \
		"$n: grub.cfg has the cloud image's arguments, then ours (the drop-in sorts last)"
done

# --- second run: nothing to change anywhere ---
seed_converge
for n in $NODES; do
	is "${SEED_CHANGED[$n]},${SEED_FAILED[$n]}" "0,0" "second run: $n changed=0, no failure"
	seed_halo "$n" --check
	is "$rc" 0 "$n: --check in sync"
	[ "$rc" = 0 ] || diag "$out"
done
is "$(grep -c '^start ' "$ANS/reboots.log")" 4 "second run: no reboot"
is "$SEED_CLUSTER_RC" 0 "second run: the cluster check is clean"

# --- every cable carries jumbo frames, both ways ---
while read -r A B; do
	for dir in "$A $B" "$B $A"; do
		set -- $dir
		ip netns exec "$(node_ns "${1%%:*}")" ping -M do -s 8972 -c 1 -W 2 \
			"$(seed_addr "${2%%:*}" "${2#*:}")" >/dev/null
		ok $? "$1 -> $2: ping -M do -s 8972 (MTU 9000, no fragmentation)"
	done
done < <(seed_cables)

# --- every simulated ConnectX port, the ECN knobs and the env files ---
for n in $NODES; do
	R=$(node_root "$n")
	hca=
	for p in $(seed_ports "$n"); do
		is "$(jq -c '[.dcbx, .pfc_enabled, .trust, [.app[] | "\(.selector) \(.protocol)->\(.priority)"]]' "$(seed_nic "$n" "$p")")" \
			'["host",[3],"dscp",["dscp 26->3"]]' "$n:$p: host DCB, PFC 3, DSCP 26 -> 3"
		pci=$(seed_port "$n" "$p" | awk '{ print $5 }')
		ib=$(seed_port "$n" "$p" | awk '{ print $7 }')
		e=$R/sys/devices/pci0000:00/$pci/net/$p/ecn
		is "$(cat "$e"/roce_np/enable/* | paste -sd ''),$(cat "$e"/roce_rp/enable/* | paste -sd '')" \
			"00010000,00010000" "$n:$p: ECN on priority 3 only (notification and reaction point)"
		is "$(cat "$R/sys/kernel/config/rdma_cm/$ib/ports/1/default_roce_mode"),$(cat "$R/sys/kernel/config/rdma_cm/$ib/ports/1/default_roce_tos")" \
			"RoCE v2,106" "$n:$p: rdma_cm default RoCE v2, ToS 106"
		hca=${hca:+$hca,}$ib:1
	done
	is "$(grep -E '^NCCL_IB_(HCA|GID_INDEX|TC)=' "$R/etc/halo-provision/rccl.env" | paste -sd' ')" \
		"NCCL_IB_HCA==$hca NCCL_IB_GID_INDEX=3 NCCL_IB_TC=106" "$n: the env file says GID index 3"
	nft -c -f "$R/etc/nftables.d/halo-provision.nft"
	ok $? "$n: nft -c accepts the node's nftables table"
done

# --- --cluster: clean, then one end's MTU broken ---
states() { for n in $NODES; do seed_state "$n"; done; }
run_halo --cluster $(states)
is "$rc" 0 "--cluster over the four nodes: exit 0"
is "$(tail -n 1 <<<"$out" | sed 's/, [0-9]* items.*//')" "cluster: 4 nodes, 3 cables" "three cables found"

# node4's end of the node3 - node4 cable at MTU 1500.
sed 's/mtu = 9000;/mtu = 1500;/' "$top_srcdir/examples/connectx-four/node4.conf" |
	install -m 0600 /dev/stdin "$ANS/configs/node4.conf"
sed -i "s|^halo_config_src: .*|halo_config_src: $ANS/configs/node4.conf|" "$ANS/host_vars/node4.yml"
seed_converge
ok "$([ "${SEED_CHANGED[node4]}" -ge 1 ] && [ "${SEED_CHANGED[node1]}" = 0 ]; echo $?)" \
	"node4 at MTU 1500: node4 changed (${SEED_CHANGED[node4]}), node1 did not (${SEED_CHANGED[node1]})"
is "$SEED_CLUSTER_RC" 2 "the cluster check after it: exit 2"
C="node3:enp65s0f1np1 <-> node4:$IF"
is "$SEED_CLUSTER_OUT" "drift   $C  mtu differs: 9000 on node3:enp65s0f1np1, 1500 on node4:$IF" \
	"... naming that cable alone, and its two MTUs"
is "$(ip -n "$(node_ns node4)" -j link show dev $IF | jq -r '.[0].mtu')" 1500 "node4's link has MTU 1500 (ip -j)"
run_halo --cluster $(states)
is "$rc" 2 "--cluster: exit 2"
is "$(grep -v '^cluster:' <<<"$out")" "drift   $C  mtu differs: 9000 on node3:enp65s0f1np1, 1500 on node4:$IF" \
	"--cluster names that cable, both ends"

# The map of the chain: three cables, the broken one marked.
run_halo --cluster --dot $(states)
is "$rc" 2 "--cluster --dot: exit 2"
printf '%s\n' "$out" >"$TEST_TMP/four.dot"
dot -Tsvg "$TEST_TMP/four.dot" >"$TEST_TMP/four.svg"
ok $? "dot -Tsvg renders the four-node chain"
is "$(svg_elements "$TEST_TMP/four.svg" cable)" \
"node1:$IF~node2:$IF edge cable black | 10.10.12.0/30 / mtu 9000
node2:enp65s0f1np1~node3:$IF edge cable black | 10.10.23.0/30 / mtu 9000
node3:enp65s0f1np1~node4:$IF edge cable drift #d7301f | 10.10.34.0/30 / mtu 9000/1500 / differs: mtu" \
	"the SVG: three cables with subnet and MTU, the mismatched one alone in red"
is "$(svg_elements "$TEST_TMP/four.svg" host | cut -d' ' -f1 | tr '\n' ' ')" "node1 node2 node3 node4 " \
	"the SVG: the four nodes"

done_testing
