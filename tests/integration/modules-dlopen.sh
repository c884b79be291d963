#!/bin/bash
# libkmod is opened on first use, never linked: a run that needs no module
# index does not map it, and a libkmod that cannot be opened (or is not
# libkmod) stops the modules phase with one line, exit 1 and nothing
# changed, while the other phases run without it.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/integration/modules-lib.sh"

STUB_SO="$top_builddir/tests/preload/.libs/halo-kmod-stub.so"
[ -f "$STUB_SO" ] || { echo "Bail out! $STUB_SO missing (make check builds it)"; exit 1; }

# 1. Start-up: nothing of libkmod, nor what it alone brings.
libs=$(libs_opened "$HALO" --version)
like "$libs" 'libc\.so\.6' "LD_DEBUG=files shows the libraries of --version"
# The files made or touched last are more than a second old (parmrec.c
# records no file whose ctime is newer).
settle() { sleep 1.1; }
unlike "$libs" 'libkmod' "--version does not map libkmod"
unlike "$libs" 'libcrypto|libzstd|liblzma' "--version does not map libcrypto, zstd or lzma"

# 2. The modules phase opens it, and works, on a fixture.
mkfx
write_conf "$CONF" <<'CONF'
version = 1;
modules = {
  load = [ "irdma" ];
};
CONF
libs=$(HALO_TRAP_ROOT="$FX" libs_opened "$HALO" --root "$FX" --kernel-release "$REL" -c "$CONF" --dry-run --only modules)
like "$libs" 'libkmod\.so\.2' "a modules dry-run opens libkmod (an apply loads through it)"
run_trap --dry-run --only modules
is "$rc" 2 "with libkmod: the modules dry-run runs (drift, exit 2)"
# A check reads the index and the module's .modinfo itself (native.c).
libs=$(HALO_TRAP_ROOT="$FX" libs_opened "$HALO" --root "$FX" --kernel-release "$REL" -c "$CONF" --check --only modules)
unlike "$libs" 'libkmod|libcrypto|libzstd|liblzma' "a modules check maps neither libkmod nor what it brings"
run_trap --check --only modules
is "$rc" 2 "without libkmod: the modules check runs (drift, exit 2)"
# On a plain tree the record is never read, even with options: a record
# others could write goes unremarked.
write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "irdma" ]; options = { mlx5_core = "prof_sel=2"; }; };
CONF
mkdir -p "$FX/var/lib/halo-provision"
echo "# not ours to read" >"$FX/var/lib/halo-provision/module-parameters"
chmod 0666 "$FX/var/lib/halo-provision/module-parameters"
run_trap --check --only modules
unlike "$out$err" "module-parameters" "a plain tree with options: the record is not read"
rm -f "$FX/var/lib/halo-provision/module-parameters"

# 2b. Ubuntu's .ko.zst and Fedora's .ko.xz: a check of modules it only
# expects loaded decompresses none (packcheck.c: each file complete), so
# it maps no decompression library; with options, it maps the one the
# tree needs for their parameters, and still not libkmod or libcrypto.
for c in zst xz; do
	mkfx compress=$c
	lib=libzstd other=liblzma
	[ "$c" = xz ] && lib=liblzma other=libzstd
	write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "irdma" ]; };
CONF
	libs=$(HALO_TRAP_ROOT="$FX" libs_opened "$HALO" --root "$FX" --kernel-release "$REL" -c "$CONF" --check --only modules)
	unlike "$libs" "libkmod|libcrypto|libzstd|liblzma" ".ko.$c, no options: a modules check maps no library"
	run_trap --check --only modules
	is "$rc" 2 ".ko.$c, no options: the modules check runs (drift, exit 2)"
	is "$err" "" ".ko.$c, no options: no error"
	write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "irdma" ]; options = { mlx5_core = "prof_sel=2"; }; };
CONF
	libs=$(HALO_TRAP_ROOT="$FX" libs_opened "$HALO" --root "$FX" --kernel-release "$REL" -c "$CONF" --check --only modules)
	like "$libs" "$lib\.so" ".ko.$c, options: a modules check opens $lib"
	unlike "$libs" "libkmod|libcrypto|$other" ".ko.$c, options: and neither libkmod, libcrypto nor $other"
	run_trap --check --only modules
	is "$rc" 2 ".ko.$c, options: the modules check runs (drift, exit 2)"
	is "$err" "" ".ko.$c, options: no error"

	# An apply keeps the parameter types it decoded (parmrec.c); a
	# check takes them from there while the file is the same one.
	rec="$FX/var/lib/halo-provision/module-parameters"
	mod=$(find "$FX/lib/modules/$REL" -name "mlx5_core.ko.$c")
	# A file changed less than a second ago is not recorded: a second
	# change in the same clock tick would keep its ctime. The touch makes
	# "this very second" hold however long the runs above took.
	touch "$mod"
	run_trap --only modules
	is "$rc" 2 ".ko.$c: the apply loads (changed, exit 2)"
	ok "$([ -e "$rec" ] && echo 1 || echo 0)" ".ko.$c: a module made this very second is not recorded"
	settle
	run_trap --only modules
	line=$(grep -v '^#' "$rec" 2>/dev/null)
	like "$line" "^$REL/kernel/.*/mlx5_core\.ko\.$c	[0-9]+	$(stat -c %i "$mod")	$(stat -c %s "$mod")	[0-9]+\.[0-9]{9}	[0-9]+\.[0-9]{9}	.*prof_sel:uint" \
		".ko.$c: the record has mlx5_core's file and parameter types"
	is "$(grep -vc '^#' "$rec")" 1 ".ko.$c: and only the module with options"
	is "$(stat -c %a "$rec")" 644 ".ko.$c: the record is 0644"
	before=$(stat -c %Y.%i "$rec")
	run_trap --only modules
	is "$(stat -c %Y.%i "$rec")" "$before" ".ko.$c: an apply that changes nothing leaves the record as it was"
	libs=$(HALO_TRAP_ROOT="$FX" libs_opened "$HALO" --root "$FX" --kernel-release "$REL" -c "$CONF" --check --only modules)
	unlike "$libs" "libkmod|libcrypto|libzstd|liblzma" ".ko.$c, options, recorded: a modules check maps no library"
	run_trap --check --only modules
	is "$rc" 0 ".ko.$c, options, recorded: the check is in sync"
	is "$err" "" ".ko.$c, options, recorded: no error"
	# The line is what the check judges by: a type that refuses the value.
	cp "$rec" "$TEST_TMP/rec.good"
	sed -i 's/prof_sel:uint/prof_sel:bool/' "$rec"
	run_trap --check --only modules
	is "$rc" 1 ".ko.$c, a recorded bool: prof_sel=2 refused (exit 1)"
	like "$err" "mlx5_core: option prof_sel: invalid value '2' for type bool" ".ko.$c, a recorded bool: the line says so"
	# The module file changed (its ctime moves with any change): the
	# line is not used; the check decodes, and the record stays as it is.
	touch -d '@1' "$mod"
	libs=$(HALO_TRAP_ROOT="$FX" libs_opened "$HALO" --root "$FX" --kernel-release "$REL" -c "$CONF" --check --only modules)
	like "$libs" "$lib\.so" ".ko.$c, the file changed since: the check decodes it"
	run_trap --check --only modules
	is "$rc" 0 ".ko.$c, the file changed since: its own types, in sync"
	settle
	run_trap --only modules
	unlike "$(cat "$rec")" "prof_sel:bool" ".ko.$c: the next apply records the file anew"
	# A record others could write is not used, and the check says so.
	chmod 0666 "$rec"
	sed -i 's/prof_sel:uint/prof_sel:bool/' "$rec"
	libs=$(HALO_TRAP_ROOT="$FX" libs_opened "$HALO" --root "$FX" --kernel-release "$REL" -c "$CONF" --check --only modules)
	like "$libs" "$lib\.so" ".ko.$c, a record writable by others: the check decodes"
	run_trap --check --only modules
	is "$rc" 0 ".ko.$c, a record writable by others: not believed (in sync)"
	like "$out$err" "module-parameters: not used: writable by group or others" \
		".ko.$c, a record writable by others: a warning names it"
	# The next apply makes it one a check trusts: the mode, and the owner
	# (a rewrite keeps the owner of a file, so another user's goes first).
	sed -i 's/prof_sel:bool/prof_sel:uint/' "$rec"
	run_trap --only modules
	is "$rc/$(stat -c %a "$rec")" "0/644" ".ko.$c, a record writable by others, its text right: the apply makes it 0644"
	chown 4242:4242 "$rec"
	run_trap --only modules
	is "$rc/$(stat -c %u:%g/%a "$rec")" "0/0:0/644" ".ko.$c, another user's record, its text right: the apply makes it ours"
	libs=$(HALO_TRAP_ROOT="$FX" libs_opened "$HALO" --root "$FX" --kernel-release "$REL" -c "$CONF" --check --only modules)
	unlike "$libs" "libkmod|libcrypto|libzstd|liblzma" ".ko.$c, the record made ours: the check uses it again"
	# A record that is no record: ignored line by line.
	printf 'garbage\n\t\t\n' >"$rec"
	run_trap --check --only modules
	is "$rc" 0 ".ko.$c, a record of garbage: the check decodes (in sync)"
	is "$err" "" ".ko.$c, a record of garbage: no error"
	# --revert removes it, as an item of the report.
	run_trap --only modules
	run_trap --revert
	like "$out" "changed +file/var/lib/halo-provision/module-parameters +absent" \
		".ko.$c: --revert removes the record, and says so"
	ok "$([ -e "$rec" ] && echo 1 || echo 0)" ".ko.$c: the record is gone after --revert"
	# Without options, an apply keeps nothing: the record goes.
	run_trap --only modules
	ok "$([ -e "$rec" ] && echo 0 || echo 1)" ".ko.$c: an apply records it again"
	write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "irdma" ]; };
CONF
	run_trap --only modules
	ok "$([ -e "$rec" ] && echo 1 || echo 0)" ".ko.$c: without options an apply removes the record"
done
# On a read-only /var/lib/halo-provision (the state file elsewhere), a
# record already right does not stop the apply, as an owned file already
# right does not; one to rewrite stops it before anything changes. The
# read-only bind mount is made in a mount namespace whose last process is
# halo-provision: it leaves that namespace for its own (kmod-cmdline.c),
# and must still walk the root through the same mounts.
write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "irdma" ]; options = { mlx5_core = "prof_sel=2"; }; };
state = { path = "/srv/halo/state.json"; };
CONF
run_trap --only modules
ro_apply() {
	out=$(unshare -m bash -c 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" "$1" || exit 99
		shift; exec "$@"' _ "${ro_dir:-$FX/var/lib/halo-provision}" \
		env HALO_TRAP_ROOT="$FX" HALO_TRAP_LOG="$FX/trap.log" LD_PRELOAD="$TRAP_SO" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$HALO" --root "$FX" --kernel-release "$REL" -c "$CONF" --only modules 2>"$TEST_TMP/stderr")
	rc=$?
	err=$(cat "$TEST_TMP/stderr")
}
ro_apply
is "$rc/$err" "0/" "read-only record directory, the record already right: the apply runs"
# The right text at a mode no check trusts is a record to rewrite: with
# a module to add, the apply stops before the drop-in changes.
chmod 0666 "$rec"
cp "$CONF" "$TEST_TMP/conf.one"
write_conf "$TEST_TMP/conf.two" <<'CONF'
version = 1;
modules = { load = [ "irdma", "ib_uverbs" ]; options = { mlx5_core = "prof_sel=2"; }; };
state = { path = "/srv/halo/state.json"; };
CONF
cp "$TEST_TMP/conf.two" "$CONF"
before=$(cat "$FX/etc/modules-load.d/halo-provision.conf")
ro_apply
is "$rc" 4 "read-only record directory, the record writable by others: exit 4"
like "$err" "/module-parameters cannot be written: Read-only file system; nothing was changed\$" \
	"read-only record directory, the record writable by others: one line naming the record"
is "$(cat "$FX/etc/modules-load.d/halo-provision.conf")" "$before" \
	"read-only record directory, the record writable by others: the drop-in untouched"
chmod 0644 "$rec"
cp "$TEST_TMP/conf.one" "$CONF"
touch "$mod"
settle
before=$(stat -c %Y "$FX/srv/halo/state.json")
ro_apply
is "$rc" 4 "read-only record directory, a line to rewrite: exit 4"
like "$err" "the record of module parameter types \(modules\) .*/module-parameters cannot be written: Read-only file system; nothing was changed\$" \
	"read-only record directory, a line to rewrite: one line naming the record"
is "$(stat -c %Y "$FX/srv/halo/state.json")" "$before" "read-only record directory: nothing written"
# The same for an owned file the modules phase writes.
cp "$TEST_TMP/conf.two" "$CONF"
before=$(cat "$FX/etc/modules-load.d/halo-provision.conf")
ro_dir=$FX/etc/modules-load.d ro_apply
is "$rc" 4 "read-only modules-load.d under its own namespace: exit 4"
like "$err" "modules-load\.d/halo-provision\.conf cannot be written: Read-only file system; nothing was changed\$" \
	"read-only modules-load.d under its own namespace: one line naming the file"
is "$(cat "$FX/etc/modules-load.d/halo-provision.conf")" "$before" \
	"read-only modules-load.d under its own namespace: the file under the mount untouched"

# The record's path is proven writable before the first change, as the
# state file's is: a symlink there refuses the apply, nothing changed.
write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "irdma" ]; options = { mlx5_core = "prof_sel=2"; }; };
CONF
echo keep >"$TEST_TMP/elsewhere"
rm -f "$rec"
ln -s "$TEST_TMP/elsewhere" "$rec"
rm -f "$FX/trap.log"
run_trap --only modules
is "$rc" 1 "the record's path a symlink: the apply is refused (exit 1)"
like "$err" "module parameter types \(modules\) .*module-parameters.*symlink" \
	"the record's path a symlink: one line naming the record"
is "$(loads)/$(cat "$TEST_TMP/elsewhere")" "/keep" "the record's path a symlink: nothing loaded or written"
mkfx

# 3. A "libkmod.so.2" that is no library, then one without libkmod's
# functions, found first through LD_LIBRARY_PATH.
NS=$(new_netns dlopen) || { echo "Bail out! cannot create a network namespace"; exit 1; }
ip -n "$NS" link add eth-a type veth peer name eth-b
write_conf "$CONF" <<'CONF'
version = 1;
modules = {
  load = [ "irdma" ];
};
interfaces = (
  { name = "eth-a"; mtu = 4200; }
);
CONF
mkdir -p "$TEST_TMP/lib"
mkdir -p "$FX/run" && touch "$FX/run/halo-provision.lock"
for kind in garbage stub; do
	if [ "$kind" = garbage ]; then
		echo "not a shared object" >"$TEST_TMP/lib/libkmod.so.2"
		want="$TEST_TMP/lib/libkmod.so.2: (file too short|invalid ELF header)"
	else
		cp "$STUB_SO" "$TEST_TMP/lib/libkmod.so.2"
		want="$TEST_TMP/lib/libkmod.so.2: undefined symbol: kmod_[a-z_]+"
	fi
	before=$(tree_snapshot "$FX")
	for mode in --dry-run ""; do
		LD_LIBRARY_PATH="$TEST_TMP/lib" run_trap --netns "$NS" $mode
		is "$rc" 1 "$kind libkmod, ${mode:-apply}: exit 1"
		like "$err" "^halo-provision: $CONF:2: modules: $want \(needed for the modules phase\)\$" \
			"$kind libkmod, ${mode:-apply}: one line naming the library and the phase"
		is "$(printf '%s\n' "$err" | grep -c .)" 1 "$kind libkmod, ${mode:-apply}: only that line"
		is "$(loads)" "" "$kind libkmod, ${mode:-apply}: nothing loaded"
		is "$(ip -n "$NS" -j link show eth-a | jq -r '.[0].mtu')" 1500 \
			"$kind libkmod, ${mode:-apply}: the links were not changed either"
	done
	# A check needs no libkmod: the drift is found, nothing is said of it.
	LD_LIBRARY_PATH="$TEST_TMP/lib" run_trap --netns "$NS" --check
	is "$rc" 2 "$kind libkmod, --check: drift found without it (exit 2)"
	is "$err" "" "$kind libkmod, --check: no error"
	is "$(tree_snapshot "$FX")" "$before" "$kind libkmod: nothing written"

	# The other phases need no libkmod at all.
	LD_LIBRARY_PATH="$TEST_TMP/lib" run_trap --netns "$NS" --only links
	is "$rc" 2 "$kind libkmod, --only links: applied (exit 2)"
	is "$err" "" "$kind libkmod, --only links: no error"
	is "$(ip -n "$NS" -j link show eth-a | jq -r '.[0].mtu')" 4200 "$kind libkmod, --only links: MTU set"
	LD_LIBRARY_PATH="$TEST_TMP/lib" run_trap --netns "$NS" --only links --check
	is "$rc" 0 "$kind libkmod, --only links --check: converged (exit 0)"
	ip -n "$NS" link set eth-a mtu 1500
done

# 4. The boot phase reads the module index itself to tell whether amdgpu
# is the DKMS build (for gtt_params = "auto"): it never opens libkmod, so
# a broken one changes nothing for it.
mkdir -p "$FX/etc/default" "$FX/proc"
printf 'GRUB_CMDLINE_LINUX_DEFAULT="quiet"\n' >"$FX/etc/default/grub"
printf 'MemTotal:       134217728 kB\n' >"$FX/proc/meminfo"
write_conf "$CONF" <<'CONF'
version = 1;
boot = {
  loader = "grub";
  gtt_mib = 126976;
  regenerate = false;
};
CONF
libs=$(HALO_TRAP_ROOT="$FX" libs_opened "$HALO" --root "$FX" --kernel-release "$REL" -c "$CONF" --dry-run --only boot)
unlike "$libs" 'libkmod' "boot, gtt_params auto: libkmod not mapped"
run_trap --dry-run --only boot
is "$rc" 10 "with libkmod: the GTT parameters are planned (drift, reboot)"
want=$(printf '%s\n' "$out" | grep -o 'ttm\.pages_limit=[0-9]*' | head -1)
like "$want" '^ttm\.pages_limit=' "in-tree amdgpu: the ttm. prefix"
LD_LIBRARY_PATH="$TEST_TMP/lib" run_trap --dry-run --only boot
is "$rc" 10 "a broken libkmod, gtt_params auto: planned all the same"
is "$err" "" "a broken libkmod, gtt_params auto: no error"
is "$(printf '%s\n' "$out" | grep -o 'ttm\.pages_limit=[0-9]*' | head -1)" "$want" \
	"a broken libkmod, gtt_params auto: the same GTT parameters"

done_testing
