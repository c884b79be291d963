#!/bin/bash
# concurrency.sh: the run lock under load, and a run killed while it holds
# the lock and has a temp file open.
# - 50 applies started at once on one root serialize: exactly one changes
#   the host (exit 10: changed, reboot pending), the 49 others find it in
#   sync (exit 8: the reboot is still pending), every managed file ends as
#   a single apply on a twin root leaves it, and no temp file is left.
# - A run SIGKILLed between writing a temp file and renaming it (strace
#   holds it there): the lock dies with it, the next run (--wait 0) takes
#   it, removes the temp file, converges; every file old or new.
source "${top_srcdir:?}/tests/lib/tap.sh" || exit 1

source "$top_srcdir/tests/lib/hardening.sh" || exit 1

twin="$TEST_TMP/twin"
harden_make_root "$twin"
run_halo --root "$twin" "${HARDEN_KR[@]}"
is "$rc" 10 "a single apply on the twin root: changed, reboot pending"
want=$(harden_managed "$twin")

root="$TEST_TMP/root"
harden_make_root "$root"
mkdir -p "$TEST_TMP/rc"
for i in $(seq 50); do
	("$HALO" --root "$root" "${HARDEN_KR[@]}" --wait 120 -q >/dev/null 2>"$TEST_TMP/rc/$i.err"
	 echo $? >"$TEST_TMP/rc/$i") &
done
wait
codes=$(cat "$TEST_TMP"/rc/[0-9]* | sort | uniq -c | awk '{print $2 "x" $1}' | tr '\n' ' ')
is "$codes" "10x1 8x49 " "50 parallel applies: one changed the host, 49 found it in sync"
is "$(cat "$TEST_TMP"/rc/*.err)" "" "nothing on stderr (no lock timeout, no failure)"
is "$(harden_managed "$root")" "$want" "every managed file as a single apply leaves it"
is "$(harden_temps "$root")" "" "no temp file left"

# A run killed inside its first rename: strace delays the syscall, so the
# run holds the lock and has written a complete temp file beside the
# target. SIGKILL then, as the OOM killer or a power cut would.
root="$TEST_TMP/killed"
harden_make_root "$root"
before=$(harden_managed "$root")
harden_strace -f -o /dev/null -e trace=rename,renameat,renameat2 \
	-e inject=rename,renameat,renameat2:delay_enter=30s \
	"$HALO" --root "$root" "${HARDEN_KR[@]}" -q >/dev/null 2>&1 &
tracer=$!
for _ in $(seq 100); do
	[ -n "$(harden_temps "$root")" ] && break
	sleep 0.1
done
ok "$([ -n "$(harden_temps "$root")" ]; echo $?)" "the traced run wrote a temp file and waits in rename"
# The run itself, by its command line (strace's own starts with
# "strace"): killing strace first would let the run go on, untraced.
victim=$(pgrep -f -- "^$HALO --root $root ")
ok "$([ -n "$victim" ] && [ "$(wc -w <<<"$victim")" = 1 ]; echo $?)" "found the run under strace"
kill -9 $victim 2>/dev/null
while kill -0 $victim 2>/dev/null; do sleep 0.05; done
# strace itself would sit out its delay; it is not part of the test.
pkill -9 -P "$tracer" 2>/dev/null
kill -9 "$tracer" 2>/dev/null
wait "$tracer" 2>/dev/null
is "$(harden_managed "$root")" "$before" "killed before rename: every file is the old one"
run_halo --root "$root" "${HARDEN_KR[@]}" --wait 0
is "$rc" 10 "the next run takes the lock at once (--wait 0) and converges"
is "$(harden_temps "$root")" "" "the next run removed the killed run's temp file"
is "$(harden_managed "$root")" "$want" "every managed file as a single apply leaves it"
run_halo --root "$root" "${HARDEN_KR[@]}" --wait 0
is "$rc" 8 "and the run after that finds it in sync"

done_testing
