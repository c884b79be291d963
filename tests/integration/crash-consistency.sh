#!/bin/bash
# crash-consistency.sh: an apply whose file operations fail, or which is
# SIGKILLed, one point at a time (strace's fault injection), on a root where
# it writes several files in new directories. After each: every managed
# file is byte for byte its old or its new version, a failed operation is
# in the exit status and named on stderr, and a rerun takes the lock,
# removes the temp files and converges.
# make check runs a sample (every failure point of the file operations,
# SIGKILL at every HARDEN_STEP-th one); bench/crash.sh runs all of them.
source "${top_srcdir:?}/tests/lib/tap.sh" || exit 1
source "$top_srcdir/tests/lib/hardening.sh" || exit 1
step=${HARDEN_STEP:-8}

old="$TEST_TMP/old"
harden_make_root "$old"
new="$TEST_TMP/new"
cp -a "$old" "$new"
run_halo --root "$new" "${HARDEN_KR[@]}"
is "$rc" 10 "the reference apply: changed, reboot pending"

trials=0 bad=0
for sc in ${HARDEN_SYSCALLS:-fsync renameat mkdirat fchmod ftruncate write openat2}; do
	n=$(harden_syscall_count "$old" "$sc")
	ok "$([ "$n" -gt 0 ]; echo $?)" "$sc: the apply makes $n of them"
	for ((i = 1; i <= n; i++)); do
		injects=()
		[ "$sc" != openat2 ] && injects+=("$sc:error=EIO:when=$i")
		[ $((i % step)) = 1 ] || [ "$step" = 1 ] && injects+=("$sc:signal=KILL:when=$i")
		for inj in "${injects[@]}"; do
			trials=$((trials + 1))
			why=$(harden_trial "$old" "$new" "$inj") || { bad=$((bad + 1)); diag "$why"; }
		done
	done
done
diag "$trials crash trials"
is "$bad" 0 "every trial: files old or new, the failure reported, the rerun converges"
ok "$([ "$trials" -ge 50 ]; echo $?)" "at least 50 trials ran ($trials)"

# The harness can fail: a root whose managed file was torn (half the new
# content) is caught by the old-or-new check.
torn="$TEST_TMP/torn"
cp -a "$new" "$torn"
head -c 20 "$new/etc/security/limits.d/90-halo-provision.conf" \
	>"$torn/etc/security/limits.d/90-halo-provision.conf"
like "$(harden_old_or_new "$torn" "$old" "$new")" "limits.d/90-halo-provision.conf is neither old nor new" \
	"a torn file is caught"

done_testing
