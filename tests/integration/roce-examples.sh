#!/bin/bash
# The seed configs in examples/ are valid (halo-provision --validate -c),
# and each still fails validation once its ToS lands on a priority
# without PFC (the check is really run on them).
source "$top_srcdir/tests/lib/tap.sh"

for f in e810-pair-node1.conf connectx-node.conf; do
	install -m 0600 "$top_srcdir/examples/$f" "$TEST_TMP/$f"
	run_halo --validate -c "$TEST_TMP/$f"
	is "$rc" 0 "examples/$f validates"
	[ "$rc" = 0 ] || diag "$err"
	sed -i 's/dscp_prio = ( \[ 26, 3 \] );/dscp_prio = ( [ 26, 5 ] );/' "$TEST_TMP/$f"
	run_halo --validate -c "$TEST_TMP/$f"
	is "$rc" 1 "examples/$f with DSCP 26 -> 5 (no PFC): exit 1"
	like "$err" 'roce\.tos: 106 \(DSCP 26\) maps to priority 5' "... naming the ToS"
done

done_testing
