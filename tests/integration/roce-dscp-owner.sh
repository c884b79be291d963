#!/bin/bash
# Who owns the DSCP entries of the APP table: the state file
# records the entries halo-provision added; a later apply removes only
# those when the config no longer wants them. An entry someone else added
# (on the simulated NIC before the run, or behind the tool's back) stays,
# unless roce.exclusive = true. A state file without the record (an older
# version's) owns nothing. trust = "pcp" removes ours and says which
# foreign entries keep DSCP trust. On a simulated ConnectX (tests/nicsim).
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/nicsim/nicsim-lib.sh"

sim_node rocedscp cx0 0000:c1:00.0 mlx5_core
# Someone else's entry before the first run: DSCP 10 -> 1.
echo "cx0 connectx pci=0000:c1:00.0 pfc=3 dscp=10:1 flap_ms=0" >"$NICSIM_CONFIG"
STATE=$ROOT/var/lib/halo-provision/state.json

# conf ROCE-KEYS: the one interface entry with these roce keys.
conf() {
	write_conf "$CONF" <<CONF
version = 1;
interfaces = (
  { name = "cx"; match = { driver = "mlx5_core"; };
    roce = { pfc = [ 3, 6 ]; $1 }; }
);
CONF
}
run() { nicsim_halo --only roce "$@"; }
item() { jq -r --arg k "$1" '.items[] | select(.key==$k) | '"$2" <<<"$out"; }
table() { state cx0 '[.app[] | "\(.protocol):\(.priority)"] | sort_by(split(":")[0] | tonumber)'; }
owned() { jq -c --arg k "$1" '.items[] | select(.key==$k) | .owned' "$STATE"; }
foreign() { # foreign DSCP:PRIO: someone else adds an entry on the NIC
	jq --argjson p "${1%%:*}" --argjson q "${1##*:}" \
		'.app += [{"selector":"dscp","protocol":$p,"priority":$q}]' \
		"$NICSIM_STATE/cx0.json" >"$TEST_TMP/s" && mv "$TEST_TMP/s" "$NICSIM_STATE/cx0.json"
}

conf 'trust = "dscp"; dscp_prio = ( [ 26, 3 ], [ 48, 6 ] );'
run --json
is "$rc" 2 "first apply: exit 2"
[ "$rc" = 2 ] || diag "$out $err"
is "$(table)" '["10:1","26:3","48:6"]' "ours added, the foreign 10:1 kept"
is "$(owned roce/cx/dscp-prio)" '["26:3","48:6"]' "the state file records ours only"

# Someone else adds 12:2; the config drops 48 -> 6.
foreign 12:2
conf 'trust = "dscp"; dscp_prio = ( [ 26, 3 ] );'
run --check --json
is "$rc" 2 "check: our stale entry is drift"
is "$(jq -c '[.items[] | select(.outcome=="drift") | .key]' <<<"$out")" '["roce/cx/dscp-prio"]' \
	"... naming roce/cx/dscp-prio"
is "$(item roce/cx/dscp-prio .message)" "stale entries halo-provision added to remove: 48:6" \
	"... and the entry to remove"
is "$(table)" '["10:1","12:2","26:3","48:6"]' "check changed nothing"
run --json
is "$rc" 2 "apply: exit 2"
is "$(table)" '["10:1","12:2","26:3"]' "48:6 (ours) removed, 10:1 and 12:2 (foreign) kept"
is "$(owned roce/cx/dscp-prio)" '["26:3"]' "record: 26:3"
sets=$(state cx0 .requests.dcbnl.set)
run
is "$rc" 0 "second apply: exit 0"
is "$(state cx0 .requests.dcbnl.set)" "$sets" "... with no SETDCB"

# An older version's state file: no record, so nothing is ours.
jq 'del(.items[].owned)' "$STATE" >"$TEST_TMP/s" && mv "$TEST_TMP/s" "$STATE"
conf 'trust = "dscp"; dscp_prio = ( [ 48, 6 ] );'
run --json
is "$rc" 2 "without a record: apply exit 2"
is "$(table)" '["10:1","12:2","26:3","48:6"]' "26:3 is nobody's now and stays"
is "$(owned roce/cx/dscp-prio)" '["48:6"]' "record: what this run added"

# Removed from the config entirely: ours go, the rest stays.
conf ''
run --json
is "$rc" 2 "dscp_prio removed: apply exit 2"
is "$(table)" '["10:1","12:2","26:3"]' "our 48:6 removed"
is "$(owned roce/cx/dscp-prio)" 'null' "nothing recorded"

# exclusive: every DSCP entry the map lacks goes.
conf 'trust = "dscp"; dscp_prio = ( [ 26, 3 ] ); exclusive = true;'
run --check --json
like "$(item roce/cx/dscp-prio .message)" 'exclusive.*10:1, 12:2' "check names what exclusive removes"
run --json
is "$rc" 2 "exclusive: apply exit 2"
is "$(table)" '["26:3"]' "foreign 10:1 and 12:2 removed"
is "$(owned roce/cx/dscp-prio)" 'null' "26:3 was there before: still not ours"

# trust = "pcp": ours go; a foreign entry keeps DSCP trust, said.
conf 'trust = "dscp"; dscp_prio = ( [ 48, 6 ] );'
run
foreign 12:2
conf 'trust = "pcp";'
run --json
is "$rc" 4 "trust pcp with foreign entries: exit 4"
is "$(item roce/cx/trust .outcome)" failed "... the trust item failed"
like "$(item roce/cx/trust .message)" '^2 DSCP APP entries that halo-provision did not add keep DSCP trust; exclusive = true' \
	"... saying why"
is "$(table)" '["12:2","26:3"]' "our 48:6 removed, the foreign ones kept"
conf 'trust = "pcp"; exclusive = true;'
run --json
is "$rc" 2 "trust pcp, exclusive: exit 2"
is "$(table)" '[]' "the table has no DSCP entry"
is "$(state cx0 .trust)" '"pcp"' "trust is PCP"

# exclusive without a map or a trust is a config error.
conf 'exclusive = true;'
run
is "$rc" 1 "exclusive alone: exit 1"
like "$err" 'halo.conf:[0-9]+: .*roce.exclusive: needs dscp_prio' "... file:line and why"

done_testing
