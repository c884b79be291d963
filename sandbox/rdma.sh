# sandbox/rdma.sh: sourced by roce.sh, bench/run-lib.sh and
# tests/lib/seed-cluster.sh. The RDMA device a node's driver registers
# (irdma once RoCE is on, mlx5_ib always), as files under the node's
# throwaway root shaped like the kernel's sysfs and configfs:
#   sys/devices/pci0000:00/<pci>/infiniband/<ibdev>/node_type
#       .../ports/1/{state,phys_state,link_layer}
#       .../ports/1/gids/<i>, gid_attrs/types/<i>, gid_attrs/ndevs/<i>
#   sys/class/infiniband/<ibdev> -> that directory
#   sys/kernel/config/rdma_cm/<ibdev>/ports/1/default_roce_{mode,tos}
# The RDMA tests build theirs with tests/integration/rdma-lib.sh, a TAP
# harness that also plants the kernel's errors; this is the small builder
# of whole nodes. The GID table is filled the way the kernel fills it:
# the link-local GID (from the MAC), then each IPv4 address (irdma:
# RoCE v2 entries only; mlx5: a v1 and a v2 entry each), those of the
# live interface in the node's namespace (rdma_dev) or the ones given
# (rdma_dev_at: a node whose addresses are still to come).
# Unused entries are all-zero GIDs without attributes: the kernel's read
# EINVAL, which a plain file cannot, and halo-provision reads no attribute
# of a zero GID.

# rdma_v4gid A.B.C.D: the IPv4-mapped GID as sysfs prints it (%pI6).
rdma_v4gid() {
	local IFS=.
	set -- $1
	printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x\n' "$1" "$2" "$3" "$4"
}

# rdma_llgid MAC: the link-local GID (EUI-64 of the MAC).
rdma_llgid() {
	local IFS=:
	set -- $1
	printf 'fe80:0000:0000:0000:%02x%s:%sff:fe%s:%s%s\n' \
		$((0x$1 ^ 2)) "$2" "$3" "$4" "$5" "$6"
}

# rdma_dev_at ROOT IFNAME MAC PCI IBDEV irdma|mlx5 [ADDR...]: the RDMA
# device of the PCI function PCI (IFNAME's, whose MAC is MAC), port 1
# ACTIVE, its GID table from the link-local GID of MAC and each IPv4
# ADDR, and its rdma_cm directory at the kernel's defaults (ToS 0,
# RoCE v1).
rdma_dev_at() {
	local R=$1 ifname=$2 mac=$3 layout=$6 rel=devices/pci0000:00/$4/infiniband/$5
	local port=$1/sys/$rel/ports/1 ib=$5 i=0 gid a types
	shift 6
	mkdir -p "$port/gids" "$port/gid_attrs/types" "$port/gid_attrs/ndevs" \
		"$R/sys/class/infiniband" "$R/sys/kernel/config/rdma_cm/$ib/ports/1"
	echo "1: CA" >"$R/sys/$rel/node_type"
	echo "4: ACTIVE" >"$port/state"
	echo "5: LinkUp" >"$port/phys_state"
	echo Ethernet >"$port/link_layer"
	ln -sfn "../../$rel" "$R/sys/class/infiniband/$ib"
	echo 0 >"$R/sys/kernel/config/rdma_cm/$ib/ports/1/default_roce_tos"
	echo "IB/RoCE v1" >"$R/sys/kernel/config/rdma_cm/$ib/ports/1/default_roce_mode"

	types=("RoCE v2")
	[ "$layout" = mlx5 ] && types=("IB/RoCE v1" "RoCE v2")
	for gid in "$(rdma_llgid "$mac")" $(for a in "$@"; do rdma_v4gid "$a"; done); do
		for a in "${types[@]}"; do
			echo "$gid" >"$port/gids/$i"
			echo "$a" >"$port/gid_attrs/types/$i"
			echo "$ifname" >"$port/gid_attrs/ndevs/$i"
			i=$((i + 1))
		done
	done
	for (( ; i < 8; i++)); do
		echo 0000:0000:0000:0000:0000:0000:0000:0000 >"$port/gids/$i"
	done
}

# rdma_dev ROOT NETNS IFNAME PCI IBDEV irdma|mlx5: rdma_dev_at with
# IFNAME's MAC and IPv4 addresses in NETNS now.
rdma_dev() {
	local mac addrs
	mac=$(ip -n "$2" -j link show dev "$3" | jq -r '.[0].address')
	mapfile -t addrs < <(ip -n "$2" -j -4 addr show dev "$3" | jq -r '.[0].addr_info[].local')
	rdma_dev_at "$1" "$3" "$mac" "$4" "$5" "$6" "${addrs[@]}"
}

# rdma_show_gids ROOT IBDEV: the used GID entries, as show_gids lists them.
rdma_show_gids() {
	local port=$1/sys/class/infiniband/$2/ports/1 i
	for i in 0 1 2 3 4 5 6 7; do
		[ -e "$port/gid_attrs/types/$i" ] || continue
		echo "    $2 1 $i $(cat "$port/gids/$i") $(cat "$port/gid_attrs/types/$i")" \
			"$(cat "$port/gid_attrs/ndevs/$i")"
	done
}

# rdma_show_env ROOT: the node's env file (state.env_file).
rdma_show_env() {
	echo
	echo "\$ cat /etc/halo-provision/rccl.env   # state.env_file, under the node's root"
	cat "$1/etc/halo-provision/rccl.env" ||
		{ echo "<-- UNEXPECTED: no env file"; failures=$((failures + 1)); }
}
