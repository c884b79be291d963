# tests/lib/seed-cluster.sh: a seed cluster of examples/ simulated on this
# machine (sourced by bash after tests/lib/tap.sh and tests/lib/ansible.sh).
#
#   seed_cluster DIR   builds the cluster that DIR/cluster.sim describes:
#                      every node a root (Fedora: BLS; Ubuntu 24.04 cloud
#                      image: grub.d drop-ins) with its kernel's module tree
#                      and its NIC drivers already loaded (as udev loads
#                      them at boot), and a network namespace; every NIC a
#                      live veth whose sysfs under the root says driver and
#                      PCI function, answered by the simulated NIC
#                      (tests/nicsim) for DCB, devlink and ethtool, with the
#                      RDMA device its driver registers (GID table as the
#                      kernel fills it from the configured address); every
#                      cable a veth pair between two namespaces. Writes the
#                      inventory $ANS/inventory (the example's hosts,
#                      connection local, halo_root/halo_netns, the node's
#                      config DIR/NODE.conf, and halo_environment: the
#                      simulator's LD_PRELOAD and state for that node).
#   seed_play [ARGS...]  DIR/site.yml through ansible_play_json, the test
#                      build's program as module and checker, reboots
#                      simulated (sets $out, $err, $rc)
#   seed_converge [--check]  converges every node (or dry-runs with
#                      --check): through seed_play when halo-provision
#                      is an Ansible module (SEED_MODE=ansible), else by
#                      the same steps run directly (SEED_MODE=direct: the
#                      config installed 0600, the apply, a simulated reboot
#                      one node at a time when one is needed, --cluster
#                      over the state files). Sets SEED_CHANGED[NODE]
#                      (changed tasks, or 1/0), SEED_FAILED[NODE],
#                      SEED_CLUSTER_RC and SEED_CLUSTER_OUT (its findings)
#   seed_halo NODE ARGS...  halo-provision run directly on NODE (its root,
#                      namespace and simulated NIC; sets $out, $err, $rc)
#   seed_nic NODE IFNAME  the simulated NIC's state file of that port
#   seed_state NODE    NODE's halo-provision state file
#   seed_nodes, seed_ports NODE, seed_cables   what cluster.sim declares
#
# cluster.sim (whitespace-separated, # comments):
#   node NAME fedora|ubuntu
#   nic NODE IFNAME e810|connectx PCI DRIVER IBDEV MAC
#   cable NODE:IFNAME NODE:IFNAME
#
# Not simulated: a real reboot (sandbox/reboot.sh rewrites the boot level
# and /proc/cmdline; runtime link settings stay), irdma registering only
# once RoCE is on (the RDMA device exists from the start), module loading
# (the drivers are live already; the module tree is there for validation).

: "${ANS:?source tests/lib/ansible.sh and call ansible_env first}"
source "$top_srcdir/sandbox/rdma.sh"

SEED_SIM=
SEED_DIR=
NICSIM_SO=$(find "$top_builddir/tests/nicsim" -name 'nicsim*.so' -print -quit 2>/dev/null)

# seed_require: TAP skip unless the simulator is built.
seed_require() {
	[ -n "$NICSIM_SO" ] || {
		echo "1..0 # SKIP the simulated NIC is not built (make check builds tests/nicsim)"
		exit 0
	}
}

seed_nodes() { awk '$1 == "node" { print $2 }' "$SEED_SIM"; }
seed_distro() { awk -v n="$1" '$1 == "node" && $2 == n { print $3 }' "$SEED_SIM"; }
seed_ports() { awk -v n="$1" '$1 == "nic" && $2 == n { print $3 }' "$SEED_SIM"; }
seed_port() { awk -v n="$1" -v i="$2" '$1 == "nic" && $2 == n && $3 == i' "$SEED_SIM"; }
seed_cables() { awk '$1 == "cable" { print $2, $3 }' "$SEED_SIM"; }
seed_state() { echo "$(node_root "$1")/var/lib/halo-provision/state.json"; }
seed_nic() { echo "$ANS/nic/$1/$2.json"; }

# The kernel each distribution's node runs (its module tree and boot entry).
seed_kver() {
	case $1 in
	fedora) echo 6.18.5-200.fc43.x86_64 ;;
	ubuntu) echo 6.8.0-51-generic ;;
	esac
}

# seed_modules KVER: a fake module tree for KVER (tests/fixtures/modules:
# ice, irdma, mlx5_core, mlx5_ib, ib_uverbs, rdma_ucm...), made once.
seed_modules() {
	local t=$ANS/modtree/$1
	if [ ! -d "$t/lib/modules/$1" ]; then
		"$top_srcdir/tests/fixtures/modules/mkfixture.sh" "$t" "$1" >"$ANS/mkfixture.log" 2>&1 ||
			{ cat "$ANS/mkfixture.log" >&2; return 1; }
	fi
	echo "$t/lib/modules/$1"
}

# seed_ubuntu_root DIR NAME: an Ubuntu 24.04 cloud image's root: the
# Debian sandbox root with Ubuntu's release, kernel, and its root file
# system as an ext4 image that root=UUID= resolves to (through the root's
# libblkid cache), cloud drop-ins in /etc/default/grub.d.
seed_ubuntu_root() {
	local R=$1 kver uuid=5b6f2c0e-4a1d-4d35-9f57-0d6b1a2c3e4f img=/dev/halo-rootfs.img
	kver=$(seed_kver ubuntu)
	"$top_srcdir/sandbox/mkroot.sh" debian "$R" >/dev/null || return 1
	cat >"$R/etc/os-release" <<-'OS'
	PRETTY_NAME="Ubuntu 24.04.1 LTS"
	NAME="Ubuntu"
	VERSION_ID="24.04"
	VERSION="24.04.1 LTS (Noble Numbat)"
	VERSION_CODENAME=noble
	ID=ubuntu
	ID_LIKE=debian
	UBUNTU_CODENAME=noble
	OS
	sed -i "s/6\.12\.48+deb12-amd64/$kver/g; s/Debian GNU\/Linux/Ubuntu/; s/--class debian/--class ubuntu/" \
		"$R/boot/grub/grub.cfg" "$R/proc/cmdline"
	mkdir -p "$R/dev" "$R/run/blkid"
	truncate -s 8M "$R$img"
	mkfs.ext4 -q -F -U "$uuid" -L cloudimg-rootfs "$R$img" || return 1
	printf '<device DEVNO="0x0000" TIME="1700000000.1" LABEL="cloudimg-rootfs" UUID="%s" TYPE="ext4">%s</device>\n' \
		"$uuid" "$img" >"$R/run/blkid/blkid.tab"
}

# seed_node NAME DISTRO: the node's root and namespace (ansible.sh's
# node, or an Ubuntu root registered the same way), its kernel's module
# tree, the RDMA core modules live.
seed_node() {
	local name=$1 distro=$2 R ns kver tree m
	case $distro in
	fedora) ansible_node "$name" fedora || return 1 ;;
	ubuntu)
		R=$ANS/nodes/$name
		seed_ubuntu_root "$R" "$name" || return 1
		echo "$name" >"$R/etc/hostname"
		ns=$(new_netns "$name") || return 1
		printf '%s %s %s\n' "$name" "$ns" "$R" >>"$ANS/nodes.list"
		printf 'halo_netns: %s\nhalo_root: %s\n' "$ns" "$R" >"$ANS/host_vars/$name.yml"
		;;
	*) echo "seed_node: $name: unknown distribution '$distro'" >&2; return 1 ;;
	esac
	R=$(node_root "$name")
	kver=$(seed_kver "$distro")
	tree=$(seed_modules "$kver") || return 1
	mkdir -p "$R/lib/modules" "$R/proc/sys/kernel"
	cp -R "$tree" "$R/lib/modules/"
	echo "$kver" >"$R/proc/sys/kernel/osrelease"
	for m in ib_core ib_uverbs rdma_cm rdma_ucm; do seed_live "$R" "$m"; done
	mkdir -p "$ANS/nic/$name"
	: >"$ANS/nic/$name.conf"
}

# seed_live ROOT MODULE: MODULE is loaded in ROOT's /sys/module.
seed_live() {
	mkdir -p "$1/sys/module/$2/parameters" "$1/sys/module/$2/holders"
	echo live >"$1/sys/module/$2/initstate"
}

# seed_addr NODE IFNAME: the IPv4 address (no prefix) NODE's config gives
# the entry named IFNAME (configs name their entries by kernel link name).
seed_addr() {
	awk -v i="\"$2\"" '
		$0 ~ "name *= *" i { on = 1 }
		on && match($0, /addresses *= *\[ *"[0-9.]+/) {
			s = substr($0, RSTART, RLENGTH); sub(/.*"/, "", s); print s; exit }
	' "$SEED_DIR/$1.conf"
}

# seed_port_up NODE IFNAME PROFILE PCI DRIVER IBDEV MAC: the NIC's sysfs,
# driver and RDMA device under NODE's root, and its simulator line.
seed_port_up() {
	local node=$1 ifname=$2 profile=$3 pci=$4 driver=$5 ib=$6 mac=$7
	local R layout i e p addr
	R=$(node_root "$node")
	ROOT=$R fake_nic "$ifname" "$pci" "$driver"
	seed_live "$R" "$driver"
	case $driver in
	ice) seed_live "$R" irdma; layout=irdma ;;
	mlx5_core)
		seed_live "$R" mlx5_ib; layout=mlx5
		# The vendor driver's ECN knobs (MLNX_OFED / DOCA), all off.
		e=$R/sys/devices/pci0000:00/$pci/net/$ifname/ecn
		for p in roce_np roce_rp; do
			mkdir -p "$e/$p/enable"
			for i in 0 1 2 3 4 5 6 7; do echo 0 >"$e/$p/enable/$i"; done
		done
		;;
	esac
	echo "$ifname $profile pci=$pci${SEED_NIC_EXTRA:+ $SEED_NIC_EXTRA}" >>"$ANS/nic/$node.conf"

	# The RDMA device: the GID table the kernel fills from the link-local
	# address and the configured IPv4 address (sandbox/rdma.sh).
	addr=$(seed_addr "$node" "$ifname")
	rdma_dev_at "$R" "$ifname" "$mac" "$pci" "$ib" "$layout" ${addr:+"$addr"}
}

# seed_cable NODE:IF NODE:IF: a veth pair, each end with its NIC's MAC.
seed_cable() {
	local a=${1%%:*} ia=${1#*:} b=${2%%:*} ib=${2#*:}
	ip -n "$(node_ns "$a")" link add "$ia" address "$(seed_port "$a" "$ia" | awk '{ print $8 }')" \
		type veth peer name "$ib" address "$(seed_port "$b" "$ib" | awk '{ print $8 }')" \
		netns "$(node_ns "$b")"
}

seed_cluster() {
	local node distro line
	SEED_DIR=$(cd "$1" && pwd)
	SEED_SIM=$SEED_DIR/cluster.sim
	while read -r node distro; do
		seed_node "$node" "$distro" || return 1
	done < <(awk '$1 == "node" { print $2, $3 }' "$SEED_SIM")
	while read -r line; do
		seed_port_up $line || return 1
	done < <(awk '$1 == "nic" { $1 = ""; print }' "$SEED_SIM")
	while read -r line; do
		seed_cable $line || return 1
	done < <(seed_cables)
	# The modules run by Debian's python3, the one ansible-core is built
	# for: a python3 found first on PATH may be a wrapper (pyenv's shim
	# starts a shell and pyenv for every task on every node).
	for node in $(seed_nodes); do
		cat >>"$ANS/host_vars/$node.yml" <<-YML
		halo_config_src: $SEED_DIR/$node.conf
		ansible_python_interpreter: /usr/bin/python3
		halo_kernel_release: $(seed_kver "$(seed_distro "$node")")
		halo_environment:
		  LD_PRELOAD: $NICSIM_SO
		  NICSIM_CONFIG: $ANS/nic/$node.conf
		  NICSIM_STATE: $ANS/nic/$node
		  ASAN_OPTIONS: "${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
		YML
	done
	{
		echo "[cluster]"
		for node in $(seed_nodes); do echo "$node ansible_connection=local"; done
	} >"$ANS/inventory"
	# What a real cluster's controller sets differently: the build's
	# program, the state files in the scratch tree, the simulated reboot.
	cat >"$ANS/sim-vars.yml" <<-YML
	halo_node_command: $HALO
	halo_cluster_command: $HALO
	halo_cluster_dir: $ANS/state
	halo_reboot_command: "$ANS/bin/reboot {{ halo_root }}"
	YML
}

seed_play() {
	out=$(cd "$ANS" && ANSIBLE_STDOUT_CALLBACK=halo_json ansible-playbook -i "$ANS/inventory" \
		-e "@$ANS/sim-vars.yml" "$SEED_DIR/site.yml" "$@" 2>"$ANS/stderr")
	rc=$?
	err=$(cat "$ANS/stderr")
}

seed_halo() {
	local node=$1
	shift
	out=$(env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		NICSIM_CONFIG="$ANS/nic/$node.conf" NICSIM_STATE="$ANS/nic/$node" \
		LD_PRELOAD="$NICSIM_SO" "$HALO" --root "$(node_root "$node")" \
		--netns "$(node_ns "$node")" --kernel-release "$(seed_kver "$(seed_distro "$node")")" \
		"$@" 2>"$TEST_TMP/stderr")
	rc=$?
	err=$(cat "$TEST_TMP/stderr")
}

# seed_module_ready: halo-provision answers an Ansible args file.
seed_module_ready() {
	printf '{"root": "%s/none", "_ansible_check_mode": true}\n' "$TEST_TMP" >"$TEST_TMP/probe.args"
	local o
	o=$("$HALO" "$TEST_TMP/probe.args" 2>/dev/null)
	[ -n "$o" ] && jq -e 'has("changed") and has("failed")' <<<"$o" >/dev/null 2>&1
}
SEED_MODE=direct
if command -v ansible-playbook >/dev/null 2>&1 && seed_module_ready; then
	SEED_MODE=ansible
fi
declare -A SEED_CHANGED SEED_FAILED
SEED_CLUSTER_RC=
SEED_CLUSTER_OUT=

# seed_config NODE: the config the node's host variables give.
seed_config() { sed -n 's/^halo_config_src: //p' "$ANS/host_vars/$1.yml"; }

seed_converge() {
	local node r states=()
	SEED_CHANGED=() SEED_FAILED=() SEED_CLUSTER_RC= SEED_CLUSTER_OUT=
	if [ "$SEED_MODE" = ansible ]; then
		seed_play "$@"
		for node in $(seed_nodes); do
			SEED_CHANGED[$node]=$(recap "$node" changed)
			SEED_FAILED[$node]=$(recap "$node" failures)
		done
		r=$(task_result 'halo.provision.node : Check that both ends of every cable agree' "$(seed_nodes | head -n 1)")
		SEED_CLUSTER_RC=$(jq -r '.rc // empty' <<<"$r")
		SEED_CLUSTER_OUT=$(jq -r '.stdout // empty' <<<"$r" | grep -v '^cluster:')
		return 0
	fi
	for node in $(seed_nodes); do
		r=$(node_root "$node")
		if [ "${1:-}" = --check ]; then
			seed_halo "$node" -c "$(seed_config "$node")" --dry-run
		else
			install -m 0600 "$(seed_config "$node")" "$r/etc/halo-provision/halo.conf"
			seed_halo "$node"
		fi
		SEED_CHANGED[$node]=$(( (rc & 2) ? 1 : 0 ))
		SEED_FAILED[$node]=$(( (rc & 5) ? 1 : 0 ))
		[ "$rc" = 0 ] || [ "$rc" = 2 ] || [ "$rc" = 8 ] || [ "$rc" = 10 ] || diag "$node: exit $rc: $err"
		# One node at a time, as the role's handler does.
		if [ "${1:-}" != --check ] && (( rc & 8 )); then
			"$ANS/bin/reboot" "$r" || SEED_FAILED[$node]=1
		fi
		states+=("$(seed_state "$node")")
	done
	[ "${1:-}" = --check ] && return 0
	run_halo --cluster "${states[@]}"
	SEED_CLUSTER_RC=$rc
	SEED_CLUSTER_OUT=$(grep -v '^cluster:' <<<"$out")
}

# seed_check_mode IFNAME: a check-mode convergence and what it must mean:
# every node reports a change and no failure; node1's root, the MTU of its
# IFNAME and its simulated NIC are untouched.
seed_check_mode() {
	local n snap
	snap=$(tree_snapshot "$(node_root node1)")
	seed_converge --check
	is "$rc" "$([ "$SEED_MODE" = ansible ] && echo 0 || echo 10)" "check mode: exit $rc"
	[ "$SEED_MODE" = direct ] || [ "$rc" = 0 ] || diag "$(tail -n 20 <<<"$err")"
	for n in $(seed_nodes); do
		ok "$([ "${SEED_CHANGED[$n]}" -ge 1 ] && [ "${SEED_FAILED[$n]}" = 0 ]; echo $?)" \
			"check mode: $n reports changed (${SEED_CHANGED[$n]}), no failure (${SEED_FAILED[$n]})"
	done
	is "$(tree_snapshot "$(node_root node1)")" "$snap" "check mode: node1's root untouched"
	is "$(ip -n "$(node_ns node1)" -j link show dev "$1" | jq -r '.[0].mtu')" 1500 \
		"check mode: node1's MTU untouched"
	is "$(jq -c '.requests.dcbnl.set' "$(seed_nic node1 "$1")")" 0 \
		"check mode: no DCB set reached node1's NIC"
}

# seed_apply REBOOTS: a convergence and what it must mean: every node
# changed without failure, REBOOTS reboots one at a time, the cluster
# check after it clean.
seed_apply() {
	local n
	seed_converge
	for n in $(seed_nodes); do
		ok "$([ "${SEED_CHANGED[$n]}" -ge 1 ] && [ "${SEED_FAILED[$n]}" = 0 ]; echo $?)" \
			"apply: $n changed (${SEED_CHANGED[$n]}), no failure (${SEED_FAILED[$n]})"
	done
	is "$(grep -c '^start ' "$ANS/reboots.log"),$(grep -c '^overlap ' "$ANS/reboots.log")" "$1,0" \
		"the $1 nodes rebooted, one at a time"
	is "$SEED_CLUSTER_RC" 0 "the cluster check after the apply: exit 0"
	[ -z "$SEED_CLUSTER_OUT" ] || diag "$SEED_CLUSTER_OUT"
}
