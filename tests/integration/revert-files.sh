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

done_testing
