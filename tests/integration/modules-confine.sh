#!/bin/bash
# libkmod confined to the root: it reads no file of the host (no symlink
# out of the root, not the running kernel's /proc/cmdline), and no FIFO or
# device (which would hang it). A hostile file is refused with one line
# naming it, exit 1, nothing loaded or written.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/integration/modules-lib.sh"

RUN_TIMEOUT=60 # a hang fails the test instead of the harness
# The private view goes under TMPDIR: a directory of this test's own, to
# check that nothing is left behind.
export TMPDIR="$TEST_TMP/tmp"
mkdir -p "$TMPDIR"

# refused DESCRIPTION REGEX [ARGS...]: exit 1 with REGEX as the only line,
# nothing loaded, nothing written.
refused() {
	local desc=$1 re=$2 before
	shift 2
	mkdir -p "$FX/run" && touch "$FX/run/halo-provision.lock"
	before=$(tree_snapshot "$FX")
	run_trap "$@"
	is "$rc" 1 "$desc: exit 1"
	like "$err" "$re" "$desc: message names the file"
	is "$(printf '%s\n' "$err" | grep -c .)" 1 "$desc: one line"
	is "$(loads)" "" "$desc: nothing loaded"
	is "$(tree_snapshot "$FX")" "$before" "$desc: nothing written"
}

conf_ice() {
	write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "ice" ]; };
CONF
}

# The running kernel's command line blacklists ice; the root's does not.
mkfx
conf_ice
echo "BOOT_IMAGE=/vmlinuz root=/dev/sda1 modprobe.blacklist=ice,mlx5_ib quiet" \
	>"$TEST_TMP/host-cmdline"
TRAP_CMDLINE="$TEST_TMP/host-cmdline" run_trap --only modules
is "$rc" 2 "host modprobe.blacklist= does not count under --root: ice loaded (2)"
is "$(loads)" "ice_helper ice" "ice and its dependency loaded"
# The root's own command line does count.
mkfx
conf_ice
echo "BOOT_IMAGE=/vmlinuz-$REL ro \"modprobe.blacklist=ice\"" >"$FX/proc/cmdline"
refused "root's modprobe.blacklist=" \
	"modules.load: 'ice' is blacklisted in the root's modprobe.d or by modprobe.blacklist= on its kernel command line"

# A modprobe.d symlink out of the root: its content is never read.
mkfx
conf_ice
printf 'install ice /bin/echo HOST-SECRET\nblacklist ice\n' >"$TEST_TMP/secret.conf"
ln -s "$TEST_TMP/secret.conf" "$FX/etc/modprobe.d/evil.conf"
refused "modprobe.d symlink out of the root" \
	"^halo-provision: .*halo.conf:2: modules: refused $FX/etc/modprobe.d/evil.conf: symlink to '$TEST_TMP/secret.conf' does not resolve inside the root$"
is "$(printf '%s\n%s' "$out" "$err" | grep -c HOST-SECRET)" 0 "the host file's content is not shown"
run_trap --check
is "$rc" 1 "check refuses it too"
# A symlink that stays inside the root is followed there.
rm "$FX/etc/modprobe.d/evil.conf"
mkdir -p "$FX/srv" "$FX/$TEST_TMP"
echo "blacklist ice" >"$FX/srv/local.conf"
ln -s ../../srv/local.conf "$FX/etc/modprobe.d/rel.conf"
refused "relative symlink inside the root: read" "'ice' is blacklisted in the root's modprobe.d"
rm "$FX/etc/modprobe.d/rel.conf"
echo "blacklist ice" >"$FX/$TEST_TMP/secret.conf"
ln -s "$TEST_TMP/secret.conf" "$FX/etc/modprobe.d/abs.conf"
refused "absolute symlink: resolved inside the root" "'ice' is blacklisted in the root's modprobe.d"

# Symlinks out of the root in the module directory: an index, a module.
mkfx
conf_ice
mv "$FX/lib/modules/$REL/modules.alias.bin" "$TEST_TMP/modules.alias.bin"
ln -s "$TEST_TMP/modules.alias.bin" "$FX/lib/modules/$REL/modules.alias.bin"
refused "index symlink out of the root" \
	"modules: refused $FX/lib/modules/$REL/modules.alias.bin: symlink to '$TEST_TMP/modules.alias.bin' does not resolve inside the root$"
mkfx
conf_ice
ko="$FX/lib/modules/$REL/kernel/drivers/net/ethernet/intel/ice/ice.ko"
mv "$ko" "$TEST_TMP/ice.ko"
ln -s "$TEST_TMP/ice.ko" "$ko"
refused "module file symlink out of the root" \
	"modules.load: $ko: symlink to '$TEST_TMP/ice.ko' does not resolve inside the root$"

# FIFOs, devices, directories where a file belongs: refused, never opened.
for kind in fifo chardev dir; do
	mkfx
	conf_ice
	f="$FX/etc/modprobe.d/$kind.conf"
	case $kind in
	fifo) mkfifo "$f"; what="a FIFO" ;;
	chardev) mknod "$f" c 1 3; what="a character device" ;;
	dir) mkdir "$f"; what="a directory" ;;
	esac
	refused "modprobe.d $kind" "modules: refused $f: $what, not a regular file$"
	refused "modprobe.d $kind, check mode" "refused $f: $what" --check
done
mkfx
conf_ice
rm "$ko" && mkfifo "$ko"
refused "module file is a FIFO" "modules.load: $ko: a FIFO, not a regular file$"
mkfx
conf_ice
rm "$FX/lib/modules/$REL/modules.dep.bin" && mkfifo "$FX/lib/modules/$REL/modules.dep.bin"
refused "index is a FIFO" "modules.dep.bin: a FIFO, not a regular file$"

# No modules section: the boot subsystem's amdgpu-dkms check and its own
# modprobe.d scan must not hang on the FIFO either.
mkfx
cp -R "$top_srcdir/tests/fixtures/boot/debian/." "$FX/"
mkfifo "$FX/etc/modprobe.d/fifo.conf"
write_conf "$CONF" <<'CONF'
version = 1;
boot = { gtt_mib = 4096; };
CONF
run_trap --dry-run
ok "$([ "$rc" != 124 ] && [ "$rc" -lt 16 ]; echo $?)" "boot only, FIFO in modprobe.d: no hang (rc $rc)"
run_trap --check
ok "$([ "$rc" != 124 ] && [ "$rc" -lt 16 ]; echo $?)" "boot only, check: no hang (rc $rc)"

# Nothing of the private view is left behind.
is "$(ls -A "$TMPDIR")" "" "no staging directory left in TMPDIR"

done_testing
