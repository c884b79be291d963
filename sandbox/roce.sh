# sandbox/roce.sh: sourced by demo.sh after its Debian and Fedora nodes.
# Lossless RoCE v2 on a simulated NIC (tests/nicsim, an LD_PRELOAD library
# answering dcbnl, devlink and ethtool for the interfaces it is told
# about; everything else reaches the namespace's real kernel), with the
# seed configs of examples/ unchanged:
#   - two Intel E810 nodes back to back (MTU 9000, PFC on priority 3,
#     DSCP 26 -> 3), the firmware LLDP agent on and iWARP selected, as a
#     fresh card ships;
#   - an NVIDIA ConnectX node (PFC on priority 3, DSCP 26 -> 3, ECN on 3,
#     ToS 106), whose PFC change flaps the link.
# Each node is a throwaway root (the NIC's driver and PCI address in its
# sys/) and a network namespace; --only links,roce, since the sandbox has
# no kernel modules to load. Then rdma on E810 node 1 and the ConnectX
# node: the RDMA device their driver registers (sandbox/rdma.sh), the GID
# index computed from its table, the rdma_cm defaults, and the env file
# (state.env_file, added to the example's config) printed.
# Uses demo.sh's step, box, ns, here, failures.
source "$here/rdma.sh"

# The simulator is a check library of the build halo-provision came from
# (make check builds it; made here when missing). NICSIM_SO overrides.
nicsim_lib() {
	local build
	if [ -n "${NICSIM_SO:-}" ] && [ -f "$NICSIM_SO" ]; then
		echo "$NICSIM_SO"; return 0
	fi
	build=$(dirname "$HALO")
	[ -f "$build/Makefile" ] || return 1
	if ! find "$build/tests/nicsim" -name 'nicsim*.so' 2>/dev/null | grep -q .; then
		make -C "$build" -s tests/nicsim/nicsim.la >/dev/null || return 1
	fi
	find "$build/tests/nicsim" -name 'nicsim*.so' -print -quit
}

# nic_root DIR IFNAME PCI DRIVER: a node root whose sysfs says IFNAME is
# a PCI function driven by DRIVER.
nic_root() {
	local R=$1 dev=sys/devices/pci0000:00/$3
	mkdir -p "$R/etc/halo-provision" "$R/var/lib" "$R/run" "$R/$dev/net/$2" \
		"$R/sys/class/net" "$R/sys/bus/pci/drivers/$4"
	ln -s "../../../$3" "$R/$dev/net/$2/device"
	ln -s "../../../bus/pci/drivers/$4" "$R/$dev/driver"
	ln -s "../../devices/pci0000:00/$3/net/$2" "$R/sys/class/net/$2"
}

# nic_step WANT DESCRIPTION NODE-STATE-DIR NICSIM-CONFIG ARGS...: a step
# under the simulated NIC.
nic_step() {
	local want=$1 what=$2 st=$3 cf=$4
	shift 4
	NICSIM_STATE=$st NICSIM_CONFIG=$cf LD_PRELOAD=$nicsim_so step "$want" "$what" "$@"
}

# nic_show STATE-DIR IFNAME: what the simulated NIC holds.
nic_show() {
	echo "(the NIC now: $(jq -c '{dcbx, pfc_enabled, app: [.app[] | "\(.protocol)->\(.priority)"],
		trust, devlink, fw_lldp_agent: .priv_flags["fw-lldp-agent"], link_flaps,
		dcb_sets: .requests.dcbnl.set} | del(.[] | nulls)' "$1/$2.json"))"
}

# same_sets STATE-DIR IFNAME BEFORE: the NIC got no SETDCB since BEFORE.
same_sets() {
	local now
	now=$(jq '.requests.dcbnl.set' "$1/$2.json")
	if [ "$now" = "$3" ]; then
		echo "=> no SETDCB request reached the NIC"
	else
		echo "<-- UNEXPECTED: $(($now - $3)) SETDCB request(s)"; failures=$((failures + 1))
	fi
}

roce_demo() {
	local e1 e2 cx cxp R1 R2 RC sets
	local env_file='state = { env_file = "/etc/halo-provision/rccl.env"; };'
	nicsim_so=$(nicsim_lib) && [ -n "$nicsim_so" ] || {
		echo "<-- UNEXPECTED: the simulated NIC (tests/nicsim) could not be built"
		failures=$((failures + 1)); return; }
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

	# ---------------------------------------------------------- E810 pair
	e1="halo-e810a-$$"; e2="halo-e810b-$$"
	ip netns add "$e1" && ns+=("$e1")
	ip netns add "$e2" && ns+=("$e2")
	ip -n "$e1" link add name ens1f0 type veth peer name ens1f0 netns "$e2"
	R1=$box/e810-node1; R2=$box/e810-node2
	nic_root "$R1" ens1f0 0000:c2:00.0 ice
	nic_root "$R2" ens1f0 0000:c2:00.0 ice
	cat "$here/../examples/e810-pair-node1.conf" - <<<"$env_file" |
		install -m 0600 /dev/stdin "$R1/etc/halo-provision/halo.conf"
	sed 's|192\.168\.100\.1/30|192.168.100.2/30|' "$here/../examples/e810-pair-node1.conf" |
		install -m 0600 /dev/stdin "$R2/etc/halo-provision/halo.conf"
	mkdir -p "$box/nic1" "$box/nic2"
	# As shipped: the firmware LLDP agent on; iWARP selected on node 1.
	echo "ens1f0 e810 pci=0000:c2:00.0 fw_lldp_agent=on enable_roce=false enable_iwarp=true" \
		>"$box/nic1.conf"
	echo "ens1f0 e810 pci=0000:c2:00.0 fw_lldp_agent=on" >"$box/nic2.conf"

	echo
	echo "${bold}== E810 pair: examples/e810-pair-node1.conf on a simulated E810 (ice), node 2 back to back (namespaces $e1, $e2)${plain}"
	R=(--root "$R1" --netns "$e1" --only links,roce)
	nic_step 2 "audit a fresh E810: the firmware agent runs DCB, iWARP is on" \
		"$box/nic1" "$box/nic1.conf" --check "${R[@]}"
	nic_step 2 "apply: agent off first, RoCE v2, host DCB, PFC 3, DSCP 26 -> 3, MTU 9000" \
		"$box/nic1" "$box/nic1.conf" "${R[@]}"
	nic_show "$box/nic1" ens1f0
	rdma_dev "$R1" "$e1" ens1f0 0000:c2:00.0 rocep194s0f0 irdma
	echo "(RoCE on: irdma registered rocep194s0f0; the kernel filled its GID table from ens1f0:)"
	rdma_show_gids "$R1" rocep194s0f0
	R=(--root "$R1" --netns "$e1" --only links,roce,rdma)
	nic_step 2 "apply with rdma: device, GID index, rdma_cm RoCE v2 / ToS 106, the env file" \
		"$box/nic1" "$box/nic1.conf" -v "${R[@]}"
	rdma_show_env "$R1"
	NICSIM_STATE=$box/nic2 NICSIM_CONFIG=$box/nic2.conf LD_PRELOAD=$nicsim_so \
		"$HALO" --root "$R2" --netns "$e2" --only links,roce -q >/dev/null
	echo "(node 2 applied the same with 192.168.100.2/30)"
	echo
	echo "\$ ip netns exec $e1 ping -M do -s 8972 -c 1 192.168.100.2   # jumbo frames cross the E810 link"
	ip netns exec "$e1" ping -M do -s 8972 -c 1 -W 2 192.168.100.2 | sed -n '2p' ||
		{ echo "<-- UNEXPECTED: ping failed"; failures=$((failures + 1)); }
	sets=$(jq '.requests.dcbnl.set' "$box/nic1/ens1f0.json")
	nic_step 0 "apply again: nothing to change" "$box/nic1" "$box/nic1.conf" "${R[@]}"
	same_sets "$box/nic1" ens1f0 "$sets"
	nic_step 0 "audit: in sync" "$box/nic1" "$box/nic1.conf" --check "${R[@]}"

	# ---------------------------------------------------------- ConnectX
	cx="halo-cx-$$"; cxp="halo-cxp-$$"
	ip netns add "$cx" && ns+=("$cx")
	ip netns add "$cxp" && ns+=("$cxp")
	ip -n "$cx" link add name enp65s0f0np0 type veth peer name enp65s0f0np0 netns "$cxp"
	ip -n "$cxp" link set enp65s0f0np0 up
	RC=$box/connectx-node
	nic_root "$RC" enp65s0f0np0 0000:41:00.0 mlx5_core
	# The vendor driver's ECN knobs (MLNX_OFED), all off.
	local p i e=$RC/sys/devices/pci0000:00/0000:41:00.0/net/enp65s0f0np0/ecn
	for p in roce_np roce_rp; do
		mkdir -p "$e/$p/enable"
		for i in 0 1 2 3 4 5 6 7; do echo 0 >"$e/$p/enable/$i"; done
	done
	cat "$here/../examples/connectx-node.conf" - <<<"$env_file" |
		install -m 0600 /dev/stdin "$RC/etc/halo-provision/halo.conf"
	mkdir -p "$box/niccx"
	# mlx5 drops the carrier a moment after the PFC change's reply.
	echo "enp65s0f0np0 connectx pci=0000:41:00.0 flap_delay_ms=50 flap_ms=300" >"$box/niccx.conf"

	echo
	echo "${bold}== ConnectX node: examples/connectx-node.conf on a simulated ConnectX (mlx5_core) (namespace $cx)${plain}"
	R=(--root "$RC" --netns "$cx" --only links,roce)
	nic_step 2 "audit a fresh ConnectX: PCP trust, no PFC" "$box/niccx" "$box/niccx.conf" --check "${R[@]}"
	nic_step 2 "apply: PFC 3 (the link flaps: waited for), DSCP 26 -> 3, ECN on 3" \
		"$box/niccx" "$box/niccx.conf" -v "${R[@]}"
	nic_show "$box/niccx" enp65s0f0np0
	echo "(ECN np/rp enable/3: $(cat "$e/roce_np/enable/3")/$(cat "$e/roce_rp/enable/3"))"
	rdma_dev "$RC" "$cx" enp65s0f0np0 0000:41:00.0 rocep65s0f0 mlx5
	echo "(mlx5_ib's rocep65s0f0: the kernel filled its GID table from enp65s0f0np0:)"
	rdma_show_gids "$RC" rocep65s0f0
	R=(--root "$RC" --netns "$cx" --only links,roce,rdma)
	nic_step 2 "apply with rdma: device, GID index, rdma_cm RoCE v2 / ToS 106, the env file" \
		"$box/niccx" "$box/niccx.conf" -v "${R[@]}"
	rdma_show_env "$RC"
	sets=$(jq '.requests.dcbnl.set' "$box/niccx/enp65s0f0np0.json")
	nic_step 0 "apply again: nothing to change" "$box/niccx" "$box/niccx.conf" "${R[@]}"
	same_sets "$box/niccx" enp65s0f0np0 "$sets"
	nic_step 0 "audit: in sync" "$box/niccx" "$box/niccx.conf" --check "${R[@]}"
}
