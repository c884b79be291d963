# tests/lib/tap.sh: TAP helpers for integration tests (sourced by bash).
# Every test gets a private scratch directory, removed on exit, and its own
# network namespaces (unique names, deleted on exit). Nothing here touches
# the host's /etc, /boot, modules or network.
set -u

: "${HALO:?HALO must point at the halo-provision binary}"
: "${top_srcdir:?}"
: "${top_builddir:?}"

tap_n=0
tap_failed=0
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/halo-test.XXXXXX")
# Namespaces made by new_netns, one name a line. A file, not an array:
# new_netns runs in a command substitution (NS=$(new_netns x)), a subshell.
TEST_NETNS_LIST=$TEST_TMP/netns.list

tap_cleanup() {
	local ns
	if [ -f "$TEST_NETNS_LIST" ]; then
		while IFS= read -r ns; do
			ip netns del "$ns" 2>/dev/null
		done <"$TEST_NETNS_LIST"
	fi
	rm -rf "$TEST_TMP"
}
trap tap_cleanup EXIT

plan() { echo "1..$1"; }
diag() { printf '# %s\n' "$*"; }
ok() {	# ok COND_STATUS DESCRIPTION
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
}
is() {	# is GOT WANT DESCRIPTION
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "got:  '$1'"
		diag "want: '$2'"
	fi
}
# A REGEX without a newline matches any line of GOT (grep -E); one with a
# newline matches across lines (bash's =~: ^ and $ are the ends of GOT),
# since grep would take each of its lines as a pattern of its own.
like() { # like GOT REGEX DESCRIPTION
	local matched=1
	if [[ $2 == *$'\n'* ]]; then
		[[ $1 =~ $2 ]] && matched=0
	else
		printf '%s' "$1" | grep -Eq -- "$2" && matched=0
	fi
	if [ "$matched" = 0 ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "got:  '$1'"
		diag "want match: '$2'"
	fi
}
# unlike GOT REGEX DESCRIPTION: like's opposite (bash's =~ over all of GOT).
unlike() {
	if [[ $1 =~ $2 ]]; then
		ok 1 "$3"
		diag "got:  '$1'"
		diag "want no match: '$2'"
	else
		ok 0 "$3"
	fi
}
# A helper or program the script names but nobody defined would otherwise
# print to stderr and let the script go on: its assertion would silently
# never run. It fails the test instead, from a command substitution too.
command_not_found_handle() {
	printf '%s: %s: command not found\n' "${BASH_SOURCE[1]:-$0}" "$1" >&2
	: >"$TEST_TMP/command-not-found"
	return 127
}
done_testing() {
	if [ -e "$TEST_TMP/command-not-found" ]; then
		ok 1 "every command the script ran exists (see stderr)"
	fi
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# run_halo ARGS...: runs the binary, sets $out, $err, $rc (never aborts).
run_halo() {
	out=$("$HALO" "$@" 2>"$TEST_TMP/stderr")
	rc=$?
	err=$(cat "$TEST_TMP/stderr")
}

# libs_opened CMD...: the shared libraries the dynamic loader opens for one
# run, a name a line (LD_DEBUG=files prints "file=NAME [0];  needed by ..."
# and "dynamically loaded by ...").
libs_opened() {
	LD_DEBUG=files "$@" 2>&1 >/dev/null | sed -n 's/.*file=\([^ ]*\) .*/\1/p' | sort -u
}

# tree_snapshot DIR: a line per file with inode, mtime (ns), mode, size and
# checksum; two equal snapshots mean nothing was written. dev/ is left
# out: it holds the fixtures' file system images (an xfs one is 320 MB,
# sparse), and halo-provision never writes under dev/. The run lock is
# there or not, the same inode or not, but its time, size and content are
# left out: every run that holds it writes its holder record into it.
tree_snapshot() {
	(cd "$1" && find . -path ./proc -prune -o -path ./sys -prune -o -path ./dev -prune -o \
		\( -type f -o -type l \) -print0 | sort -z |
		xargs -0 -r stat -c '%i %.9Y %a %s %n' 2>/dev/null |
		sed 's|^\([0-9]*\) [0-9.]* \([0-7]*\) [0-9]* \./run/halo-provision\.lock$|\1 lock \2 ./run/halo-provision.lock|'
	 cd "$1" && find . -path ./proc -prune -o -path ./sys -prune -o -path ./dev -prune -o \
		-path ./run/halo-provision.lock -prune -o -type f -print0 | sort -z | xargs -0 -r sha256sum)
}

# new_netns PREFIX: creates a uniquely named namespace, echoes its name.
new_netns() {
	local name="halo-$1-$$-$RANDOM"
	ip netns add "$name" || return 1
	echo "$name" >>"$TEST_NETNS_LIST"
	ip -n "$name" link set lo up
	echo "$name"
}

# hold_lock ROOT: another "run" holds ROOT's run lock until release_lock.
# The holder marks when it has the lock (probing with flock ourselves could
# make the holder's own flock -n fail). -o: only flock itself holds the
# lock, so killing it releases the lock; its child records its pid.
hold_lock() {
	rm -f "$TEST_TMP/held"
	flock -o -n "$1/run/halo-provision.lock" bash -c "echo \$\$ >'$TEST_TMP/held'; exec sleep 60" &
	LOCK_HOLDER=$!
	for _ in $(seq 50); do
		[ -s "$TEST_TMP/held" ] && break
		sleep 0.1
	done
}
release_lock() {
	kill "$(cat "$TEST_TMP/held")" "$LOCK_HOLDER" 2>/dev/null
	wait "$LOCK_HOLDER" 2>/dev/null
}

# fake_nic IFNAME BDF DRIVER: under $ROOT, the sysfs layout of a real PCI
# NIC (class link, device link, the function's driver), for a live veth
# of the same name in a namespace. Two ports may share a function's driver.
fake_nic() {
	local dev=sys/devices/pci0000:00/$2
	mkdir -p "$ROOT/$dev/net/$1" "$ROOT/sys/class/net" "$ROOT/sys/bus/pci/drivers/$3"
	ln -s "../../../$2" "$ROOT/$dev/net/$1/device"
	ln -sfn "../../../bus/pci/drivers/$3" "$ROOT/$dev/driver"
	ln -s "../../devices/pci0000:00/$2/net/$1" "$ROOT/sys/class/net/$1"
}

# write_conf FILE: stdin to FILE with mode 0600 (the loader refuses
# group/other-writable configs).
write_conf() {
	install -m 0600 /dev/stdin "$1"
}
