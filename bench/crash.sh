#!/bin/bash
# bench/crash.sh [ROUNDS]: the crash-consistency harness in full (make
# check runs a sample: tests/integration/crash-consistency.sh), on an apply
# that writes nine files in new directories. Three sets of trials:
#  1. every occurrence of each file operation (write, fsync, renameat,
#     mkdirat, fchmod, ftruncate, openat2) in turn fails (EIO; ENOSPC and
#     EDQUOT where a full disk or a quota can strike) or is where the run
#     is SIGKILLed (strace's fault injection);
#  2. SIGKILL at every other system call of the apply, one at a time;
#  3. SIGKILL at a random time (CRASH_RANDOM trials, default 250), uniform
#     over the apply's duration: inside a system call too.
# After each: every managed file old or new byte for byte, a failure
# reported (with the errno's text), and a rerun that removes the temp
# files and converges. ROUNDS (default 1) repeats the whole. Prints the
# counts; exits 1 if a trial broke an invariant (the trials are listed).
# Needs a built tree: HALO=build/halo-provision; strace.
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
# trial KIND ARGS...: one trial counted under KIND.
trial() {
	local kind=$1
	shift
	trials=$((trials + 1))
	per[$kind]=$((${per[$kind]:-0} + 1))
	"$@" || bad=$((bad + 1))
}
fileops=(write fsync renameat mkdirat fchmod ftruncate openat2)
# The errors each file operation can meet besides EIO.
declare -A more_errors=([write]="ENOSPC EDQUOT" [fsync]="ENOSPC" [mkdirat]="ENOSPC EDQUOT"
	[renameat]="ENOSPC" [ftruncate]="ENOSPC")
# Every system call the apply makes, with its count (strace -c).
cp -a "$box/old" "$box/probe"
strace -f -qq -c -o "$box/calls" "$HALO" --root "$box/probe" "${HARDEN_KR[@]}" -q >/dev/null 2>&1
others=$(awk 'NR > 2 && $1 !~ /^-/ && $NF != "total" { print $NF, $4 }' "$box/calls" |
	grep -vwE "$(IFS='|'; echo "${fileops[*]}")")
# The apply's duration: the random kills fall inside it.
for i in 1 2 3 4 5; do
	cp -a "$box/old" "$box/probe$i"
	s0=${EPOCHREALTIME/[.,]/}
	"$HALO" --root "$box/probe$i" "${HARDEN_KR[@]}" -q >/dev/null 2>&1
	echo $((${EPOCHREALTIME/[.,]/} - s0))
done | sort -n | sed -n 3p >"$box/apply_us"
apply_us=$(cat "$box/apply_us")
for ((round = 1; round <= rounds; round++)); do
	for sc in "${fileops[@]}"; do
		n=$(harden_syscall_count "$box/old" "$sc")
		for ((i = 1; i <= n; i++)); do
			trial "$sc:KILL" harden_trial "$box/old" "$box/new" "$sc:signal=KILL:when=$i"
			[ "$sc" = openat2 ] && continue
			for e in EIO ${more_errors[$sc]:-}; do
				trial "$sc:$e" harden_trial "$box/old" "$box/new" "$sc:error=$e:when=$i"
			done
		done
	done
	while read -r sc n; do
		for ((i = 1; i <= n; i++)); do
			trial "other:KILL" harden_trial "$box/old" "$box/new" "$sc:signal=KILL:when=$i"
		done
	done <<<"$others"
	for ((i = 0; i < ${CRASH_RANDOM:-250}; i++)); do
		trial "random:KILL" harden_kill_trial "$box/old" "$box/new" \
			$(( (RANDOM * 32768 + RANDOM) % (apply_us * 12 / 10 + 1) ))
	done
done
printf '%-16s %s\n' trials count
for k in "${!per[@]}"; do printf '%-16s %d\n' "$k" "${per[$k]}"; done | sort
printf 'apply: %d us (median of 5); other system calls: %s\n' "$apply_us" \
	"$(tr '\n' ' ' <<<"$others")"
printf 'crash trials: %d, broken invariants: %d, %d s\n' "$trials" "$bad" $(($(date +%s) - t0))
[ "$bad" = 0 ]
