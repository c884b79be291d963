#!/bin/bash
# The private view libkmod reads (src/modules/view.c) is a tmpfs mounted
# nowhere: a run that reads the module index writes nothing on the host
# for it. Where the mount API is refused it falls back to a directory in
# $TMPDIR, and removes it. Both paths are shown by strace: the mount API
# calls succeed (or are refused by injection), and no mkdir, symlink or
# unlink reaches a disk path outside the root.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/integration/modules-lib.sh"
command -v strace >/dev/null || { echo "Bail out! strace is not installed"; exit 1; }

mkfx
write_conf "$CONF" <<'CONF'
version = 1;
modules = {
  load = [ "irdma" ];
};
CONF
export TMPDIR="$TEST_TMP/tmp"
mkdir -p "$TMPDIR"

# traced INJECT ARGS...: one run under strace (file and mount calls);
# INJECT empty, or strace's -e inject= value. The trace is $TEST_TMP/trace.
traced() {
	local inject=$1
	shift
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:verify_asan_link_order=0" \
	HALO_TRAP_ROOT="$FX" HALO_TRAP_LOG="$FX/trap.log" LD_PRELOAD="$TRAP_SO" \
		strace -f -qq -y -o "$TEST_TMP/trace" \
		-e trace=fsopen,fsconfig,fsmount,mkdir,mkdirat,symlink,symlinkat,unlink,unlinkat,rmdir \
		${inject:+-e inject="$inject"} \
		"$HALO" --root "$FX" --kernel-release "$REL" -c "$CONF" "$@" >/dev/null 2>"$TEST_TMP/stderr"
	rc=$?
	err=$(cat "$TEST_TMP/stderr")
}
# made_on_disk: mkdir/symlink calls that succeeded on a path of $TMPDIR.
made_on_disk() {
	grep -E '^[0-9]+ +(mkdir|mkdirat|symlink|symlinkat)\(' "$TEST_TMP/trace" | grep -v '= -1' |
		grep -cF "$TMPDIR"
}

# 1. The view in memory: one detached tmpfs, nothing made in $TMPDIR. A
# dry-run makes it (it previews an apply, which loads through libkmod).
traced "" --dry-run
is "$rc" 2 "--dry-run: runs (drift: irdma not loaded yet, exit 2)"
is "$err" "" "--dry-run: no error"
is "$(grep -cE '^[0-9]+ +fsmount\(.*= [0-9]+<' "$TEST_TMP/trace")" 1 "--dry-run: one tmpfs mounted nowhere"
is "$(grep -cE '^[0-9]+ +symlinkat\(' "$TEST_TMP/trace")" \
	"$(grep -cE '^[0-9]+ +symlinkat\(.* = 0$' "$TEST_TMP/trace")" "--dry-run: every view entry made"
ok "$([ "$(grep -cE '^[0-9]+ +symlinkat\(' "$TEST_TMP/trace")" -gt 0 ]; echo $?)" \
	"--dry-run: the view has entries (symlinks to descriptors)"
is "$(made_on_disk)" 0 "--dry-run: nothing made in \$TMPDIR"
is "$(ls -A "$TMPDIR")" "" "--dry-run: \$TMPDIR untouched"

# A check reads the index and the module files itself (native.c): no
# view at all.
traced "" --check
is "$rc" 2 "--check: runs (exit 2)"
is "$err" "" "--check: no error"
is "$(grep -cE '^[0-9]+ +(fsopen|fsmount|symlinkat)\(' "$TEST_TMP/trace")" 0 \
	"--check: no view made (no fsopen, fsmount or symlinkat)"

# 2. The mount API refused (as in a container without CAP_SYS_ADMIN): the
# same results from a directory in $TMPDIR, removed at the end.
traced "fsopen:error=EPERM" --dry-run
is "$rc" 2 "fsopen refused, --dry-run: the same result (exit 2)"
is "$err" "" "fsopen refused, --dry-run: no error"
ok "$([ "$(made_on_disk)" -gt 0 ]; echo $?)" "fsopen refused: the view is made in \$TMPDIR"
is "$(ls -A "$TMPDIR")" "" "fsopen refused: and removed at the end"

traced "fsmount:error=ENOSYS"
is "$rc" 2 "fsmount refused, apply: loads (exit 2)"
is "$err" "" "fsmount refused, apply: no error"
is "$(loads)" "ib_core ice_helper ice irdma" \
	"fsmount refused, apply: irdma and its dependencies loaded through the fallback view"
is "$(ls -A "$TMPDIR")" "" "fsmount refused, apply: \$TMPDIR left empty"

# 3. Converged, through the tmpfs view again.
traced "" --check
is "$rc" 0 "after apply, --check: in sync"
is "$(made_on_disk)" 0 "after apply, --check: nothing made in \$TMPDIR"

done_testing
