#!/bin/bash
# run.sh: runs one libFuzzer target for a while (`make fuzz` calls it for
# each target of a --enable-fuzz build).
#
#   tests/fuzz/run.sh FUZZER SECONDS WORKDIR [SEED...]
#
# SEEDs are directories or single files (copied in, since libFuzzer takes
# a file argument as "run this input only"). New inputs go to
# WORKDIR/corpus, a crash to WORKDIR/crash-*, the log to WORKDIR/log.
# A finding: minimize it (FUZZER -minimize_crash=1 -runs=10000 CRASH), add it
# to tests/fuzz/corpus/<target>/ as a regression input, and report the bug.
# LSAN_SUPP: LeakSanitizer suppressions (the libconfig 1.5 lexer leak).
set -u

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
if [ $rc -ne 0 ]; then
	echo "$name: FAILED (exit $rc), see $work/log:" >&2
	grep -E -A30 '^==[0-9]+==ERROR|runtime error|property failed|SUMMARY' \
		"$work/log" | head -60 >&2
	ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* 2>/dev/null >&2
fi
exit $rc
