#!/bin/bash
# NICSIM_STATE: every request leaves DIR/IFNAME.json (written by rename, no
# temp file left), the next process continues from it, an edit behind the
# NIC's back (drift) is what the next request sees, and requests are counted
# as get and set.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/nicsim/nicsim-lib.sh"

NS=$(new_netns state) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
veth_pair "$NS" st0 || { echo "1..0 # SKIP no veth"; exit 0; }
export NICSIM_STATE=$TEST_TMP/state NICSIM_CONFIG=$TEST_TMP/nicsim.conf
mkdir -p "$NICSIM_STATE"
printf 'st0 connectx pfc=3 dscp=26:3,48:6\n' >"$NICSIM_CONFIG"

[ ! -e "$NICSIM_STATE/st0.json" ]
ok $? "no state file before the first request"
probe "$NS" dcb-get st0
is "$(state st0 .profile)" '"connectx"' "first request: state file written"
is "$(state st0 '[.pfc_enabled, .trust, (.app | length)]')" '[[3],"dscp",2]' "starting state from the config line"
is "$(state st0 '.requests | [.get, .set]')" '[1,0]' "one get counted"
for m in profile dcbx pfc_enabled app devlink priv_flags link_flaps requests; do
	is "$(state st0 "has(\"$m\")")" true "member $m present"
done
is "$(state st0 '.devlink | keys')" '["enable_iwarp","enable_roce"]' "devlink members"
is "$(find "$NICSIM_STATE" -name '*.tmp' | wc -l)" 0 "no temp file left"

# The next process continues from the file.
probe "$NS" dcb-pfc st0 3,4
probe "$NS" dcb-get st0
like "$out" 'pfc_en 3,4' "a new process reads back what the last one set"
is "$(state st0 '.requests | [.get, .set]')" '[3,1]' "counted: 3 gets, 1 set"

# Drift: a test edits the NIC behind the tool's back.
jq '.pfc_enabled = [4] | .app = [{"selector":"dscp","protocol":10,"priority":1}]' \
	"$NICSIM_STATE/st0.json" >"$TEST_TMP/edit.json" &&
	mv "$TEST_TMP/edit.json" "$NICSIM_STATE/st0.json"
probe "$NS" dcb-get st0
like "$out" 'pfc_en 4' "drift: the edited PFC is what the NIC reports"
like "$out" 'app dscp 10 1' "drift: the edited APP table"
is "$(grep -c '^app ' <<<"$out")" 1 "drift: only the edited entry"
is "$(state st0 .trust)" '"dscp"' "trust follows the APP table"
jq '.app = []' "$NICSIM_STATE/st0.json" >"$TEST_TMP/edit.json" &&
	mv "$TEST_TMP/edit.json" "$NICSIM_STATE/st0.json"
probe "$NS" dcb-get st0
is "$(state st0 .trust)" '"pcp"' "no DSCP entry left: trust pcp"

# A broken file: a one-line complaint, the last good state kept.
echo '{ "pfc_enabled": [9] }' >"$NICSIM_STATE/st0.json"
probe "$NS" dcb-get st0
like "$err" 'nicsim: .*st0.json: unreadable state' "a bad state file is reported"
is "$rc" 0 "... and the request still answered"

# NICSIM_DEFER_GETS=1 (for benchmarks): reads are counted as before but
# written once, at the next change or at exit; =drop: reads are not
# counted, so only a change is written; without either every request is
# written. One process makes three reads (dcb-get IF 3); another a read
# and a set (dcb-pfc: read-modify-write).
if command -v strace >/dev/null; then
	# traced DEFER PROBE-ARGS...: "WRITES [GETS,SETS]" of one probe process
	# from a fresh state: renames onto the state file, then the counts.
	traced() {
		local defer=$1
		shift
		rm -f "$NICSIM_STATE"/*
		NICSIM_DEFER_GETS=$defer nicsim "$NS" strace -f -qq -o "$TEST_TMP/trace" -e trace=rename \
			"$NICSIM_PROBE" "$@" >/dev/null 2>&1
		echo "$(grep -c 'st0\.json") *= 0$' "$TEST_TMP/trace") $(state st0 '[.requests.get, .requests.set]')"
	}
	is "$(traced "" dcb-get st0 3)" "3 [3,0]" "three reads: written after every request"
	is "$(traced 1 dcb-get st0 3)" "1 [3,0]" "three reads, NICSIM_DEFER_GETS=1: written once, at exit, counted the same"
	is "$(traced "" dcb-pfc st0 3,4)" "2 [1,1]" "a read and a set: two writes"
	is "$(traced 1 dcb-pfc st0 3,4)" "1 [1,1]" "a read and a set, deferred: one write, at the set, with the read counted"
	traced drop dcb-get st0 3 >/dev/null
	is "$(grep -c 'st0\.json") *= 0$' "$TEST_TMP/trace") $(ls "$NICSIM_STATE" | wc -l)" "0 0" \
		"three reads, NICSIM_DEFER_GETS=drop: nothing written, not even at exit"
	is "$(traced drop dcb-pfc st0 3,4)" "1 [0,1]" "a read and a set, drop: the set written and counted, the read not"
	is "$(state st0 .pfc_enabled)" '[3,4]' "... and the set is in the file"
	is "$(find "$NICSIM_STATE" -name '*.tmp' | wc -l)" 0 "deferred: no temp file left"
	# Deferred, the file is parsed once per process while no one else
	# writes it (its inode and mtime are the ones last read or written).
	opens() {
		NICSIM_DEFER_GETS=$1 nicsim "$NS" strace -f -qq -o "$TEST_TMP/trace" -e trace=openat \
			"$NICSIM_PROBE" dcb-get st0 5 >/dev/null 2>&1
		grep -c 'st0\.json", O_RDONLY' "$TEST_TMP/trace"
	}
	is "$(opens "")" 5 "five reads: the state file read for each"
	before=$(state st0 .requests.get)
	is "$(opens 1)" 1 "five reads, deferred: the state file read once"
	is "$(state st0 .requests.get)" "$((before + 5))" "... and the five reads counted"
fi

# Without NICSIM_STATE the state lives in the process only.
rm -rf "$NICSIM_STATE"/*
out=$(NICSIM_STATE= nicsim "$NS" "$NICSIM_PROBE" dcb-get st0)
like "$out" 'pfc_en 3' "no NICSIM_STATE: the config's state"
is "$(ls "$NICSIM_STATE" | wc -l)" 0 "no NICSIM_STATE: no file written"
done_testing
