#!/bin/bash
# roce on a simulated ConnectX (tests/nicsim, profile connectx): PFC on 3
# flaps the link (the item waits for the carrier, bounded, and says so),
# DSCP 26 -> 3 makes trust DSCP, ECN through the vendor driver's
# ecn/roce_np|roce_rp sysfs (a fixture under --root), enable_roce read
# back as mlx5's driverinit param. A second apply sends no SETDCB; a check
# is clean; a remapped DSCP behind the tool's back is drift naming the
# item; an entry of a DSCP the config does not map is left alone.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/nicsim/nicsim-lib.sh"

sim_node rocecx cx0 0000:c1:00.0 mlx5_core
# The carrier goes 100 ms after the reply, as mlx5 learns of the toggled
# port from the firmware's event; it is back 300 ms later.
echo "cx0 connectx pci=0000:c1:00.0 flap_delay_ms=100 flap_ms=300" >"$NICSIM_CONFIG"
DEV=sys/devices/pci0000:00/0000:c1:00.0
# The vendor driver's default, ECN on for every priority, with priority 3
# turned off by someone.
for p in roce_np roce_rp; do
	mkdir -p "$ROOT/$DEV/net/cx0/ecn/$p/enable"
	for i in 0 1 2 3 4 5 6 7; do echo 1 >"$ROOT/$DEV/net/cx0/ecn/$p/enable/$i"; done
	echo 0 >"$ROOT/$DEV/net/cx0/ecn/$p/enable/3"
done
ECN=$ROOT/$DEV/net/cx0/ecn
ecn_all() { for p in roce_np roce_rp; do cat "$ECN/$p/enable/"[0-7]; done | tr -d '\n'; }
# A static route through the port: the PFC change's flap must keep it.
ip -n "$NS" addr add 192.168.50.1/24 dev cx0
ip -n "$NS" route add 10.9.0.0/16 via 192.168.50.2 dev cx0

write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "cx"; match = { driver = "mlx5_core"; };
    roce = { enable = true; dcbx = "host"; pfc = [ 3 ]; trust = "dscp";
             dscp_prio = ( [ 26, 3 ] ); ecn = [ 3 ]; tos = 106; }; }
);
CONF

run() { nicsim_halo --only roce "$@"; }
item() { jq -r --arg k "$1" '.items[] | select(.key==$k) | '"$2" <<<"$out"; }

run --json
is "$rc" 2 "first apply: exit 2"
[ "$rc" = 2 ] || diag "$out $err"
is "$(jq -c '[.items[] | select(.subsystem=="roce") | .key]' <<<"$out")" \
	'["roce/cx/enable","roce/cx/dcbx","roce/cx/pfc","roce/cx/dscp-prio","roce/cx/trust","roce/cx/ecn"]' \
	"no fw-lldp-agent item on mlx5"
is "$(item roce/cx/enable .outcome)" ok "enable_roce (driverinit) already true"
is "$(state cx0 .dcbx)" '"host"' "state: dcbx host"
is "$(state cx0 .pfc_enabled)" '[3]' "state: PFC on 3"
is "$(state cx0 .pfc_delay)" 7 "PFC read-modify-write kept the cable length (delay 7)"
is "$(state cx0 .link_flaps)" 1 "the PFC change flapped the link once"
like "$(item roce/cx/pfc .note)" '^mlx5 flaps the link on a PFC change: carrier back after [0-9]+ ms$' \
	"the pfc item says it waited for the carrier"
waited=$(item roce/cx/pfc .note | grep -o '[0-9]* ms' | cut -d' ' -f1)
[ "${waited:-0}" -ge 300 ]
ok $? "... and really waited for it (${waited:-?} ms: lost after 100 ms, back 300 ms later)"
is "$(ip -n "$NS" -j link show cx0 | jq -r '.[0].operstate')" UP "the link is up after the run"
is "$(ip -n "$NS" -j link show cx0 | jq -r '.[0].flags | index("UP") != null')" true \
	"the port stayed administratively UP (mlx5 toggles the carrier through firmware)"
is "$(ip -n "$NS" -j route show 10.9.0.0/16 | jq -r '.[0].gateway')" 192.168.50.2 \
	"the static route through the port is still there"
is "$(state cx0 .app)" '[{"selector":"dscp","protocol":26,"priority":3}]' "state: DSCP 26 -> 3"
is "$(state cx0 .trust)" '"dscp"' "trust dscp"
is "$(cat "$ECN/roce_np/enable/3")$(cat "$ECN/roce_rp/enable/3")" 11 "ECN on for priority 3 (np and rp)"
is "$(ecn_all)" 1111111111111111 "ECN left on for the other priorities, as the driver had it"
is "$(jq -r '.failed' <<<"$out")" false "nothing failed"

sets=$(state cx0 .requests.dcbnl.set)
run --json
is "$rc" 0 "second apply: exit 0"
is "$(state cx0 .requests.dcbnl.set)" "$sets" "second apply: 0 SETDCB requests"
is "$(state cx0 .link_flaps)" 1 "no more flaps"
run --check
is "$rc" 0 "check: clean"

# Behind the tool's back: DSCP 26 now goes to 5, and someone maps 48 -> 6.
jq '.app = [{"selector":"dscp","protocol":26,"priority":5},{"selector":"dscp","protocol":48,"priority":6}]' \
	"$NICSIM_STATE/cx0.json" >"$TEST_TMP/s" && mv "$TEST_TMP/s" "$NICSIM_STATE/cx0.json"
run --check --json
is "$rc" 2 "drift: check exit 2"
is "$(jq -c '[.items[] | select(.outcome=="drift") | .key]' <<<"$out")" '["roce/cx/dscp-prio"]' \
	"drift names roce/cx/dscp-prio"
is "$(item roce/cx/dscp-prio .observed)" '26:5' "observed 26:5"
export NICSIM_LOG=$TEST_TMP/nicsim.log
run
is "$rc" 2 "apply repairs it"
is "$(state cx0 '[.app[] | "\(.protocol):\(.priority)"] | sort')" '["26:3","48:6"]' \
	"26 -> 3 again; the unmapped DSCP 48 entry is left alone"
# mlx5's setapp replaces a DSCP's entry in place: deleting 26:5 first
# would send DSCP 26 to priority 0 (and, as the last entry, trust to PCP)
# while RoCE traffic runs.
is "$(grep -c '^cx0 dcbnl type=79 cmd=27 ' "$NICSIM_LOG")" 0 "... by replacing the entry: no IEEE_DEL"
is "$(grep -c '^cx0 dcbnl type=79 cmd=20 err=0' "$NICSIM_LOG")" 1 "... one IEEE_SET"
unset NICSIM_LOG
echo 0 >"$ECN/roce_np/enable/6"
run --check
is "$rc" 0 "ECN turned off on priority 6: nothing asked for it, no drift"
echo 0 >"$ECN/roce_rp/enable/3"
run --check --json
is "$(jq -c '[.items[] | select(.outcome=="drift") | .key]' <<<"$out")" '["roce/cx/ecn"]' "ECN off on 3: drift names roce/cx/ecn"

# ecn_exclusive: exactly the listed priorities.
sed -i 's/ecn = \[ 3 \];/ecn = [ 3 ]; ecn_exclusive = true;/' "$CONF"
run --json
is "$rc" 2 "ecn_exclusive: apply exit 2"
is "$(ecn_all)" 0001000000010000 "ECN on priority 3 only, np and rp"
is "$(item roce/cx/ecn .wanted)" "[ 3 ]" "the wanted value says exactly [ 3 ]"
run --check
is "$rc" 0 "check: clean"

# A switch the apply may write is rewritten in place in a fixture, so it
# must be a file of its own: one hard-linked to a file outside the root,
# or a symlink to another file of the root, is refused when observed, by
# --check and apply alike: exit 1, one line naming it, and nothing changed
# (not the DSCP map the run would have repaired first, not the switches,
# not the file behind the link).
jq '.app = [{"selector":"dscp","protocol":26,"priority":5}]' \
	"$NICSIM_STATE/cx0.json" >"$TEST_TMP/s" && mv "$TEST_TMP/s" "$NICSIM_STATE/cx0.json"
mkdir -p "$ROOT/etc/kept"
echo 0 >"$ROOT/etc/kept/rp3"
echo 0 >"$TEST_TMP/decoy"
host_now() {
	state cx0 '[.app, .pfc_enabled, .trust, .requests.dcbnl.set]'
	(cd "$ECN" && find . -printf '%p %i %n %s %T@\n' | sort)
	tree_snapshot "$ROOT"
	cat "$TEST_TMP/decoy"
}
for p in roce_np roce_rp; do
	f=$ECN/$p/enable/3
	mv "$f" "$TEST_TMP/saved"
	if [ $p = roce_np ]; then
		ln "$TEST_TMP/decoy" "$f"
		what="hard-linked out of the root"
		why="refusing to write a file with other hard links: $ROOT/sys/class/net/cx0/ecn/$p/enable/3"
	else
		ln -s /etc/kept/rp3 "$f"
		what="a symlink to another file of the root"
		why="refusing to write through a symlink: $ROOT/sys/class/net/cx0/ecn/$p/enable/3 (not a kernel file system)"
	fi
	before=$(host_now)
	for mode in --check ""; do
		run $mode
		is "$rc" 1 "ECN switch $p/3 $what${mode:+ ($mode)}: exit 1"
		is "$err" "halo-provision: roce/cx/ecn: $why" "... one line naming it"
	done
	is "$(host_now)" "$before" "... nothing changed"
	rm "$f"
	mv "$TEST_TMP/saved" "$f"
done
export NICSIM_LOG=$TEST_TMP/nicsim2.log
run
is "$rc" 2 "each switch a file of its own again: apply exit 2"
is "$(state cx0 '[.app[] | "\(.protocol):\(.priority)"]')" '["26:3"]' "... the DSCP map repaired"
is "$(grep -c '^cx0 dcbnl type=79 cmd=27 ' "$NICSIM_LOG")" 0 \
	"... in place: the port's only DSCP entry is never deleted, trust never PCP"
unset NICSIM_LOG
# A switch the apply never writes (ECN off elsewhere is left as found
# without ecn_exclusive) is only read: a hard link there is no refusal.
sed -i 's/ ecn_exclusive = true;//' "$CONF"
mv "$ECN/roce_np/enable/6" "$TEST_TMP/saved"
ln "$TEST_TMP/decoy" "$ECN/roce_np/enable/6"
run --check
is "$rc" 0 "a hard link at a switch never written (priority 6): check exit 0"

done_testing
