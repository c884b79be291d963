#!/bin/bash
# revert-files: --revert of the owned files other items wrap (the firewall
# zone or table: its item reloads the firewall after a write, around an
# owned-file item of the same key): removed by the header rule like any
# owned file, never reported as runtime state left as is; a zone file the
# operator took over (no header) is left.
source "$top_srcdir/tests/lib/tap.sh"

NS=$(new_netns rvf) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ip -n "$NS" link add eth-a type veth peer name eth-b
ROOT=$TEST_TMP/root
mkdir -p "$ROOT/etc/halo-provision" "$ROOT/sys/class/net"
CONF=$ROOT/etc/halo-provision/halo.conf
write_conf "$CONF" <<'EOF2'
version = 1;
interfaces = ( { name = "eth-a"; } );
firewall = { backend = "firewalld"; };
EOF2
ZONE=$ROOT/etc/firewalld/zones/halo-rdma.xml
KEY=file/etc/firewalld/zones/halo-rdma.xml
halo() { run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only links,files "$@"; }
item() { jq -r --arg k "$1" '.items[] | select(.key==$k) | '"$2" <<<"$out"; }

halo
is "$rc" 2 "apply writes the zone: exit 2"
ok "$([ -f "$ZONE" ]; echo $?)" "the zone file is there"

before=$(tree_snapshot "$ROOT")
halo --dry-run --revert --json
is "$(item "$KEY" .outcome)" drift "dry-run revert: the zone would be removed (drift)"
is "$(item "$KEY" .wanted)" absent "... wanted absent, not 'left as is'"
is "$(tree_snapshot "$ROOT")" "$before" "dry-run revert changes nothing"

halo --revert --json
is "$rc" 2 "revert: exit 2"
is "$(item "$KEY" .outcome)" changed "the zone item is changed"
ok "$([ ! -e "$ZONE" ]; echo $?)" "the zone file is gone"

# Taken over by the operator (header removed): left.
halo
sed -i '/Managed by halo-provision/d' "$ZONE"
halo --revert --json
is "$(item "$KEY" .outcome)" ok "a zone without the header: ok"
like "$(item "$KEY" .message)" "not ours" "... said not ours"
ok "$([ -f "$ZONE" ]; echo $?)" "... and left in place"

# A hand-edited state that records the zone's path under a second key:
# the path is the zone item's to revert, not a second claim on it.
rm -f "$ZONE"
halo
STATE=$ROOT/var/lib/halo-provision/state.json
jq '.items += [{"key": "file/etc/hand-edited", "subsystem": "files",
	"path": "/etc/firewalld/zones/halo-rdma.xml", "wanted": "x", "observed": "x",
	"outcome": "ok", "message": null}]' "$STATE" >"$TEST_TMP/state" && cat "$TEST_TMP/state" >"$STATE"
halo --revert --json
is "$rc" 2 "a path recorded under two keys: revert exit 2"
is "$err" "" "... and nothing on stderr"
is "$(item "$KEY" .outcome)" changed "... the zone item removes it"
ok "$([ ! -e "$ZONE" ]; echo $?)" "... and the zone file is gone"

# A section taken out of the config: its files stay (an absent section
# leaves its part of the host alone), reported and still recorded, so a
# later --revert removes them.
rm -f "$ZONE" "$STATE"
write_conf "$CONF" <<'EOF2'
version = 1;
interfaces = ( { name = "eth-a"; } );
firewall = { backend = "firewalld"; };
access = { memlock = "unlimited"; };
EOF2
halo
is "$rc" 2 "with access.memlock: exit 2"
LIMITS=$ROOT/etc/security/limits.d/90-halo-provision.conf
LKEY=file/etc/security/limits.d/90-halo-provision.conf
write_conf "$CONF" <<'EOF2'
version = 1;
interfaces = ( { name = "eth-a"; } );
firewall = { backend = "firewalld"; };
EOF2
halo --json
is "$rc" 0 "access taken out: exit 0, nothing changed"
is "$(item "$LKEY" .outcome)" ok "... the limits file's item is ok"
is "$(item "$LKEY" .wanted)" "left as is (no longer in the config)" "... wanted left as is"
is "$(item "$LKEY" .message)" "--revert removes it" "... and says --revert removes it"
ok "$([ -f "$LIMITS" ]; echo $?)" "... the file is still there"
is "$(jq -r --arg k "$LKEY" '.items[] | select(.key==$k) | .path' "$STATE")" \
	/etc/security/limits.d/90-halo-provision.conf "... and the state file still records it"
before=$(cat "$STATE")
halo --check
is "$rc" 0 "--check: in sync"
halo
is "$(cat "$STATE")" "$before" "a second apply rewrites nothing"
run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only links --json
is "$(item "$LKEY" .key)" "" "--only links: no files item"
is "$(jq -r --arg k "$LKEY" '.items[] | select(.key==$k) | .key' "$STATE")" "$LKEY" \
	"... and the record stays"

# One taken over by the operator is no longer ours to record.
SYSTEM=$ROOT/etc/systemd/system.conf.d/90-halo-provision.conf
sed -i '/Managed by halo-provision/d' "$SYSTEM"
halo
is "$(jq -r '.items[] | select(.key=="file/etc/systemd/system.conf.d/90-halo-provision.conf") | .key' "$STATE")" \
	"" "a file that lost its header leaves the state file"

halo --revert --json
is "$rc" 2 "revert: exit 2"
is "$(item "$LKEY" .outcome)" changed "... removes the limits file"
ok "$([ ! -e "$LIMITS" ]; echo $?)" "... which is gone"
ok "$([ ! -e "$ROOT/etc/systemd/user.conf.d/90-halo-provision.conf" ]; echo $?)" \
	"... and so is the user manager's"
ok "$([ -f "$SYSTEM" ]; echo $?)" "... the one taken over stays"

# A revert of some subsystems forgets what it undid and keeps the record
# of the rest.
halo
is "$(jq '[.items[] | select(.subsystem=="files")] | length' "$STATE")" 1 \
	"apply: the state file records the zone (files)"
run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only files --revert --json
is "$rc" 2 "--revert --only files: exit 2"
is "$(jq -r '.mode, .revert' <<<"$out" | tr '\n' ' ')" "apply true " \
	"... its document says it is a revert"
is "$(jq '[.items[] | select(.subsystem=="files")] | length' "$STATE")" 0 \
	"... the state file no longer records the files items"
is "$(jq -c '.reverted' "$STATE")" '["files"]' "... and says a revert of files wrote it"
run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --status
like "$out" "mode +revert of files \(--only\), recorded " "... which --status says"
run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --status -q
like "$out" "^revert: " "... --status -q too"
run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only links
is "$(jq -c '.reverted' "$STATE")" '["files"]' "an apply of links keeps saying files were reverted"
run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --status --json
is "$rc" 0 "... (--status --json: exit 0)"
halo
is "$(jq -c '.reverted' "$STATE")" null "the next apply of files makes the state file an apply's again"
# Only the subsystems the file had items of count as reverted.
run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only files,boot,ready --revert
is "$(jq -c '.reverted' "$STATE")" '["files"]' "--revert --only files,boot,ready: files alone reverted"
# A state file this version cannot read is never rewritten by a partial
# revert (its records would be lost).
jq '.schema_version = 2' "$STATE" >"$TEST_TMP/s2" && cat "$TEST_TMP/s2" >"$STATE"
run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only links --revert
is "$(cat "$STATE")" "$(cat "$TEST_TMP/s2")" "a partial revert leaves a state file of another schema as it is"
rm -f "$STATE"
halo
run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only files --revert
ok "$(jq -e '[.items[] | select(.subsystem=="links")] | length > 0' "$STATE" >/dev/null; echo $?)" \
	"... and still records the links items"
rm -f "$STATE"
run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only files --revert
ok "$([ ! -e "$STATE" ]; echo $?)" "a partial revert without a state file creates none"
echo '{"mine": true}' >"$STATE"
run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only files --revert
is "$(cat "$STATE")" '{"mine": true}' "... and leaves a file that is not ours at that path alone"
rm -f "$STATE"

# A state file this version cannot read (cut short): the files it records
# are unknown to the run, and a warning says so rather than nothing.
halo
head -c 200 "$STATE" >"$TEST_TMP/cut" && cat "$TEST_TMP/cut" >"$STATE"
halo --check --json
is "$rc" 0 "a state file cut short: --check still in sync"
is "$(jq -r '.warnings[] | select(startswith("state file"))' <<<"$out")" \
	"state file $ROOT/var/lib/halo-provision/state.json is not a halo-provision state file this version reads (unparsable, cut short, foreign or another schema): the files it records are unknown to this run, so --revert will not remove them" \
	"... and warns that the files it records are unknown"
halo --json
is "$(jq -r '[.warnings[] | select(startswith("state file"))] | length' <<<"$out")" 1 \
	"... the apply that replaces it warns too"
halo --check --json
is "$(jq -r '[.warnings[] | select(startswith("state file"))] | length' <<<"$out")" 0 \
	"... and once replaced, no warning"
rm -f "$STATE"

done_testing
