#!/bin/bash
# root-confined-full.sh: a full apply under --root (modules, links, files,
# boot) opens nothing outside the root but what a process opens before it
# knows the root (the loader's libraries, /proc/self, /dev/null) and the
# namespace --netns names. libkmod's read of the absolute /proc/cmdline
# is the root's file mounted over it for that call (kmod-cmdline.c): the
# trace shows the mount made from the root's file, and the read inside it.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/lib/confine.sh"
command -v strace >/dev/null || { echo "1..0 # SKIP strace is not installed"; exit 0; }
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root (a private mount namespace for libkmod under --root)"
	exit 0
fi
NS=$(new_netns rootfull) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
# eth-a is there but not as the config wants it: the links part changes.
ip -n "$NS" link add eth-a type veth peer name eth-b || { echo "1..0 # SKIP no veth"; exit 0; }
ip -n "$NS" link set eth-b up
TRAP_SO="$top_builddir/tests/preload/.libs/halo-kmod-trap.so"
[ -f "$TRAP_SO" ] || { echo "Bail out! $TRAP_SO missing (make check builds it)"; exit 1; }

R=$TEST_TMP/root
confine_make_root "$R"
"$top_srcdir/tests/fixtures/modules/mkfixture.sh" "$R" "$CONFINE_KR" >"$TEST_TMP/mkfixture.log" 2>&1 ||
	{ cat "$TEST_TMP/mkfixture.log"; echo "Bail out! mkfixture.sh failed"; exit 1; }
echo "BOOT_IMAGE=/vmlinuz-$CONFINE_KR root=/dev/vda1 ro ice.foo=ROOT" >"$R/proc/cmdline"
echo 'modules = { load = [ "ice" ]; };' >>"$R/etc/halo-provision/halo.conf"

trace=$TEST_TMP/trace
# The trap answers the module system calls; it lets libkmod open the real
# /proc/cmdline. LeakSanitizer's exit check cannot run under strace.
env HALO_TRAP_ROOT="$R" HALO_TRAP_LOG="$R/trap.log" HALO_TRAP_KEEP_CMDLINE=1 \
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:detect_leaks=0" \
	LD_PRELOAD="$TRAP_SO" timeout 60 strace -f -qq -y -o "$trace" \
	-e trace=%file,openat2,fsmount \
	"$HALO" --root "$R" --netns "$NS" --kernel-release "$CONFINE_KR" -q >"$trace.rest.err" 2>&1
rc=$?
confine_unchroot "$trace" "$R"
like "$rc" '^(2|10)$' "apply under --root with modules, links, files and boot: changed ($rc)"
is "$(ip -n "$NS" -j link show eth-a | jq '.[0].mtu')" 9000 "links: the MTU was set"
test -f "$R/etc/modules-load.d/halo-provision.conf"
ok $? "modules: the drop-in was written"
test -f "$R/etc/udev/rules.d/70-halo-access.rules"
ok $? "files: the udev rule was written"
grep -q 'iommu=pt' "$R/etc/default/grub"
ok $? "boot: /etc/default/grub was edited"
grep -q ' mount("/proc/self/fd/[0-9]*", "/proc/cmdline"' "$trace"
ok $? "libkmod was opened (the trace shows the command line mounted for it)"

# The shadowed /proc/cmdline: each mount over it comes from the root's
# file, and every open of it outside openat2 happens while one is there.
shadow=$(confine_cmdline_shadow "$trace" "$R/proc/cmdline")
is "$shadow" "" "every open of /proc/cmdline read the root's file"

# libkmod's private view of the root (modules/view.c) is a tmpfs mounted
# nowhere (fsmount): its descriptors resolve to names below that
# detached mount's own root, "/c0" (a config directory) or "/m" (the
# module directory), which are not on the host; libkmod reaches them as
# /proc/self/fd/N/c0 and the like.
grep -q ' fsmount(' "$trace"
ok $? "libkmod's view is a detached tmpfs"
view_re='<\/(c[0-9]+|m)(\/[^>]*)?>|"\/proc\/self\/fd\/[0-9]+\/(c[0-9]+|m)[\/"]'
if [ -e /c0 ] || [ -e /m ]; then
	view_re='^$' # the host has such paths: the view's are not told apart
fi

# Everything else, with the checks of the confinement harness. Left out:
# the reads of the shadowed /proc/cmdline (checked above), the mount
# calls that make it, the view's descriptors, and the test's own trap
# library.
grep -vE '"/proc/cmdline"|<\/proc\/cmdline>| (umount2|mount|fsmount)\(' "$trace" |
	grep -vE "$view_re" | grep -vF "$TRAP_SO" | grep -vF "$(readlink -f "$TRAP_SO")" |
	# The trap makes the fixture's sysfs for a module it "loaded" with
	# mkdir -p from /: the ancestors of the root's sys/module, not the
	# tool's doing.
	# And it redirects libkmod's /sys/module and /proc/modules into the
	# root by absolute paths (tests/preload/halo-kmod-trap.c).
	awk -v root="$R/" 'match($0, / mkdir\("[^"]*"/) {
		p = substr($0, RSTART + 8, RLENGTH - 9)
		if (index(root "sys/module/", p "/") == 1) next
	}
	index($0, "\"" root "sys/module") || index($0, "\"" root "proc/modules\"") { next }
	index($0, "\"" root "trap.log\"") { next }  # its own log
	{ print }' >"$trace.rest"
is "$(confine_trace_check "$trace.rest" "$R" "$TEST_TMP/none")" "" \
	"nothing opened outside the root but libraries, /proc/self, /dev/null and the namespace"
is "$(confine_opened_outside "$trace.rest" "$R" "$NS")" "" "no host file opened"
done_testing
