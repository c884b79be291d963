#!/bin/bash
# bench/crash.sh [ROUNDS]: the crash-consistency harness in full (make
# check runs a sample: tests/integration/crash-consistency.sh). For each
# file operation an apply makes (write, fsync, renameat, mkdirat, fchmod,
# ftruncate, openat2), every occurrence in turn fails with EIO and, in
# another trial, is where the run is SIGKILLed (strace's fault injection).
# After each: every managed file old or new byte for byte, a failure
# reported, and a rerun that removes the temp files and converges.
# ROUNDS (default 1) repeats the whole set. Prints the counts; exits 1 if a
# trial broke an invariant (the trials are listed). Needs a built tree:
# HALO=build/halo-provision; strace.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
HALO=$(realpath "${HALO:-$top/build/halo-provision}")
export HALO
rounds=${1:-1}
write_conf() { install -m 0600 /dev/stdin "$1"; }
source "$top/tests/lib/hardening.sh"

box=$(mktemp -d /tmp/halo-crash.XXXXXX)
trap 'rm -rf "$box"' EXIT
export TMPDIR=$box
harden_make_root "$box/old"
cp -a "$box/old" "$box/new"
"$HALO" --root "$box/new" "${HARDEN_KR[@]}" -q >/dev/null
[ $? = 10 ] || { echo "bench: the reference apply did not converge" >&2; exit 1; }

trials=0 bad=0 t0=$(date +%s)
declare -A per=()
for ((round = 1; round <= rounds; round++)); do
	for sc in write fsync renameat mkdirat fchmod ftruncate openat2; do
		n=$(harden_syscall_count "$box/old" "$sc")
		for ((i = 1; i <= n; i++)); do
			for what in error=EIO signal=KILL; do
				[ "$sc" = openat2 ] && [ "$what" = error=EIO ] && continue
				trials=$((trials + 1))
				per[$sc]=$((${per[$sc]:-0} + 1))
				harden_trial "$box/old" "$box/new" "$sc:$what:when=$i" || bad=$((bad + 1))
			done
		done
	done
done
printf '%-10s %s\n' syscall trials
for sc in "${!per[@]}"; do printf '%-10s %d\n' "$sc" "${per[$sc]}"; done | sort
printf 'crash trials: %d, broken invariants: %d, %d s\n' "$trials" "$bad" $(($(date +%s) - t0))
[ "$bad" = 0 ]
