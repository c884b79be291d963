#!/bin/bash
# The firewalld zone of the managed interfaces (firewall.backend =
# "firewalld" or "auto" with firewalld in the root): written from the live
# names of the host table, read back by the real firewall-offline-cmd, not
# written again when right, drift and diff after an edit, an interface
# another zone binds refused before anything changes, a symlink refused,
# nothing run under --root.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/integration/firewall-lib.sh"

firewall_node fwd
mkdir -p "$ROOT/etc/firewalld/zones" "$ROOT/usr/lib/firewalld"
# The daemon's settings file: without it the checker falls back to stock
# settings and says ERROR even for a good zone.
printf 'DefaultZone=public\n' >"$ROOT/etc/firewalld/firewalld.conf"
ZONE=$ROOT/etc/firewalld/zones/halo-rdma.xml
# The real reader: exit 0 and nothing said (it exits 0 with ERROR lines
# in some cases, so its output counts too).
fw_check() {
	check_out=$(firewall-offline-cmd --system-config "$ROOT/etc/firewalld" --check-config 2>&1)
	check_rc=$?
	[ "$check_rc" -eq 0 ] && ! grep -Eq 'ERROR|error|WARNING' <<<"$check_out"
}

if ! command -v firewall-offline-cmd >/dev/null; then
	echo "1..0 # SKIP firewall-offline-cmd (firewalld) is not installed"
	exit 0
fi

# The checker can fail: a zone with an unknown element, and two zones
# binding one interface.
mkdir -p "$TEST_TMP/bad/zones"
cp "$ROOT/etc/firewalld/firewalld.conf" "$TEST_TMP/bad/"
printf '<?xml version="1.0" encoding="utf-8"?>\n<zone><interfac name="eth-a"/></zone>\n' \
	>"$TEST_TMP/bad/zones/broken.xml"
bad_out=$(firewall-offline-cmd --system-config "$TEST_TMP/bad" --check-config 2>&1)
like "$bad_out" 'PARSE_ERROR' "firewall-offline-cmd catches a broken zone (the check can fail)"

conf true auto
halo --check --json
is "$rc" 2 "auto with firewalld in the root: check finds drift (exit 2)"
[ -n "$err" ] && diag "$err"
is "$(item file/etc/firewalld/zones/halo-rdma.xml .outcome)" drift "the zone item drifts"
run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only files --check --json
is "$(item file/etc/firewalld/zones/halo-rdma.xml .outcome)" drift \
	"--only files resolves the interfaces as well: the zone names them"
like "$(item file/etc/firewalld/zones/halo-rdma.xml .message)" 'under --root firewalld is not reloaded: left to the operator or the next boot' \
	"check under --root says the reload is left to the operator"
test ! -e "$ZONE"
ok $? "check wrote no zone"

halo --json
is "$rc" 2 "apply: exit 2 (changed)"
[ -n "$err" ] && diag "$err"
is "$(item file/etc/firewalld/zones/halo-rdma.xml .outcome)" changed "the zone was written"
like "$(item file/etc/firewalld/zones/halo-rdma.xml .note)" 'not reloaded: left to the operator or the next boot' \
	"apply under --root says who reloads"
is "$(jq -r .stats.spawned <<<"$out")" 0 "under --root nothing was run (no firewall-cmd)"
sed -n 2p "$ZONE" | grep -q '^<!-- Managed by halo-provision'
ok $? "the zone carries the managed header as an XML comment"
like "$(tr -d '\n' <"$ZONE")" '<zone target="ACCEPT">.*<interface name="eth-a"/>  <interface name="eth-c"/></zone>' \
	"target ACCEPT, both live interfaces"
is "$(stat -c %a "$ZONE")" 644 "mode 0644"
fw_check
ok $? "firewall-offline-cmd --check-config accepts the zone"
[ "$check_rc" -ne 0 ] || [ -z "$check_out" ] || diag "$check_out"

snap=$(tree_snapshot "$ROOT")
halo --json
is "$rc" 0 "apply again: exit 0"
is "$(tree_snapshot "$ROOT")" "$snap" "the second apply wrote nothing"
halo --check
is "$rc" 0 "check: exit 0"

# The listed ports instead of trust.
conf false firewalld
halo --json --diff
is "$rc" 2 "trusted_interfaces = false: exit 2"
like "$(item file/etc/firewalld/zones/halo-rdma.xml .diff)" '\+  <port protocol="udp" port="4791"/>' \
	"the diff shows the UDP port"
is "$(grep -c '<port ' "$ZONE")" 3 "three ports"
grep -q 'target=' "$ZONE"
ok $((!$?)) "no ACCEPT target"
fw_check
ok $? "firewall-offline-cmd accepts the zone with ports"

# RoCE needs 4791: said, naming the port.
sed -i 's/allow_udp = \[ 4791 \]/allow_udp = [ ]/' "$CONF"
halo --check --json
like "$(jq -r '.warnings[]?' <<<"$out")" 'RoCE v2 needs UDP port 4791 .*"eth-a"' \
	"a RoCE interface without UDP 4791: a warning naming the port"
conf false firewalld

# An edit by hand: drift, a diff, and apply puts it back.
sed -i 's/eth-c/eth-x/' "$ZONE"
halo --check --diff
is "$rc" 2 "an edited zone: check exit 2"
like "$out" '\+  <interface name="eth-c"/>' "--diff shows the line put back"
halo
is "$rc" 2 "apply repairs it"
grep -q 'name="eth-c"' "$ZONE"
ok $? "eth-c is back"

# Another zone binds eth-c: exit 1, the fix in one line, nothing changed.
cp /dev/stdin "$ROOT/etc/firewalld/zones/trusted.xml" <<'EOF2'
<?xml version="1.0" encoding="utf-8"?>
<zone target="ACCEPT">
  <short>Trusted</short>
  <!-- <interface name="eth-a"/> was here -->
  <interface name="eth-c"/>
  <forward/>
</zone>
EOF2
sed -i 's/6379/6380/' "$CONF"
snap=$(tree_snapshot "$ROOT")
halo
is "$rc" 1 "an interface bound to another zone: exit 1"
like "$err" 'interface eth-c is already bound to zone "trusted" .*firewall-cmd --permanent --zone=trusted --remove-interface=eth-c' \
	"the error names the zone and the fix"
is "$(grep -c . <<<"$err")" 1 "one line"
is "$(tree_snapshot "$ROOT")" "$snap" "nothing changed"
# A revert only removes our zone: the other zone's binding is not its concern.
halo --revert
is "$rc" 2 "--revert with eth-c in another zone: exit 2 (removed)"
is "$err" "" "... no error"
test ! -e "$ZONE"
ok $? "... our zone is removed"
test -e "$ROOT/etc/firewalld/zones/trusted.xml"
ok $? "... the other zone stays"
rm "$ROOT/etc/firewalld/zones/trusted.xml"
halo
is "$rc" 2 "the zone written again"

# A symlink at the path is refused, the target untouched.
rm "$ZONE"
echo keep >"$TEST_TMP/elsewhere"
ln -s "$TEST_TMP/elsewhere" "$ZONE"
halo
is "$rc" 1 "a symlink at the zone's path: exit 1"
like "$err" 'symlink' "the error says symlink"
is "$(cat "$TEST_TMP/elsewhere")" keep "the symlink's target is untouched"
rm "$ZONE"

# A hotplug run (--interface) leaves the zone to the full runs.
halo --interface eth-a --json
is "$rc/$(jq -r '[.items[] | select(.key | startswith("file/"))] | length' <<<"$out")" "0/0" \
	"--interface: exit 0, no zone item"

# backend = "none": nothing.
sed -i 's/backend = "firewalld"/backend = "none"/' "$CONF"
halo --json
is "$rc/$(jq -r '[.items[] | select(.subsystem == "files")] | length' <<<"$out")" "0/0" \
	"backend none: no files item"
test ! -e "$ZONE"
ok $? "backend none wrote nothing"

# No interfaces: nothing to put in a zone, said.
write_conf "$TEST_TMP/noif.conf" <<'EOF2'
version = 1;
firewall = { backend = "firewalld"; };
EOF2
run_halo -c "$TEST_TMP/noif.conf" --root "$ROOT" --only files --json
is "$rc" 0 "a firewall section without interfaces: exit 0"
like "$(jq -r '.warnings[]?' <<<"$out")" 'firewall: no interfaces are configured: no zone or table is written or checked' \
	"... and a warning says nothing is written"

# auto with neither installed: unsupported, with the reason.
rm -r "$ROOT/usr/lib/firewalld"
sed -i 's/backend = "none"/backend = "auto"/' "$CONF"
halo --json
is "$(item firewall/backend .outcome)" unsupported "auto without firewalld or nft: unsupported"
like "$(item firewall/backend .message)" 'neither firewalld .* nor nftables' "... saying why"

done_testing
