# tests/lib/confine.sh: the root-confinement harness's shared parts
# (sourced by tests/integration/confinement.sh, links-root-confined.sh and
# bench/confinement.sh; needs $HALO). Plant a symlink (absolute and
# relative, to a file and to a directory outside the root), a FIFO, a
# character device and a 2 GiB sparse file at the paths an apply reads or
# writes, and prove that nothing outside the root is read or written.
#
# How "nothing outside" is decided: the run is traced with
# `strace -f -y -e trace=%file,openat2`. -y makes strace print, for every
# descriptor argument and every descriptor returned, the path the kernel
# resolved it to (/proc/PID/fd). A run stays inside when
#  - every openat2 is relative to the root's descriptor with
#    RESOLVE_IN_ROOT (the kernel clamps every "..", absolute or relative
#    symlink target at the root);
#  - every descriptor strace shows resolves under the root, or to one of
#    the few host files a process needs before it knows the root (the
#    loader's libraries, /etc/ld.so.cache, /dev/null, /run/netns/NAME);
#  - every absolute path given to a syscall without a directory descriptor
#    is one of those, the root itself or /proc/self/fd/N (access() on a
#    descriptor already inside);
#  - nothing outside the root that the plants point at changed (content,
#    mtime, entries).

CONFINE_KR=6.1.0-test

# confine_make_root DIR: a node whose apply writes many files in many new
# directories: boot on plain GRUB (and its edit record), the access udev
# rule, memlock (limits.d and both systemd managers), sysctl (drop-in and
# the runtime value), the nftables table of the one interface, the RCCL
# env file from a fixture RDMA device and its rdma_cm configfs, the state
# file and the Prometheus textfile. The interface's link is expected to
# be in sync already (confine_netns).
confine_make_root() {
	local R=$1 i
	local pci=sys/devices/pci0000:00/0000:c2:00.0
	local ib=$pci/infiniband/rocep194s0f0
	local port=$R/$ib/ports/1 cm=$R/sys/kernel/config/rdma_cm/rocep194s0f0/ports/1
	mkdir -p "$R/etc/halo-provision" "$R/etc/default" "$R/proc/sys/vm" "$R/run" \
		"$R/sys/class/net" "$R/usr/sbin" "$R/sys/class/infiniband" "$R/sys/module" \
		"$R/$pci/net/eth-a" "$R/sys/bus/pci/drivers/ice" "$port/gids" \
		"$port/gid_attrs/types" "$port/gid_attrs/ndevs" "$cm"
	printf 'GRUB_CMDLINE_LINUX_DEFAULT="quiet"\n' >"$R/etc/default/grub"
	echo 60 >"$R/proc/sys/vm/swappiness"
	printf 'root:x:0:\nvideo:x:44:\nrender:x:105:\nrdma:x:990:\n' >"$R/etc/group"
	: >"$R/usr/sbin/nft"
	ln -s ../../../0000:c2:00.0 "$R/$pci/net/eth-a/device"
	ln -s ../../../bus/pci/drivers/ice "$R/$pci/driver"
	ln -s ../../devices/pci0000:00/0000:c2:00.0/net/eth-a "$R/sys/class/net/eth-a"
	echo "1: CA" >"$R/$ib/node_type"
	echo "4: ACTIVE" >"$port/state"
	echo "5: LinkUp" >"$port/phys_state"
	echo Ethernet >"$port/link_layer"
	ln -s ../../devices/pci0000:00/0000:c2:00.0/infiniband/rocep194s0f0 \
		"$R/sys/class/infiniband/rocep194s0f0"
	for i in 0 1 2 3 4 5 6 7; do
		echo 0000:0000:0000:0000:0000:0000:0000:0000 >"$port/gids/$i"
		: >"$port/gid_attrs/types/$i"
		: >"$port/gid_attrs/ndevs/$i"
	done
	echo fe80:0000:0000:0000:b696:91ff:feaa:bb01 >"$port/gids/0"
	echo 0000:0000:0000:0000:0000:ffff:c0a8:6401 >"$port/gids/1"
	for i in 0 1; do
		echo "RoCE v2" >"$port/gid_attrs/types/$i"
		echo eth-a >"$port/gid_attrs/ndevs/$i"
	done
	echo 0 >"$cm/default_roce_tos"
	echo "IB/RoCE v1" >"$cm/default_roce_mode"
	install -m 0600 /dev/stdin "$R/etc/halo-provision/halo.conf" <<'CONF'
version = 1;
boot = { loader = "grub"; iommu = "pt"; regenerate = false; };
interfaces = ( { name = "rdma0"; match = { pci = "0000:c2:00.0"; }; mtu = 9000;
    addresses = [ "192.168.100.1/30" ]; roce = { tos = 106; }; } );
access = { memlock = "unlimited"; rdma_group = "rdma"; gpu_group = "render"; };
sysctl = { settings = [ "vm.swappiness = 10" ]; };
firewall = { backend = "nftables"; trusted_interfaces = true; allow_udp = [ 4791 ]; };
state = { path = "/var/lib/halo-provision/state.json";
          env_file = "/etc/halo-provision/rccl.env";
          prometheus = "/var/lib/node_exporter/halo.prom"; };
CONF
}

# confine_netns NS: eth-a in namespace NS as the config wants it (so the
# trials exercise files, not netlink).
confine_netns() {
	ip -n "$1" link add eth-a type veth peer name eth-b &&
	ip -n "$1" addr add 192.168.100.1/30 dev eth-a &&
	ip -n "$1" link set eth-a mtu 9000 up
}

# confine_run NS ROOT TRACE [ARGS...]: one traced run (timeout 10 s);
# stderr to TRACE.err; returns the exit status (124: it hung).
confine_run() {
	local ns=$1 root=$2 trace=$3
	shift 3
	# LeakSanitizer's exit check uses ptrace, which fails under strace.
	ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" \
	timeout -k 2 10 strace -f -qq -y -o "$trace" -e trace=%file,openat2 \
		"$HALO" --root "$root" --netns "$ns" --kernel-release "$CONFINE_KR" -q "$@" \
		>"$trace.err" 2>&1
}

# confine_paths TRACE ROOT: "KIND PATH" for every path inside the root the
# traced run looked up, read or wrote (PATH as seen inside the root), each
# once, and every directory on the way ("d"). KIND: w written (opened for
# writing or creation, renamed onto, removed, made), r read (opened to
# read), l looked up only (O_PATH), d a directory on the way.
confine_paths() {
	local trace=$1 root=$2
	awk -v root="$root" '
	function norm(p) { gsub(/\/+/, "/", p); sub(/\/$/, "", p); return p }
	function add(k, p) {
		p = norm(p)
		if (p == "" || p == "/") return
		# w beats r beats l
		if (!(p in kind) || k == "w" || (k == "r" && kind[p] == "l")) kind[p] = k
	}
	function dirof(s) { # "<ROOT/x>" -> "/x" or "" if not in root
		if (index(s, "<" root) != 1) return "-"
		s = substr(s, length(root) + 2); sub(/>.*/, "", s); return s
	}
	/ openat2\(/ {
		if (!match($0, /openat2\([0-9]+<[^>]*>, "[^"]*"/)) next
		s = substr($0, RSTART, RLENGTH); p = s; sub(/^[^"]*"/, "", p); sub(/"$/, "", p)
		k = "l"
		if ($0 ~ /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC/) k = "w"
		else if ($0 !~ /O_PATH|O_DIRECTORY/) k = "r"
		add(k, p); next
	}
	# A file judged on an O_PATH descriptor, then reopened through it to
	# be written (the run lock, a kernel attribute): the write is of the
	# file the new descriptor names.
	/"\/proc\/self\/fd\/[0-9]+", O_(WRONLY|RDWR)/ {
		if (!match($0, /= [0-9]+<[^>]*>$/)) next
		d = substr($0, RSTART + 2); sub(/^[0-9]+/, "", d); d = dirof(d)
		if (d != "-") add("w", d)
		next
	}
	/ (renameat2?|unlinkat|mkdirat)\(/ {
		line = $0
		while (match(line, /[0-9]+<[^>]*>, "[^"]*"/)) {
			s = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
			d = s; sub(/^[0-9]+/, "", d); d = dirof(d)
			if (d == "-") continue
			n = s; sub(/^[^"]*"/, "", n); sub(/"$/, "", n)
			if (n ~ /^\.#/) continue   # temp files are names of a run, not paths
			add("w", d "/" n)
		}
	}
	END {
		for (p in kind) {
			q = p
			while (sub(/\/[^\/]*$/, "", q) && q != "")
				if (!(q in kind)) kind[q] = "d"
		}
		for (p in kind) print kind[p], p
	}' "$trace" | sort -k2
}

# confine_trace_check TRACE ROOT OUT: prints why the traced run left the
# root (see the top of this file), nothing when it stayed inside. The
# run's own stdout and stderr (TRACE.err) are the test's, not a path.
confine_trace_check() {
	local trace=$1 root=$2 out=$3 bad
	local ok_abs='^(/$|/etc/ld\.so\.(cache|preload)$|/(usr/)?lib(64|32|x32)?/|/proc/self/fd/[0-9]+$|/run/netns/|/dev/null$)'
	# A sanitizer build's runtime reads the process's own /proc files
	# (maps, cmdline, exe, ...) at start and at exit; it is not the tool.
	[ -n "${HALO_SANITIZER_CFLAGS:-}" ] &&
		ok_abs="${ok_abs%)}|/proc/(self|[0-9]+)/[a-z_]+$)"
	if grep -qF "<$out" "$trace"; then
		echo "a descriptor resolved outside: $(grep -F "<$out" "$trace" | head -1)"
		return
	fi
	bad=$(grep ' openat2(' "$trace" | grep -v "openat2([0-9]*<$root>, .*RESOLVE_IN_ROOT" | head -1)
	if [ -n "$bad" ]; then
		echo "an openat2 not confined to the root: $bad"
		return
	fi
	# Every descriptor strace names (not the cwd after AT_FDCWD).
	bad=$(sed 's/AT_FDCWD<[^>]*>//g' "$trace" | grep -oE '[0-9]+</[^>]*>' | sed 's/^[0-9]*<//; s/>$//' |
		sort -u | grep -vxF -e "$root" -e "$trace.err" | grep -vF "$root/" | grep -vE "$ok_abs" | head -1)
	if [ -n "$bad" ]; then
		echo "a descriptor resolved outside the root: $bad"
		return
	fi
	# Absolute paths handed to the kernel without a directory descriptor.
	bad=$(grep -E '(AT_FDCWD<[^>]*>, |^[0-9]+ +[a-z0-9_]+\()"/' "$trace" | grep -v ' execve(' |
		sed -E 's/^[0-9]+ +[a-z0-9_]+\((AT_FDCWD<[^>]*>, )?"//; s/".*//' | sort -u |
		grep -vxF "$root" | grep -vE "$ok_abs" | head -1)
	[ -n "$bad" ] && echo "a host path opened: $bad"
}

# confine_opened_outside TRACE ROOT NS: every file the run traced in
# TRACE (`strace -f -y -e trace=open,openat,openat2`) opened outside ROOT,
# one a line, but for what a process opens before it knows the root: the
# loader's shared libraries and its cache, /proc/self/..., /dev/null, and
# /run/netns/NS, the namespace --netns names. Nothing when it stayed in.
confine_opened_outside() {
	local trace=$1 root=$2 ns=$3
	local ok='^(/etc/ld\.so\.cache|/(usr/)?lib(64|32|x32)?/.*\.so[.0-9]*|/proc/self/.*|/dev/null)$'
	[ -n "${HALO_SANITIZER_CFLAGS:-}" ] && ok="${ok%)\$}|/proc/[0-9]+/[a-z_]+)\$"
	# The path each successful open returned a descriptor for (-y).
	grep -E ' (open|openat|openat2)\(' "$trace" | grep -oE '= [0-9]+<[^>]*>$' |
		sed -E 's/^= [0-9]+<//; s/>$//' | sort -u |
		grep -vxF -e "$root" -e "/run/netns/$ns" | grep -vF "$root/" | grep -vE "$ok"
	# And every absolute path asked for, opened or not.
	grep -E ' (open|openat|openat2)\((AT_FDCWD<[^>]*>, )?"/' "$trace" |
		sed -E 's/^[0-9]+ +[a-z0-9]+\((AT_FDCWD<[^>]*>, )?"//; s/".*//' | sort -u |
		grep -vxF -e "$root" -e "/run/netns/$ns" | grep -vF "$root/" | grep -vE "$ok"
}

# confine_outside_sum OUT: content, mode, mtime and entries of the outside
# targets (equal before and after: nothing outside was written).
confine_outside_sum() {
	(cd "$1" && find . -printf '%p %y %m %s %T@\n' | sort && find . -type f -print0 | sort -z |
		xargs -0 -r sha256sum)
}

# confine_managed ROOT: "SHA256  PATH" of the files an apply writes (the
# state file and the textfile hold times; the lock is not content).
confine_managed() {
	(cd "$1" && find etc var proc/sys sys/kernel/config run -type f ! -name state.json \
		! -name '*.prom' ! -name halo-provision.lock -print0 2>/dev/null |
		sort -z | xargs -0 -r sha256sum)
}

# confine_plant ROOT PATH PLANT OUT: replaces ROOT/PATH (creating its
# parents) by PLANT: abs-file, rel-file, abs-dir, rel-dir (symlinks to
# OUT/passwd or OUT/dir; the relative ones climb 24 levels, far above the
# host's /), fifo, device (char 1:3, like /dev/null), huge (2 GiB sparse).
confine_plant() {
	local root=$1 path=$2 plant=$3 out=$4 up
	up=$(printf '../%.0s' $(seq 24))
	rm -rf "${root:?}$path"
	mkdir -p "$(dirname "$root$path")"
	case $plant in
	abs-file) ln -s "$out/passwd" "$root$path" ;;
	rel-file) ln -s "$up${out#/}/passwd" "$root$path" ;;
	abs-dir) ln -s "$out/dir" "$root$path" ;;
	rel-dir) ln -s "$up${out#/}/dir" "$root$path" ;;
	fifo) mkfifo "$root$path" ;;
	device) mknod "$root$path" c 1 3 ;;
	huge) truncate -s 2G "$root$path" ;;
	*) return 1 ;;
	esac
}

# confine_trial NS ROOT0 WANT PATH PLANT [ARGS...]: PLANT at PATH of a copy
# of ROOT0, one traced run (apply, or ARGS such as --check), then:
#  - no hang (10 s), no crash (a signal);
#  - the trace stays inside the root, the outside targets unchanged;
#  - either the run failed (exit 1, or bit 4) with a line naming PATH (or
#    a path below it), or it succeeded leaving the plant as it was (a
#    symlink a read followed inside the root, found nothing, and nothing
#    was written through it);
#  - the plant removed and PATH as in ROOT0, an apply converges to WANT.
# Sets CONFINE_VERDICT (refused, harmless, or replaced: a huge regular
# file at an output, atomically replaced); prints why and returns 1
# when an invariant broke.
confine_trial() {
	local ns=$1 root0=$2 want=$3 path=$4 plant=$5 work rc why="" before after sig
	shift 5
	work=$(mktemp -d "${TMPDIR:-/tmp}/halo-confine.XXXXXX")
	local root=$work/root out=$work/outside
	mkdir -p "$out/dir"
	echo "outside secret" >"$out/passwd"
	echo "outside file" >"$out/dir/file"
	cp -a "$root0" "$root"
	confine_plant "$root" "$path" "$plant" "$out"
	sig=$(stat -c '%F %t:%T %s' "$root$path"; readlink "$root$path")
	before=$(confine_outside_sum "$out")
	confine_run "$ns" "$root" "$work/trace" "$@"
	rc=$?
	after=$(confine_outside_sum "$out")
	CONFINE_VERDICT=refused
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		why="hung (killed after 10 s)"
	elif [ "$rc" -ge 128 ]; then
		why="exit $rc (a signal): $(head -1 "$work/trace.err")"
	elif [ "$before" != "$after" ]; then
		why="the outside target changed"
	else
		why=$(confine_trace_check "$work/trace" "$root" "$out")
	fi
	if [ -z "$why" ]; then
		if [ "$rc" = 1 ] || [ $((rc & 4)) = 4 ]; then
			grep -qF -- "$path" "$work/trace.err" ||
				why="exit $rc without naming $path: $(head -1 "$work/trace.err")"
		elif [ "$sig" = "$(stat -c '%F %t:%T %s' "$root$path"; readlink "$root$path")" ]; then
			CONFINE_VERDICT=harmless
		elif [ "$plant" = huge ] && [ -f "$root$path" ] && [ ! -L "$root$path" ]; then
			CONFINE_VERDICT=replaced # a regular file at an output: replacing it is the job
		else
			why="exit $rc, and the plant was replaced"
		fi
	fi
	if [ -z "$why" ]; then
		rm -rf "${root:?}$path"
		[ -e "$root0$path" ] || [ -L "$root0$path" ] && cp -a "$root0$path" "$root$path"
		timeout -k 2 10 "$HALO" --root "$root" --netns "$ns" --kernel-release "$CONFINE_KR" \
			--wait 0 -q >/dev/null 2>"$work/err2"
		rc=$?
		if [ "$rc" = 1 ] || [ $((rc & 4)) = 4 ] || [ "$rc" -ge 16 ]; then
			why="the rerun exited $rc: $(head -1 "$work/err2")"
		elif [ "$(confine_managed "$root")" != "$want" ]; then
			why="the rerun did not converge: $(diff <(confine_managed "$root") <(echo "$want") | head -2 | tr '\n' ' ')"
		fi
	fi
	rm -rf "$work"
	[ -z "$why" ] && return 0
	echo "$plant at $path${*:+ ($*)}: $why"
	return 1
}

# confine_unchroot TRACE ROOT: when the tests run in a chroot, a process
# that made a mount namespace of its own (the libkmod command line bind)
# has its descriptors shown by strace from the namespace's root, the
# chroot's own path before ROOT; that prefix is taken out of TRACE, so
# paths inside ROOT read as ROOT's. Outside a chroot it changes nothing.
confine_unchroot() {
	local re prefix
	re=$(printf '%s' "$2" | sed 's/[][\\.*^$|+?(){}]/\\&/g')
	prefix=$(grep -oE "[<\"](/[^<>\" ]*)$re[/>\"]" "$1" | sed -E "s|^[<\"]||; s|$re[/>\"]\$||" |
		grep -v '^$' | head -1)
	[ -n "$prefix" ] || return 0
	sed -i "s|$(printf '%s' "$prefix" | sed 's/[][\\.*^$|]/\\&/g')$re|$2|g" "$1"
}

# confine_cmdline_shadow TRACE SOURCE: under --root, libkmod reads the
# absolute /proc/cmdline while the root's file (or /dev/null, when the
# root has none) is bound over it (src/modules/kmod-cmdline.c). Prints
# each bind mount over /proc/cmdline from anything but SOURCE, and each
# open of /proc/cmdline (not through the root's descriptor) made while
# none is there; nothing when every read saw SOURCE. TRACE: `strace -f
# -y -e trace=%file` (openat2, mount and umount2 included).
confine_cmdline_shadow() {
	awk -v want="$2" '
	/ openat2\(/ && match($0, /= [0-9]+<[^>]*>$/) {
		s = substr($0, RSTART + 2, RLENGTH - 3)
		n = s; sub(/<.*/, "", n); p = s; sub(/^[0-9]+</, "", p)
		fdpath[n] = p
		next
	}
	/ mount\("[^"]*", "\/proc\/cmdline"/ {
		match($0, /mount\("[^"]*"/); src = substr($0, RSTART + 7, RLENGTH - 8)
		got = src
		if (src ~ /^\/proc\/self\/fd\/[0-9]+$/) { sub(/.*\//, "", src); got = fdpath[src] }
		if (got != want) print "mounted from " got ", not " want ": " $0
		shadowed = 1
		next
	}
	/ umount2\("\/proc\/cmdline"/ { shadowed = 0; next }
	/"\/proc\/cmdline"/ && !/ openat2\(/ && !shadowed { print "host command line opened: " $0 }
	' "$1"
}
