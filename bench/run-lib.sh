# bench/run-lib.sh: the reference node of bench/run (sourced), and the
# helpers it measures with. bench/lib.sh stays as it is (other benchmarks
# use it); these are the additions bench/run needs.
#
# The reference node: a Debian 12 root (sandbox/mkroot.sh: grub, grub.d,
# 128 GiB), a kernel module tree built by depmod (tests/fixtures/modules)
# with the RDMA modules live, an E810 (ice) and a ConnectX (mlx5_core) that
# are the two ends of one veth pair in the bench's own network namespace,
# answered by the simulated NIC (tests/nicsim), with MTU 9000, an address
# each, lossless RoCE (PFC 3, DSCP 26 -> 3, ToS 106, ECN on the ConnectX),
# an RDMA device each (sandbox/rdma.sh), and the owned files (firewalld
# zone, udev rule, memlock drop-ins, sysctl, env file).
# Uses: HALO, NICSIM_SO, TRAP_SO, top, BOX, NS (set by the caller).

REL=6.12.48+deb12-amd64
E810=ens1f0
CX=enp65s0f0np0
E810_PCI=0000:c2:00.0
CX_PCI=0000:41:00.0

# now_us: wall clock in microseconds, without a fork (bash 5's
# EPOCHREALTIME), so the timer costs the same for every command timed.
now_us() {
	local t=${EPOCHREALTIME/[.,]/}
	echo "$t"
}

# time_us CMD...: runs CMD once, output discarded; prints the wall time in
# microseconds. The exit status of CMD is ignored (drift is not an error
# of the bench).
time_us() {
	local t0 t1
	t0=${EPOCHREALTIME/[.,]/}
	"$@" >/dev/null 2>&1
	t1=${EPOCHREALTIME/[.,]/}
	echo $((t1 - t0))
}

# median FILE: the median of the numbers in FILE, one a line.
median() {
	sort -g "$1" | awk '{ a[NR] = $1 } END {
		if (NR == 0) { print "nan"; exit }
		m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
		print m }'
}

# pair_ratio FILE_A FILE_B [DECIMALS]: the median over i of B[i] / A[i]
# (each run of B against A's run of the same index), DECIMALS decimals
# (default 1).
pair_ratio() {
	paste "$1" "$2" | awk '$1 > 0 { print $2 / $1 }' >"$1.ratio"
	median "$1.ratio" | awk -v d="${3:-1}" '{ printf "%.*f\n", d, $1 }'
}

# sim_out_ratio TRUE SIMTRUE CHECK: the median over runs i of
# (CHECK[i] - (SIMTRUE[i] - TRUE[i])) / TRUE[i]: the check with what the
# simulator adds to any process's start-up (loading the preloads) taken
# out, against /bin/true, to two decimals (as it is judged). What it
# does per request stays in.
sim_out_ratio() {
	paste "$1" "$2" "$3" | awk '$1 > 0 { print ($3 - ($2 - $1)) / $1 }' >"$3.simout"
	median "$3.simout" | awk '{ printf "%.2f\n", $1 }'
}

# ms MICROSECONDS: as milliseconds with 2 decimals.
ms() { awk -v u="$1" 'BEGIN { printf "%.2f\n", u / 1000 }'; }

# nic_root ROOT IFNAME PCI DRIVER: sysfs says IFNAME is a PCI function of
# DRIVER (as sandbox/roce.sh builds it), with the kernel's links from the
# PCI bus back to the device, which name its netdevs without a dump.
ref_nic_sysfs() {
	local R=$1 dev=sys/devices/pci0000:00/$3
	mkdir -p "$R/$dev/net/$2" "$R/sys/class/net" "$R/sys/bus/pci/drivers/$4" \
		"$R/sys/bus/pci/devices"
	ln -sfn "../../../$3" "$R/$dev/net/$2/device"
	ln -sfn "../../../bus/pci/drivers/$4" "$R/$dev/driver"
	ln -sfn "../../devices/pci0000:00/$3/net/$2" "$R/sys/class/net/$2"
	ln -sfn "../../../devices/pci0000:00/$3" "$R/sys/bus/pci/devices/$3"
	ln -sfn "../../../../devices/pci0000:00/$3" "$R/sys/bus/pci/drivers/$4/$3"
}

# halo ARGS...: halo-provision on the reference node, under the simulated
# NIC and the module trap (which only matters if something would load a
# module: nothing does once converged; it keeps libkmod off the real
# kernel). The simulator writes its state file only when something
# changes, and does not count reads (NICSIM_DEFER_GETS=drop): a --check
# makes it write nothing, its own bookkeeping is not the tool's cost.
# Variables on the command, not `env`: no extra exec is timed.
halo() {
	NICSIM_DEFER_GETS=drop NICSIM_STATE=$BOX/nicsim NICSIM_CONFIG=$BOX/nicsim.conf \
		HALO_TRAP_ROOT=$R HALO_TRAP_LOG=$BOX/trap.log LD_PRELOAD="$NICSIM_SO $TRAP_SO" \
		"$HALO" --root "$R" --netns "$NS" --kernel-release "$REL" "$@"
}
halo_check() { halo --check -q; }

# ref_node: builds the reference node under $BOX/root in namespace $NS and
# converges it (apply, simulated reboot, rdma devices, apply). Returns
# non-zero if the check afterwards is not in sync.
ref_node() {
	R=$BOX/root
	"$top/tests/fixtures/modules/mkfixture.sh" "$R" "$REL" >"$BOX/mkfixture.log" 2>&1 || {
		cat "$BOX/mkfixture.log" >&2
		return 1
	}
	"$top/sandbox/mkroot.sh" debian "$R"
	printf 'rdma:x:106:\n' >>"$R/etc/group"
	# rdma-core's udev rules and the NIC drivers loaded them at boot.
	local m
	for m in ib_core ice_helper ice irdma ib_uverbs rdma_cm rdma_ucm mlx5_core mlx5_ib; do
		mkdir -p "$R/sys/module/$m/parameters"
		echo live >"$R/sys/module/$m/initstate"
	done
	echo 2 >"$R/sys/module/mlx5_core/parameters/prof_sel"

	ip netns add "$NS"
	ip -n "$NS" link set lo up
	ip -n "$NS" link add "$E810" type veth peer name "$CX"
	ref_nic_sysfs "$R" "$E810" "$E810_PCI" ice
	ref_nic_sysfs "$R" "$CX" "$CX_PCI" mlx5_core
	# The vendor mlx5 driver's per-priority ECN switches, all off.
	local p i e=$R/sys/devices/pci0000:00/$CX_PCI/net/$CX/ecn
	for p in roce_np roce_rp; do
		mkdir -p "$e/$p/enable"
		for i in 0 1 2 3 4 5 6 7; do echo 0 >"$e/$p/enable/$i"; done
	done
	mkdir -p "$BOX/nicsim"
	cat >"$BOX/nicsim.conf" <<-NIC
		$E810 e810 pci=$E810_PCI fw_lldp_agent=on enable_roce=false enable_iwarp=true
		$CX connectx pci=$CX_PCI flap_ms=20
	NIC
	install -m 0600 /dev/stdin "$R/etc/halo-provision/halo.conf" <<-CONF
		# bench/run's reference node: an E810 and a ConnectX, lossless RoCE v2.
		version = 1;
		boot = { loader = "auto"; iommu = "pt"; gtt_mib = 126976; pci_realloc = true;
		         pcie_aspm = "off"; remove = [ "quiet" ]; };
		modules = { load = [ "ice", "irdma", "ib_uverbs", "rdma_ucm", "mlx5_ib" ];
		            options = { mlx5_core = "prof_sel=2"; }; persist = true; };
		interfaces = (
		  { name = "e810"; match = { driver = "ice"; pci = "$E810_PCI"; };
		    mtu = 9000; addresses = [ "192.168.100.1/30" ];
		    roce = { enable = true; dcbx = "host"; pfc = [ 3 ]; trust = "dscp";
		             dscp_prio = ( [ 26, 3 ] ); tos = 106; }; },
		  { name = "cx"; match = { driver = "mlx5_core"; pci = "$CX_PCI"; };
		    mtu = 9000; addresses = [ "192.168.101.1/30" ];
		    roce = { enable = true; dcbx = "host"; pfc = [ 3 ]; trust = "dscp";
		             dscp_prio = ( [ 26, 3 ] ); ecn = [ 3 ]; tos = 106; }; }
		);
		firewall = { backend = "firewalld"; trusted_interfaces = true; allow_udp = [ 4791 ]; };
		access = { gpu_group = "render"; rdma_group = "rdma"; memlock = "unlimited"; };
		state = { path = "/var/lib/halo-provision/state.json";
		          env_file = "/etc/halo-provision/rccl.env"; };
	CONF
	CONF=$R/etc/halo-provision/halo.conf

	halo -q >"$BOX/apply1.log" 2>&1
	# What update-grub and a reboot would do; then the drivers register
	# their RDMA devices (the GID tables from the addresses now up).
	"$top/sandbox/reboot.sh" "$R"
	source "$top/sandbox/rdma.sh"
	rdma_dev "$R" "$NS" "$E810" "$E810_PCI" rocep194s0f0 irdma
	rdma_dev "$R" "$NS" "$CX" "$CX_PCI" rocep65s0f0 mlx5
	halo -q >"$BOX/apply2.log" 2>&1
	halo --check >"$BOX/check.log" 2>&1
}

# grow_links SIZE: the namespace holds SIZE links besides lo: the two
# managed NICs plus (SIZE - 2) / 2 veth pairs (every one up, an address on
# each), made or removed to reach SIZE. Not in a subshell: it keeps
# LINKS_NOW.
LINKS_NOW=2
grow_links() {
	local want=$1 i
	# The filler links get no IPv6: thousands of new links doing duplicate
	# address detection and router solicitation keep the kernel busy for
	# seconds, which would be timed as the tool's. The managed NICs were
	# made before and keep theirs (RoCE's GID 0 is their link-local).
	ip netns exec "$NS" sh -c 'echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6' || return 1
	if [ "$want" -gt "$LINKS_NOW" ]; then
		for ((i = LINKS_NOW / 2; i < want / 2; i++)); do
			echo "link add x$i type veth peer name y$i"
			echo "link set x$i up"
			echo "link set y$i up"
		done | ip -n "$NS" -batch -
		for ((i = LINKS_NOW / 2; i < want / 2; i++)); do
			echo "addr add 10.$((i / 250)).$((i % 250)).1/24 dev x$i"
			echo "addr add 10.$((100 + i / 250)).$((i % 250)).1/24 dev y$i"
		done | ip -n "$NS" -batch -
	elif [ "$want" -lt "$LINKS_NOW" ]; then
		for ((i = want / 2; i < LINKS_NOW / 2; i++)); do
			echo "link del x$i"
		done | ip -n "$NS" -batch -
	fi
	LINKS_NOW=$want
	# Let the kernel finish what adding or removing them started.
	sleep 2
}

# count_links: the links in the namespace besides lo.
count_links() {
	ip -n "$NS" -j link show | jq '[.[] | select(.ifname != "lo")] | length'
}

# noop_counts LOG ROOT [SIM_DIR]: from `strace -f -yy` of one apply (socket, close,
# open*, rename*, unlink*, rmdir, mkdir*, symlink*, link*, sendto,
# sendmsg), the changes it made, as "written renamed unlinked mkdir
# nl_mutating lock outside": only calls that succeeded, paths resolved by
# strace (-yy: the fd's path; the dirfd's path joined to a relative name).
#   written: an open with O_WRONLY, O_RDWR, O_CREAT or O_TRUNC of a file
#     under ROOT, or a symlink/hard link made there; the run lock
#     (ROOT/run/halo-provision.lock, opened O_RDWR|O_CREAT by every run
#     and its holder record written into it) is counted apart as "lock";
#   renamed / unlinked (unlink, rmdir) / mkdir: either path under ROOT;
#   nl_mutating: netlink messages the process sent to the kernel that
#     change something. The socket's protocol comes from its socket() call
#     (strace cannot name it inside another namespace). rtnetlink: the
#     type's place in its group of four (RTM_NEW*, RTM_DEL*, RTM_GET*,
#     RTM_SET* from RTM_BASE 16): every type but GET mutates (NEWLINK,
#     NEWADDR, SETDCB...); generic netlink: a nlctrl request other than
#     CTRL_CMD_GETFAMILY (3), and every request to another family (devlink,
#     ethtool), counted as mutating because strace cannot tell its command
#     from a get: a conservative count, 0 only if none reached the kernel.
#     Requests the simulated NIC answers never reach the kernel: bench/run
#     counts those from its own per-NIC "set" counters.
#   outside: writes (opens for writing, mkdir, symlink, rename, unlink)
#     outside ROOT, /dev/null, /proc/self and pipes aside, and those of
#     the simulator in SIM_DIR (its state files). What is made on a file
#     system mounted nowhere (fsmount: the modules view, which lives in
#     memory) is no write of the host's either; strace names that mount's
#     root "/", so its descriptors are told from fsmount's return value.
noop_counts() {
	awk -v root="$2" -v sim="${3:-}" '
	function hex(s,   i, n) {	# "0x1a" or "1a" -> 26 (mawk has no strtonum)
		sub(/^0x/, "", s); n = 0
		for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
		return n
	}
	function under(p) { return p == root || index(p, root "/") == 1 }
	function ignored(p) {
		return p == "/dev/null" || p ~ /^\/proc\// || p == "" || p ~ /^\/\/detached\// ||
			(sim != "" && index(p, sim "/") == 1)
	}
	# the path of a dirfd argument "N</path>" or AT_FDCWD</cwd>, joined to NAME
	function join(dirarg, name,   d, fdn) {
		if (substr(name, 1, 1) == "/" && dirarg !~ /RESOLVE_IN_ROOT/) return name
		fdn = dirarg; sub(/<.*/, "", fdn)
		if ((pid, fdn) in detached) return "//detached/" name
		d = dirarg; sub(/^[^<]*</, "", d); sub(/>.*$/, "", d)
		return d "/" name
	}
	function quoted(s, n,   i, out, rest) {	# the n-th quoted string in s
		rest = s
		for (i = 1; i <= n; i++) {
			if (!match(rest, /"([^"\\]|\\.)*"/)) return ""
			out = substr(rest, RSTART + 1, RLENGTH - 2)
			rest = substr(rest, RSTART + RLENGTH)
		}
		return out
	}
	function outside(p) { if (!under(p) && !ignored(p)) out++ }
	function is_lock(p) { return p == root "/run/halo-provision.lock" }
	{ pid = $1 }
	/ = -1 / || / <unfinished / || / resumed>/ && / = -1/ { next }
	/ socket\(AF_NETLINK/ {
		fd = $NF; sub(/<.*/, "", fd); proto = ($0 ~ /NETLINK_ROUTE/) ? "route" : ($0 ~ /NETLINK_GENERIC/) ? "genl" : "other"
		nl[pid, fd] = proto; next
	}
	/ fsmount\(/ { fd = $NF; sub(/<.*/, "", fd); detached[pid, fd] = 1; next }
	/ close\(/ {
		f = $0; sub(/.*close\(/, "", f); sub(/[<)].*/, "", f)
		delete nl[pid, f]; delete detached[pid, f]; next
	}
	/ (sendto|sendmsg)\(/ {
		f = $0; sub(/.*(sendto|sendmsg)\(/, "", f); sub(/[<,].*/, "", f)
		if (!((pid, f) in nl)) next
		rest = $0
		while (match(rest, /nlmsg_type=[^,]*, nlmsg_flags=/)) {
			t = substr(rest, RSTART + 11, RLENGTH - 25); rest = substr(rest, RSTART + RLENGTH)
			sub(/ .*/, "", t)
			type = (t ~ /^0x/) ? hex(t) : -1
			if (nl[pid, f] == "route") {
				if (type >= 16 && (type - 16) % 4 != 2) mut++
				else if (type < 0 && t !~ /^RTM_GET/) mut++
			} else if (nl[pid, f] == "genl") {
				if (type == 16) {
					# the genlmsghdr is the first byte of the payload
					if (match(rest, /\}, "\\x[0-9a-f][0-9a-f]/)) {
						c = hex(substr(rest, RSTART + 6, 2))
						if (c != 3) mut++
					}
				} else mut++
			}
		}
		next
	}
	/ (open|openat|openat2|creat)\(/ {
		if ($0 !~ /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC/ && $0 !~ / creat\(/) next
		p = $NF; if (p !~ /</) next
		sub(/^[0-9]+</, "", p); sub(/>$/, "", p)
		if (under(p)) { if (is_lock(p)) lock++; else w++ }
		else outside(p)
		next
	}
	/ (rename|renameat|renameat2)\(/ {
		a = $0; sub(/^[0-9]+ +[a-z0-9]+\(/, "", a)
		if ($0 ~ / rename\(/) { p1 = quoted(a, 1); p2 = quoted(a, 2) }
		else { split(a, parts, ", "); p1 = join(parts[1], quoted(a, 1)); p2 = join(parts[3], quoted(a, 2)) }
		if (under(p1) || under(p2)) ren++; else outside(p1)
		next
	}
	/ (unlink|unlinkat|rmdir|mkdir|mkdirat|symlinkat|symlink|link|linkat)\(/ {
		call = $2; sub(/\(.*/, "", call)
		a = $0; sub(/^[0-9]+ +[a-z0-9]+\(/, "", a)
		if (call == "unlink" || call == "rmdir" || call == "mkdir") p = quoted(a, 1)
		else if (call == "symlink" || call == "link") p = quoted(a, 2)
		else if (call == "symlinkat") { split(a, parts, ", "); p = join(parts[2], quoted(a, 2)) }
		else if (call == "linkat") { split(a, parts, ", "); p = join(parts[3], quoted(a, 2)) }
		else { split(a, parts, ", "); p = join(parts[1], quoted(a, 1)) }
		if (!under(p)) { outside(p); next }
		if (is_lock(p)) lock++
		else if (call ~ /^unlink|^rmdir/) unl++
		else if (call ~ /^mkdir/) mk++
		else w++
		next
	}
	END { printf "%d %d %d %d %d %d %d\n", w, ren, unl, mk, mut, lock, out }
	' "$1"
}

# strace_apply LOG CMD...: runs CMD under strace for noop_counts.
strace_apply() {
	local log=$1
	shift
	strace -f -qq -yy -s 64 -e signal=none -o "$log" \
		-e trace=socket,fsmount,close,open,openat,openat2,creat,rename,renameat,renameat2,unlink,unlinkat,rmdir,mkdir,mkdirat,symlink,symlinkat,link,linkat,sendto,sendmsg \
		"$@" >/dev/null 2>&1
}

# nicsim_sets: mutating requests the simulated NICs answered so far.
nicsim_sets() {
	jq -s '[.[].requests.set // 0] | add' "$BOX"/nicsim/*.json
}

# halo_traced LOG STRACE-OPTION... -- ARGS...: halo ARGS under strace
# (the environment of halo() passed with -E: strace runs the tool itself,
# no shell or env is traced), the trace in LOG.
halo_traced() {
	local log=$1 opts=()
	shift
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	strace -f -qq -o "$log" "${opts[@]}" \
		-E NICSIM_DEFER_GETS=drop -E NICSIM_STATE="$BOX/nicsim" -E NICSIM_CONFIG="$BOX/nicsim.conf" \
		-E HALO_TRAP_ROOT="$R" -E HALO_TRAP_LOG="$BOX/trap.log" -E LD_PRELOAD="$NICSIM_SO $TRAP_SO" \
		"$HALO" --root "$R" --netns "$NS" --kernel-release "$REL" "$@" >/dev/null 2>&1
}

# syscall_counts LOG: "ALL SIM" of one --check: every system call of the
# process (strace -c -f), and of those the simulated NIC's own, told by
# the stack of each call (strace -k): the first frame outside libc, the
# loader and the module trap (which passes calls through) is the
# simulator's, and not one of the calls it intercepts and passes on for
# the tool (socket, close, send*, recv*, poll; setsockopt, setns and
# unshare, which it only follows).
syscall_counts() {
	local log=$1 all
	halo_traced "$log.c" -c -- --check -q
	all=$(awk '$NF == "total" { print $4 }' "$log.c")
	halo_traced "$log" -k -- --check -q
	awk -v all="$all" '
	function decide() { if (call) sim += (first ~ /nicsim/ && fn !~ /^(socket|close|send|sendto|sendmsg|recv|recvfrom|recvmsg|poll|setsockopt|setns|unshare)$/) }
	/^[0-9]+ / { decide(); call = 1; first = ""; fn = ""; next }
	/^ > / {
		if (first != "") next
		obj = $2; sub(/\(.*/, "", obj)
		if (obj ~ /\/(libc\.so|ld-linux)[^\/]*$/ || obj ~ /halo-kmod-trap/) next
		first = obj; fn = $2; sub(/^[^(]*\(/, "", fn); sub(/[+)].*/, "", fn)
	}
	END { decide(); printf "%d %d\n", all, sim }' "$log"
}

# gid_tables ROOT N_IRDMA N_MLX5: the node's two GID tables made N_IRDMA and
# N_MLX5 entries long, the entries added (or removed) past the used ones
# empty (all zeros). A driver's sysfs lists every entry of its table
# (drivers/infiniband/core/sysfs.c, one attribute per index below
# gid_tbl_len): irdma's is 32 (irdma_query_port), mlx5's the firmware's
# roce_address_table_size (mlx5_query_port_roce), 256 or so; the
# sandbox's are 8. Past the used entries a check reads none: its scan
# stops at the address's entry.
gid_tables() {
	local ib n port i
	for ib in rocep194s0f0:$2 rocep65s0f0:$3; do
		n=${ib#*:}
		port=$1/sys/class/infiniband/${ib%:*}/ports/1
		[ -d "$port/gids" ] || return 1
		for ((i = 0; ; i++)); do
			if [ "$i" -lt "$n" ]; then
				[ -e "$port/gids/$i" ] ||
					echo 0000:0000:0000:0000:0000:0000:0000:0000 >"$port/gids/$i" || return 1
			elif [ -e "$port/gids/$i" ]; then
				[ ! -e "$port/gid_attrs/types/$i" ] || return 1
				rm -f "$port/gids/$i"
			else
				break
			fi
		done
	done
}

# pad_node_modules MODDIR KIND: the node's named modules (and their
# dependencies) in the tree at MODDIR brought to about the size a
# distribution kernel ships them (mlx5_core 2.8 MB, ice 1.4 MB, ...,
# uncompressed): the fixture's are a few KiB, which hides what decoding a
# real module costs. The padding is a section of machine code (libc's and
# libstdc++'s, which apt needs), so it compresses as a module's .text does; the
# file is compressed again as KIND (ko: left plain) as modules_install
# does. The index is unchanged: the files keep their names.
pad_node_modules() {
	local moddir=$1 kind=$2 f m kb tmp
	local -A kib=([ice]=1400 [ice-helper]=40 [irdma]=900 [ib_core]=700 [ib_uverbs]=250
		[rdma_cm]=300 [rdma_ucm]=80 [mlx5_core]=2800 [mlx5_ib]=1000)
	local ext=.ko
	[ "$kind" = ko ] || ext=.ko.$kind
	tmp=$(mktemp -d) || return 1
	cat /lib/x86_64-linux-gnu/libc.so.6 /usr/lib/x86_64-linux-gnu/libstdc++.so.6 |
		head -c $((2800 * 1024)) >"$tmp/code"
	[ "$(stat -c %s "$tmp/code")" = $((2800 * 1024)) ] || return 1
	for m in "${!kib[@]}"; do
		f=$(find "$moddir/kernel" -name "$m$ext" -print -quit)
		[ -n "$f" ] || continue
		case $kind in
		ko) cp "$f" "$tmp/m.ko" ;;
		zst) zstd -q -d -c "$f" >"$tmp/m.ko" ;;
		xz) xz -d -c "$f" >"$tmp/m.ko" ;;
		esac || return 1
		head -c $((kib[$m] * 1024)) "$tmp/code" >"$tmp/pad"
		objcopy --add-section .text.pad="$tmp/pad" --set-section-flags .text.pad=alloc,code \
			"$tmp/m.ko" "$tmp/padded.ko" || return 1
		case $kind in
		ko) cp "$tmp/padded.ko" "$f" ;;
		zst) zstd -q -f -c "$tmp/padded.ko" >"$f" ;;
		xz) xz -c --check=crc32 --lzma2=dict=1MiB "$tmp/padded.ko" >"$f" ;;
		esac || return 1
	done
	rm -rf "$tmp"
}
