#!/bin/bash
# modules-root-cmdline.sh: under --root, libkmod reads the root's kernel
# command line, never the build host's. kmod_new() opens the absolute
# /proc/cmdline for "module.param=value" options; the test stands for the
# host with a command line of its own bound over /proc/cmdline in a
# private mount namespace (ice.foo=HOST), and the trap lets libkmod open
# the real path. The options ice is probed with come from the root's
# /proc/cmdline, or none when the root has none; the strace of the run
# shows every open of /proc/cmdline made while the root's file (or
# /dev/null) is mounted there.
if [ -z "${HALO_IN_MOUNT_NS:-}" ]; then
	if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
		echo "1..0 # SKIP needs root and unshare -m"
		exit 0
	fi
	HALO_IN_MOUNT_NS=1 exec unshare -m --propagation private "${BASH:-bash}" "$0" "$@"
fi
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/integration/modules-lib.sh"
source "$top_srcdir/tests/lib/confine.sh"
command -v strace >/dev/null || { echo "1..0 # SKIP strace is not installed"; exit 0; }

echo "BOOT_IMAGE=/vmlinuz-host root=/dev/sda1 ice.foo=HOST quiet" >"$TEST_TMP/host-cmdline"
mount --bind "$TEST_TMP/host-cmdline" /proc/cmdline
is "$(cat /proc/cmdline)" "$(cat "$TEST_TMP/host-cmdline")" "the test's stand-in for the host's command line is in place"

write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "ice" ]; };
CONF

# traced ARGS...: run_trap under strace, libkmod opening the real
# /proc/cmdline; the trace in $TEST_TMP/trace.
traced() {
	out=$(env HALO_TRAP_ROOT="$FX" HALO_TRAP_LOG="$FX/trap.log" HALO_TRAP_KEEP_CMDLINE=1 \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:detect_leaks=0" \
		LD_PRELOAD="$TRAP_SO" timeout 60 strace -f -qq -y -o "$TEST_TMP/trace" \
		-e trace=%file \
		"$HALO" --root "$FX" --kernel-release "$REL" -c "$CONF" "$@" 2>"$TEST_TMP/stderr")
	rc=$?
	confine_unchroot "$TEST_TMP/trace" "$FX"
	err=$(cat "$TEST_TMP/stderr")
}

mkfx
echo "BOOT_IMAGE=/vmlinuz-$REL root=/dev/vda1 ice.foo=ROOT" >"$FX/proc/cmdline"
traced
is "$rc" 2 "apply: exit 2 (changed)"
is "$(awk '$1 == "load" && $2 == "ice" { print "ice", $3 }' "$FX/trap.log")" "ice foo=ROOT" \
	"ice probed with the root's ice.foo=, not the host's"
grep -F '"/proc/cmdline"' "$TEST_TMP/trace" | grep -v ' openat2(' | grep -q .
ok $? "libkmod opened /proc/cmdline (the trace sees it)"
is "$(confine_cmdline_shadow "$TEST_TMP/trace" "$FX/proc/cmdline")" "" "each open of /proc/cmdline saw the root's file"
is "$(cat /proc/cmdline)" "$(cat "$TEST_TMP/host-cmdline")" "the test's /proc/cmdline is as it was"

mkfx
rm -f "$FX/proc/cmdline"
traced
is "$rc" 2 "root without /proc/cmdline: exit 2 (changed)"
is "$(awk '$1 == "load" && $2 == "ice" { print "ice", $3 }' "$FX/trap.log")" "ice " \
	"root without /proc/cmdline: ice probed with no options"
is "$(confine_cmdline_shadow "$TEST_TMP/trace" /dev/null)" "" "each open of /proc/cmdline saw /dev/null"

# A FIFO in its place: refused naming it, no hang, nothing loaded.
mkfx
rm -f "$FX/proc/cmdline"
mkfifo "$FX/proc/cmdline"
traced
is "$rc" 1 "FIFO as the root's /proc/cmdline: exit 1"
like "$err" "$FX/proc/cmdline: a FIFO, not a regular file" "the FIFO is named"
is "$(awk '$1 == "load"' "$FX/trap.log" 2>/dev/null)" "" "nothing loaded"
done_testing
