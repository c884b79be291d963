#!/bin/bash
# The Quick start's first command runs sandbox/demo.sh: it must keep
# working (every step exits as the demo expects, and the second apply
# writes nothing).
source "$top_srcdir/tests/lib/tap.sh"

out=$("$top_srcdir/sandbox/demo.sh" "$HALO" 2>&1)
rc=$?
is "$rc" 0 "sandbox/demo.sh: every step behaved as expected"
[ "$rc" = 0 ] || diag "$(printf '%s\n' "$out" | grep -B3 UNEXPECTED | tr -d '\033')"
is "$(grep -c 'no file under the root was written' <<<"$out")" 2 \
	"the second apply wrote nothing on either node"
like "$out" '8980 bytes from 192\.168\.100\.2' "jumbo frames crossed the sandbox link"

done_testing
