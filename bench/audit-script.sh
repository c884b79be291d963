#!/bin/bash
# bench/audit-script.sh ROOT: the drift audit of bench/run's reference
# node as an operator scripts it today, following the seed setup guides
# (docs/hardware.md): one command per fact, with ip -j and jq, dcb, devlink,
# ethtool, grep and cat. Run inside the node's network namespace. ROOT
# stands for / (the node's /proc, /sys and /etc are under it).
# NIC_PRELOAD: set only on the commands that talk to the NIC (dcb, devlink,
# ethtool), so they reach the simulated NIC; a real node needs none.
# Prints every fact that does not hold and the number checked; exit 0 when all hold, 1 otherwise.
set -u
R=${1:?usage: audit-script.sh ROOT}
P=${NIC_PRELOAD:-}
bad=0
n=0
fact() { # fact DESCRIPTION CMD...: one fact, one command (pipelines in sh -c style below)
	local what=$1
	shift
	n=$((n + 1))
	"$@" >/dev/null 2>&1 || { echo "drift: $what"; bad=1; }
}

# Boot: active (/proc/cmdline), generated (grub.cfg), GTT after boot.
for p in iommu=pt pci=realloc pcie_aspm=off ttm.pages_limit=32505856; do
	fact "cmdline $p" grep -qw -- "$p" "$R/proc/cmdline"
	fact "grub.cfg $p" grep -q -- "$p" "$R/boot/grub/grub.cfg"
done
fact "cmdline without quiet" eval '! grep -qw quiet "$R/proc/cmdline"'
fact "GTT 126976 MiB" eval '[ "$(cat "$R/sys/class/drm/card1/device/mem_info_gtt_total")" -ge $((126976 << 20)) ]'

# Modules: loaded, option live, persisted.
for m in ice irdma ib_uverbs rdma_ucm mlx5_ib; do
	fact "module $m live" grep -qx live "$R/sys/module/$m/initstate"
	fact "module $m at boot" grep -qx "$m" "$R/etc/modules-load.d/halo-provision.conf"
done
fact "mlx5_core prof_sel=2 live" grep -qx 2 "$R/sys/module/mlx5_core/parameters/prof_sel"
fact "mlx5_core prof_sel=2 persisted" grep -qx 'options mlx5_core prof_sel=2' "$R/etc/modprobe.d/halo-provision.conf"

# Links, RoCE and RDMA per interface.
link_facts() { # IFNAME ADDRESS PCI
	local dev=$1 addr=$2 pci=$3 ib
	fact "$dev mtu 9000" eval 'ip -j link show dev "$dev" | jq -e ".[0].mtu == 9000"'
	fact "$dev up" eval 'ip -j link show dev "$dev" | jq -e ".[0].flags | index(\"UP\")"'
	fact "$dev $addr" eval 'ip -j addr show dev "$dev" |
		jq -e --arg a "$addr" "[.[0].addr_info[] | \"\(.local)/\(.prefixlen)\"] | index(\$a)"'
	fact "$dev dcbx host" eval 'LD_PRELOAD=$P dcb -j dcbx show dev "$dev" | jq -e ".host"'
	fact "$dev pfc 3" eval 'LD_PRELOAD=$P dcb -j pfc show dev "$dev" | jq -e ".prio_pfc[3]"'
	fact "$dev dscp 26->3" eval 'LD_PRELOAD=$P dcb -j app show dev "$dev" | jq -e ".dscp_prio | index([[26,3]])"'
	fact "$dev enable_roce" eval 'LD_PRELOAD=$P devlink -j dev param show "pci/$pci" name enable_roce |
		jq -e ".param[][0].values[0].value == true"'
	ib=$(ls "$R/sys/class/net/$dev/device/infiniband" 2>/dev/null)
	fact "$dev RDMA device" test -n "$ib"
	fact "$dev port ACTIVE" grep -q ACTIVE "$R/sys/class/infiniband/$ib/ports/1/state"
	fact "$dev port LinkUp" grep -q LinkUp "$R/sys/class/infiniband/$ib/ports/1/phys_state"
	fact "$dev RoCE v2 GID of ${addr%/*}" eval 'i=$(grep -l "$(printf "ffff:%02x%02x:%02x%02x" $(echo "${addr%/*}" | tr . " "))" \
		"$R/sys/class/infiniband/$ib/ports/1/gids/"* | tail -1) &&
		grep -qx "RoCE v2" "$R/sys/class/infiniband/$ib/ports/1/gid_attrs/types/${i##*/}"'
	fact "$dev rdma_cm ToS 106" grep -qx 106 "$R/sys/kernel/config/rdma_cm/$ib/ports/1/default_roce_tos"
	fact "$dev rdma_cm RoCE v2" grep -qx "RoCE v2" "$R/sys/kernel/config/rdma_cm/$ib/ports/1/default_roce_mode"
	fact "$dev firewalld trusted" grep -q "<interface name=\"$dev\"/>" "$R/etc/firewalld/zones/halo-rdma.xml"
}
link_facts ens1f0 192.168.100.1/30 0000:c2:00.0
fact "ens1f0 fw-lldp-agent off" eval 'LD_PRELOAD=$P ethtool --show-priv-flags ens1f0 | grep -q "^fw-lldp-agent *: off"'
link_facts enp65s0f0np0 192.168.101.1/30 0000:41:00.0
ecn=$R/sys/class/net/enp65s0f0np0/ecn
fact "enp65s0f0np0 ECN np 3" grep -qx 1 "$ecn/roce_np/enable/3"
fact "enp65s0f0np0 ECN rp 3" grep -qx 1 "$ecn/roce_rp/enable/3"

# Owned files: memlock, device groups, the env file for RCCL.
fact "limits.d memlock" grep -q '^\*[[:space:]]*hard[[:space:]]*memlock[[:space:]]*unlimited' \
	"$R/etc/security/limits.d/90-halo-provision.conf"
fact "system manager memlock" grep -qx DefaultLimitMEMLOCK=infinity "$R/etc/systemd/system.conf.d/90-halo-provision.conf"
fact "user manager memlock" grep -qx DefaultLimitMEMLOCK=infinity "$R/etc/systemd/user.conf.d/90-halo-provision.conf"
fact "udev render group" grep -q 'KERNEL=="renderD\*", GROUP="render"' "$R/etc/udev/rules.d/70-halo-access.rules"
fact "udev rdma group" grep -q 'GROUP="rdma"' "$R/etc/udev/rules.d/70-halo-access.rules"
fact "env NCCL_IB_TC" grep -qx NCCL_IB_TC=106 "$R/etc/halo-provision/rccl.env"
fact "env NCCL_IB_HCA" grep -q '^NCCL_IB_HCA=.*rocep194s0f0' "$R/etc/halo-provision/rccl.env"
fact "env NCCL_SOCKET_IFNAME" grep -q '^NCCL_SOCKET_IFNAME=.*ens1f0' "$R/etc/halo-provision/rccl.env"
echo "$n facts checked"
exit $bad
