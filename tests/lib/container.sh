# tests/lib/container.sh: run a root directory under systemd-nspawn without
# registering it (sourced by tests/integration/units-boot.sh and
# ansible-install.sh after tests/lib/debian-deb.sh; needs TEST_TMP from
# tests/lib/tap.sh).
#
# --register=no: no systemd-machined, so no machinectl and no
# `systemd-run -M` ("Failed to connect to bus: Host is down"). What works
# instead: a unit inside the root that records what the test wants to
# know in a file and powers the container off (units-boot.sh does that),
# or `nsenter -t PID -a CMD` into the container's init, the only child of
# the systemd-nspawn process.
#
# Cgroups. On a host booted with systemd, systemd-nspawn asks it for a
# scope. On a host without (this build machine's init is another
# program), it is told to keep its own cgroup (--keep-unit), which it
# splits into "supervisor" and "payload"; the container's systemd builds
# its tree under "payload". That cgroup is one made for the run, under
# the caller's, in every hierarchy systemd uses (the unified one and, on a
# hybrid host, name=systemd), and removed afterwards: two containers never
# share one, and the host's own cgroups are left as they were.

# container_require TOOL...: a TAP skip (exit 0) unless the packaged
# binary can be booted here: the plain build's suite (tests/lib/
# debian-deb.sh says why), debootstrap, systemd-nspawn and each TOOL on
# PATH, and a cgroup hierarchy (a chroot with a bare /sys has none, and
# nspawn then stops with ENOMEDIUM).
container_require() {
	local reason tool
	if reason=$(deb_skip_reason); then
		echo "1..0 # SKIP $reason"
		exit 0
	fi
	for tool in debootstrap systemd-nspawn "$@"; do
		command -v "$tool" >/dev/null || {
			echo "1..0 # SKIP $tool not installed (./quickstart installs it)"
			exit 0
		}
	done
	case $(stat -f -c %T /sys/fs/cgroup 2>/dev/null) in
	cgroup2fs | tmpfs) ;;
	*)
		echo "1..0 # SKIP no cgroup hierarchy at /sys/fs/cgroup: systemd-nspawn cannot boot a container here"
		exit 0 ;;
	esac
}

# The cgroup directories of this process that systemd-nspawn works in:
# the unified hierarchy's (mounted on /sys/fs/cgroup, or on
# /sys/fs/cgroup/unified on a hybrid host) and name=systemd's, where
# mounted.
container_cgroup_dirs() {
	local line hier path dir
	while IFS= read -r line; do
		hier=${line#*:}
		path=${hier#*:}
		hier=${hier%%:*}
		case $hier in
		"") for dir in /sys/fs/cgroup/unified /sys/fs/cgroup; do
			[ "$(stat -fc %T "$dir" 2>/dev/null)" = cgroup2fs ] &&
				{ echo "$dir$path"; break; }
		    done ;;
		name=systemd)
			dir=/sys/fs/cgroup/systemd
			[ "$(stat -fc %T "$dir" 2>/dev/null)" = cgroupfs ] && echo "$dir$path" ;;
		esac
	done </proc/self/cgroup
}

# container_run LOG TIMEOUT NSPAWN_ARGS...: systemd-nspawn
# --register=no NSPAWN_ARGS... with its output in LOG; its exit status
# (124 when TIMEOUT seconds passed: it is then asked to halt the
# container, and killed 15 s later).
container_run() {
	local log=$1 timeout=$2 name cg dirs=() d rc
	shift 2
	name=halo-nspawn-$$-$RANDOM
	local args=(--register=no --quiet --machine="$name")
	if [ ! -d /run/systemd/system ]; then
		args+=(--keep-unit)
		while IFS= read -r cg; do
			mkdir "$cg/$name" || return 1
			dirs+=("$cg/$name")
		done < <(container_cgroup_dirs)
	fi
	# A subshell moves itself into the new cgroups, then becomes
	# systemd-nspawn (under timeout).
	(
		for d in "${dirs[@]}"; do
			echo "$BASHPID" >"$d/cgroup.procs" || exit 125
		done
		exec timeout -k 15 "$timeout" systemd-nspawn "${args[@]}" "$@"
	) </dev/null >"$log" 2>&1
	rc=$?
	# The container's cgroups are empty once it is gone; after a timeout
	# what is left of it is killed first (cgroup.kill: the unified
	# hierarchy's, the whole subtree).
	for d in "${dirs[@]}"; do
		[ $rc -ne 0 ] && [ -f "$d/cgroup.kill" ] && echo 1 >"$d/cgroup.kill"
	done
	for d in "${dirs[@]}"; do
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			find "$d" -depth -type d -exec rmdir {} + 2>/dev/null
			[ -d "$d" ] || break
			sleep 0.2
		done
	done
	# systemd-nspawn leaves an empty directory for mount propagation on
	# a /run that is not a tmpfs; it is ours.
	rmdir "/run/systemd/nspawn/propagate/$name" 2>/dev/null
	return $rc
}
