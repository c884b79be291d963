#!/bin/bash
# roce configs the host makes impossible, refused before anything changes
# (exit 1, FILE:LINE, one line each, the NIC's state untouched): a roce
# section on a link whose driver has no RoCE, host DCB on ice with
# dcbx = "firmware", PCP trust with PFC on ice (one traffic class: lossy),
# a ToS whose priority has no PFC; and trust = "dscp" without a map, which
# the config load itself refuses.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/nicsim/nicsim-lib.sh"

NS=$(new_netns rocebad) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
veth_pair "$NS" e0 && veth_pair "$NS" plain || { echo "1..0 # SKIP no veth"; exit 0; }
export NICSIM_STATE=$TEST_TMP/state NICSIM_CONFIG=$TEST_TMP/nicsim.conf
mkdir -p "$NICSIM_STATE"
echo "e0 e810 pci=0000:3b:00.0" >"$NICSIM_CONFIG"
ROOT=$TEST_TMP/root
CONF=$ROOT/etc/halo-provision/halo.conf
mkdir -p "$ROOT/etc/halo-provision" "$ROOT/run"
: >"$ROOT/run/halo-provision.lock" # an apply takes the run lock first
fake_nic e0 0000:3b:00.0 ice

halo() {
	out=$(env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		LD_PRELOAD="$NICSIM_SO" "$HALO" -c "$CONF" --root "$ROOT" --netns "$NS" \
		--only links,roce "$@" 2>"$TEST_TMP/stderr")
	rc=$?
	err=$(cat "$TEST_TMP/stderr")
}
# bad NAME ROCE-BODY MESSAGE-REGEX [LINK]: one entry, exit 1, one line.
bad() {
	write_conf "$CONF" <<CONF
version = 1;
interfaces = (
  { name = "${4:-e0}";
    roce = { $2 }; }
);
CONF
	rm -f "$NICSIM_STATE"/*.json
	before=$(tree_snapshot "$ROOT")
	halo
	is "$rc" 1 "$1: exit 1"
	like "$err" "$3" "$1: the message"
	is "$(wc -l <<<"$err")" 1 "$1: one line"
	is "$(ip -n "$NS" -j link show "${4:-e0}" | jq -r '.[0].mtu')" 1500 "$1: link untouched"
	if [ -e "$NICSIM_STATE/e0.json" ]; then
		is "$(state e0 '.requests.set')" 0 "$1: no request changed the NIC"
	else
		ok 0 "$1: the NIC was not even asked"
	fi
	is "$(tree_snapshot "$ROOT")" "$before" "$1: nothing written under the root"
}

bad "no RoCE driver" 'pfc = [ 3 ];' \
	'halo\.conf:4: interface "plain": roce: link plain \(driver veth\) has no RoCE' plain
bad "ice with the firmware agent" 'dcbx = "firmware"; pfc = [ 3 ];' \
	'halo\.conf:4: interface "e0": roce: ice refuses host PFC and APP changes while the firmware LLDP agent runs'
bad "ice, trust pcp with PFC" 'pfc = [ 3 ]; trust = "pcp";' \
	'halo\.conf:4: interface "e0": roce: on ice, trust = "pcp" with pfc leaves one traffic class, and irdma then sends untagged frames that PFC never pauses \(lossy\)'
bad "trust dscp without a map" 'trust = "dscp";' \
	'halo\.conf:4: interface "e0": roce\.trust: "dscp" needs dscp_prio entries'
bad "ToS on a priority without PFC" 'pfc = [ 3 ]; trust = "dscp"; dscp_prio = ( [ 26, 4 ] ); tos = 106;' \
	'halo\.conf:4: interfaces\[0\]\.roce\.tos: 106 \(DSCP 26\) maps to priority 4'

# A node in service moved from trust = "dscp" to "pcp": refused before any
# change, so the port keeps its lossless DSCP setup (ice would fall back
# to L2 and its default DCB when the last DSCP entry went, PFC off).
echo "e0 e810 pci=0000:3b:00.0 fw_lldp_agent=off" >"$NICSIM_CONFIG"
rm -f "$NICSIM_STATE"/*.json
write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "e0";
    roce = { dcbx = "host"; pfc = [ 3 ]; trust = "dscp"; dscp_prio = ( [ 26, 3 ] ); }; }
);
CONF
halo
is "$rc" 2 "trust dscp applied first: exit 2"
is "$(state e0 '[.pfc_enabled, .trust]')" '[[3],"dscp"]' "... PFC on 3, DSCP trust"
sed -i 's/trust = "dscp"; dscp_prio = ( \[ 26, 3 \] );/trust = "pcp";/' "$CONF"
sets=$(state e0 .requests.set)
before=$(tree_snapshot "$ROOT")
halo
is "$rc" 1 "moved to trust pcp: exit 1"
like "$err" 'halo\.conf:4: interface "e0": roce: on ice, trust = "pcp" with pfc leaves one traffic class' \
	"... the one-line reason"
is "$(state e0 '[.pfc_enabled, .trust, .requests.set]')" "[[3],\"dscp\",$sets]" \
	"... the port untouched: PFC on 3, DSCP trust, no set request"
is "$(tree_snapshot "$ROOT")" "$before" "... nothing written under the root"

done_testing
