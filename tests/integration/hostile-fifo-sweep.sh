#!/bin/bash
# hostile-fifo-sweep.sh: every file a full apply reads, replaced in turn by
# a FIFO, on a Debian and a Fedora sandbox root; then every file a --check
# reads on the root that apply converged (the state file, the boot edits'
# record, the owned files). The list is taken from an strace of the apply
# itself (every openat or openat2 inside the root that opened a file to
# read it), so a file a later version reads is swept without touching
# this script. Each run must end (no hang: a 20 s timeout), name
# the planted path and say what it is ("PATH: a FIFO, not a regular
# file"), and never change a file under the root when it stops before
# any change (exit 1 or an operational 4).
source "$top_srcdir/tests/lib/tap.sh"
command -v strace >/dev/null || { echo "1..0 # SKIP strace is not installed"; exit 0; }

conf_for() {	# conf_for KIND: the apply's config, inside the root
	cat <<'CONF'
version = 1;
boot = { loader = "auto"; iommu = "pt"; gtt_mib = "auto"; pcie_aspm = "off";
  regenerate = false; };
access = { gpu_group = "render"; memlock = "unlimited"; };
sysctl = { settings = [ "net.core.rmem_max=268435456" ]; };
state = { path = "/var/lib/halo-provision/state.json";
  prometheus = "/var/lib/node_exporter/halo.prom"; };
CONF
}

# base KIND DIR: the sandbox root with the files the config reads.
base() {
	"$top_srcdir/sandbox/mkroot.sh" "$1" "$2"
	mkdir -p "$2/proc/sys/net/core" "$2/var/lib/node_exporter"
	echo 212992 >"$2/proc/sys/net/core/rmem_max"
	conf_for "$1" | install -m 0600 /dev/stdin "$2/etc/halo-provision/halo.conf"
}

# run ROOT [ARGS...]: a run as the sandbox does it; sets out (stdout and
# stderr) and rc. ASan's leak check cannot run under strace or timeout's
# signal: off.
run() {
	local root=$1
	shift
	out=$(ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" \
		timeout -k 2 20 "$HALO" --root "$root" "$@" 2>&1)
	rc=$?
}

# read_paths TRACE ROOT: the files inside ROOT the traced run opened to
# read (not O_PATH, not a directory, not for writing), as paths inside
# the root, each once.
read_paths() {
	grep -E ' openat2?\(' "$1" | grep -vE 'O_PATH|O_DIRECTORY|O_WRONLY|O_RDWR|O_CREAT' |
		grep -oE "= [0-9]+<$2/[^>]*>\$" | sed -E "s|^= [0-9]+<$2||; s|>\$||" | sort -u
}

# Changes a stopped run (or a check) must not make: everything but the
# lock and the textfile (a check rewrites it by design).
snapshot() { tree_snapshot "$1" | grep -vE '/run/halo-provision\.lock$|/halo\.prom$'; }

# sweep KIND MODE REF: traces MODE ("" for apply, --check) on a copy of
# REF, then plants a FIFO at each file it read, one run each.
sweep() {
	local kind=$1 mode=$2 ref=$3 name="$1 ${2:-apply}" p root traced_rc
	local trace=$TEST_TMP/trace traced=$TEST_TMP/traced
	rm -rf "$traced"
	cp -a "$ref" "$traced"
	ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" \
		strace -f -qq -y -o "$trace" -e trace=openat,openat2 \
		"$HALO" --root "$traced" $mode >/dev/null 2>&1
	traced_rc=$?
	like "$traced_rc" '^(0|2|8|10)$' "$name: the traced run works ($traced_rc)"
	mapfile -t paths < <(read_paths "$trace" "$traced")
	ok $(( ${#paths[@]} < 10 )) "$name: the trace lists the files it reads (${#paths[@]})"
	for p in "${paths[@]}"; do
		root=${TEST_TMP:?}/fifo
		rm -rf "${root:?}"
		cp -a "$ref" "$root"
		rm -f "$root$p"
		mkdir -p "$(dirname "$root$p")"
		mkfifo "$root$p"
		before=$(snapshot "$root")
		run "$root" $mode
		if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
			ok 1 "$name: FIFO at $p: the run ended (it hung)"
			continue
		fi
		# Named inside the root as the operator finds it.
		grep -qF "$root$p: a FIFO, not a regular file" <<<"$out"
		ok $? "$name: FIFO at $p: named ($(printf '%s' "$out" | grep -F -m1 "$p" || printf '%s' "$out" | tail -1))"
		if [ "$rc" = 1 ] || [ -n "$mode" ]; then
			is "$(snapshot "$root")" "$before" "$name: FIFO at $p: nothing changed (exit $rc)"
		fi
	done
}

for kind in debian fedora; do
	ref=$TEST_TMP/$kind.ref
	base "$kind" "$ref"
	sweep "$kind" "" "$ref"
	for p in /etc/os-release /etc/group /etc/default/grub /proc/meminfo /proc/cmdline \
		/etc/halo-provision/halo.conf /sys/class/drm/card1/device/uevent; do
		printf '%s\n' "${paths[@]}" | grep -qxF "$p"
		ok $? "$kind apply: $p is among the files swept"
	done
	run "$ref"
	like "$rc" '^(2|10)$' "$kind: the reference root converged for the check ($rc)"
	sweep "$kind" --check "$ref"
	for p in /var/lib/halo-provision/state.json /etc/udev/rules.d/70-halo-access.rules; do
		printf '%s\n' "${paths[@]}" | grep -qxF "$p"
		ok $? "$kind --check: $p is among the files swept"
	done
done
done_testing
