#!/bin/bash
# The seed systems (tests/fixtures/rdma): two E810 nodes (irdma, renamed
# rocep194s0f0: GID index 1) and a ConnectX node (mlx5 rocep1s0f0: GID
# index 3). Each node's env file must be byte for byte the expected one,
# and its rdma_cm defaults RoCE v2 / 106.
source "$top_srcdir/tests/integration/rdma-lib.sh"

FIX=$top_srcdir/tests/fixtures/rdma
BASE=$TEST_TMP/nodes

node() { # node NAME IFNAME DRIVER IBDEV ADDRESS LAYOUT
	local name=$1 ifname=$2 driver=$3 ib=$4 addr=$5 layout=$6 ns
	ROOT=$BASE/$name
	mkdir -p "$ROOT/etc/halo-provision" "$ROOT/sys/class/net" "$ROOT/sys/class/infiniband" \
		"$ROOT/sys/module"
	install -m 0600 "$FIX/$name.conf" "$ROOT/etc/halo-provision/halo.conf"
	ns=$(new_netns "seed$name") || return 1
	ip -n "$ns" link add "$ifname" type veth peer name peer0
	fake_nic "$ifname" 0000:c2:00.0 "$driver"
	fake_ibdev "$ib" 0000:c2:00.0
	if [ "$layout" = irdma ]; then
		set_gid "$ib" 0 $FE80_GID "RoCE v2" "$ifname"
		set_gid "$ib" 1 "$(v4gid "$addr")" "RoCE v2" "$ifname"
	else
		set_gid "$ib" 0 $FE80_GID "IB/RoCE v1" "$ifname"
		set_gid "$ib" 1 $FE80_GID "RoCE v2" "$ifname"
		set_gid "$ib" 2 "$(v4gid "$addr")" "IB/RoCE v1" "$ifname"
		set_gid "$ib" 3 "$(v4gid "$addr")" "RoCE v2" "$ifname"
	fi
	cm_dev "$ib"
	run_halo --root "$ROOT" --netns "$ns" --only rdma
	is "$rc" 2 "$name: apply exit 2"
	[ -n "$err" ] && diag "$err"
	cmp "$ROOT/etc/halo-provision/rccl.env" "$FIX/$name.env" >&2
	ok $? "$name: the env file is the expected one ($FIX/$name.env)"
	is "$(cat "$ROOT/sys/kernel/config/rdma_cm/$ib/ports/1/default_roce_mode")/$(cat "$ROOT/sys/kernel/config/rdma_cm/$ib/ports/1/default_roce_tos")" \
		"RoCE v2/106" "$name: rdma_cm RoCE v2, ToS 106"
	run_halo --root "$ROOT" --netns "$ns" --only rdma --check
	is "$rc" 0 "$name: check exit 0"
}

node e810-node1 rdma0 ice rocep194s0f0 192.168.100.1 irdma
node e810-node2 rdma0 ice rocep194s0f0 192.168.100.2 irdma
node connectx cx0 mlx5_core rocep1s0f0 10.10.0.11 mlx5

# The two E810 nodes differ only in their address, not in their env file.
cmp "$FIX/e810-node1.env" "$FIX/e810-node2.env"
ok $? "both E810 nodes: the same env file (GID index 1 on each)"

done_testing
