#!/bin/bash
# run.sh: runs libFuzzer targets for a while (`make fuzz` calls it).
#
#   tests/fuzz/run.sh FUZZER SECONDS WORKDIR [SEED...]
#   tests/fuzz/run.sh --all SECONDS WORKROOT < JOBS
#
# The first form runs one target. SEEDs are directories or single files
# (copied in, since libFuzzer takes a file argument as "run this input
# only"). New inputs go to WORKDIR/corpus, a crash to WORKDIR/crash-*, the
# log to WORKDIR/log. It ends with one summary line:
#   NAME: N executions in S s, cov C, ft F, corpus K, 0 crashes
# The second form runs every target JOBS names (one a line: "FUZZER
# SEED...", as `make fuzz` writes them), FUZZ_PARALLEL at a time (default:
# the number of CPUs), each for SECONDS in WORKROOT/<target>, then prints
# each target's summary line and a total:
#   total: N executions in T targets, C crashes
# A finding: minimize it (FUZZER -minimize_crash=1 -runs=10000 CRASH), add it
# to tests/fuzz/corpus/<target>/ as a regression input, and report the bug.
# LSAN_SUPP: LeakSanitizer suppressions (the libconfig 1.5 lexer leak).
set -u

if [ "${1:-}" = --all ]; then
	seconds=${2:?SECONDS}
	root=${3:?WORKROOT}
	parallel=${FUZZ_PARALLEL:-$(nproc)}
	mkdir -p "$root" || exit 1
	mapfile -t jobs_in
	names=()
	fail=0
	for line in "${jobs_in[@]}"; do
		read -r -a job <<<"$line"
		[ ${#job[@]} -gt 0 ] || continue
		name=${job[0]##*/}
		names+=("$name")
		while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do
			wait -n || fail=1
		done
		bash "$0" "${job[0]}" "$seconds" "$root/${name#fuzz-}" "${job[@]:1}" \
			>"$root/${name#fuzz-}.out" 2>&1 &
	done
	while [ "$(jobs -rp | wc -l)" -gt 0 ]; do
		wait -n || fail=1
	done
	for name in "${names[@]}"; do
		cat "$root/${name#fuzz-}.out"
	done
	for name in "${names[@]}"; do
		grep -h "^$name: [0-9]* executions in" "$root/${name#fuzz-}.out"
	done | awk -v n=${#names[@]} '{ e += $2; c += $(NF - 1) }
		END { printf "total: %d executions in %d targets, %d crashes\n", e, n, c }'
	exit $fail
fi

fuzzer=${1:?FUZZER}
seconds=${2:?SECONDS}
work=${3:?WORKDIR}
shift 3

mkdir -p "$work/corpus" "$work/seeds" || exit 1
dirs=()
for s in "$@"; do
	if [ -d "$s" ]; then
		dirs+=("$s")
	elif [ -f "$s" ]; then
		cp -- "$s" "$work/seeds/" || exit 1
	else
		echo "run.sh: no seed $s" >&2
		exit 1
	fi
done

export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
if [ -n "${LSAN_SUPP:-}" ]; then
	export LSAN_OPTIONS="suppressions=$LSAN_SUPP${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
fi

name=${fuzzer##*/}
# A dictionary tests/fuzz/<target>.dict next to this script, if any.
dict="$(dirname "$0")/${name#fuzz-}.dict"
[ -f "$dict" ] || dict=
echo "== $name: ${seconds}s, corpus $work/corpus"
"$fuzzer" -max_total_time="$seconds" -print_final_stats=1 \
	-artifact_prefix="$work/" -max_len="${FUZZ_MAX_LEN:-8192}" \
	${dict:+-dict="$dict"} \
	${FUZZ_JOBS:+-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS"} \
	"$work/corpus" "$work/seeds" "${dirs[@]}" >"$work/log" 2>&1
rc=$?
grep -E '^(#[0-9]+ +DONE|stat::|Done )' "$work/log" | sed "s/^/$name: /"
# The summary line: executions from libFuzzer's final stats, coverage
# from its last status line, crashes from the artifacts left.
crashes=$(find "$work" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
	-o -name 'oom-*' \) | wc -l)
awk -v name="$name" -v secs="$seconds" -v crashes="$crashes" '
	/^stat::number_of_executed_units:/ { execs = $2 }
	/^#[0-9]+[ \t]/ { for (i = 1; i < NF; i++) {
		if ($i == "cov:") cov = $(i + 1)
		if ($i == "ft:") ft = $(i + 1)
		if ($i == "corp:") { corp = $(i + 1); sub(/\/.*/, "", corp) } } }
	END { printf "%s: %d executions in %d s, cov %d, ft %d, corpus %d, %d crashes\n",
		name, execs, secs, cov, ft, corp, crashes }' "$work/log"
if [ $rc -ne 0 ]; then
	echo "$name: FAILED (exit $rc), see $work/log:" >&2
	grep -E -A30 '^==[0-9]+==ERROR|runtime error|property failed|SUMMARY' \
		"$work/log" | head -60 >&2
	ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* 2>/dev/null >&2
fi
exit $rc
