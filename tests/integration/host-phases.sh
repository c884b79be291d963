#!/bin/bash
# Phased planning: a link that appears only once the
# modules phase has loaded its driver is planned in the same run. The
# trap renames a down veth to the configured name when "ice" is loaded
# (HALO_TRAP_NETDEV), the way a driver registers its netdev.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/integration/modules-lib.sh"

NS=$(new_netns phases) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
fresh() {
	mkfx
	ip -n "$NS" link del ice0 2>/dev/null
	ip -n "$NS" link del pre0 2>/dev/null
	ip -n "$NS" link add pre0 type veth peer name peer0
	ip -n "$NS" link set peer0 up
}
write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "ice" ]; persist = false; };
interfaces = (
  { name = "ice0"; mtu = 9000; addresses = [ "192.168.77.1/24" ]; }
);
CONF
export HALO_TRAP_NETDEV=ice:pre0:ice0
mtu() { ip -n "$NS" -j link show "$1" 2>/dev/null | jq -r '.[0].mtu'; }

fresh
before=$(tree_snapshot "$FX")
run_trap --netns "$NS" --check --json
is "$rc" 2 "check: drift (exit 2), not a config error"
is "$err" "" "check: no error line"
is "$(item link/ice0/present outcome)" drift "check: link/ice0/present is drift"
like "$(item link/ice0/present message)" 'pending on the modules phase' \
	"check: the missing link is pending on the modules phase"
is "$(item module/ice outcome)" drift "check: module/ice drift"
is "$(loads)" "" "check loads nothing"
is "$(tree_snapshot "$FX")" "$before" "check writes nothing"
ip -n "$NS" link show pre0 >/dev/null 2>&1
ok $? "check: the device has not appeared"

run_trap --netns "$NS" --dry-run --json
is "$rc" 2 "dry-run: exit 2"
is "$(item link/ice0/present outcome)" drift "dry-run: pending link is drift"

run_trap --netns "$NS" --json
is "$rc" 2 "apply: changed (exit 2), no failure"
[ -z "$err" ] || diag "$err"
is "$(loads)" "ice_helper ice" "apply loaded ice"
grep -q '^netdev ice pre0 ice0$' "$FX/trap.log"
ok $? "loading ice brought the link ice0"
is "$(item link/ice0/present outcome)" ok "link/ice0/present planned after the modules phase: ok"
is "$(item link/ice0/mtu outcome)" changed "link/ice0/mtu changed in the same run"
is "$(mtu ice0)" 9000 "ice0 has mtu 9000 (ip -j)"
ip -n "$NS" -j addr show dev ice0 | jq -e '.[0].addr_info[] | select(.local == "192.168.77.1")' >/dev/null
ok $? "ice0 has 192.168.77.1 (ip -j)"
is "$(jq -r '[.items[] | select(.key == "link/ice0/present")] | length' <<<"$out")" 1 \
	"the report has the link once (the pending item was replaced)"

run_trap --netns "$NS" --json
is "$rc" 0 "second apply: nothing to do (exit 0)"
run_trap --netns "$NS" --check
is "$rc" 0 "check after apply: clean"

# The module loads but no device appears: the run has changed the host,
# so this is a failed item (exit 4), not a config error.
fresh
export HALO_TRAP_NETDEV=
run_trap --netns "$NS" --json
is "$rc" 6 "apply, device never appears: changed + failed (exit 6)"
is "$(item module/ice outcome)" changed "the module was loaded"
is "$(item link/ice0/present outcome)" failed "link/ice0/present failed"
like "$(item link/ice0/present message)" 'no link matches name ice0, even after the modules phase applied' \
	"the failure says the link never came"

# Nothing to load and no such link: a config error before any change.
run_trap --netns "$NS" --json
is "$rc" 1 "module already loaded, link missing: exit 1"
like "$err" 'interface "ice0": no link matches name ice0' "one line names the entry"

# A section taken out in an apply whose link never comes (exit 6): the
# file it left is still recorded, so a later --revert removes it.
fresh
export HALO_TRAP_NETDEV=ice:pre0:ice0
write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "ice" ]; persist = false; };
interfaces = ( { name = "ice0"; } );
access = { memlock = "unlimited"; };
firewall = { backend = "nftables"; };
CONF
run_trap --netns "$NS" --json
is "$rc" 2 "apply with access.memlock: exit 2"
LKEY=file/etc/security/limits.d/90-halo-provision.conf
STATE=$FX/var/lib/halo-provision/state.json
recorded() { jq -r --arg k "$LKEY" '.items[] | select(.key == $k) | .path' "$STATE"; }
is "$(recorded)" /etc/security/limits.d/90-halo-provision.conf "the state file records the limits file"
# The module unloaded and its device gone, as after a reboot without them.
rm -rf "$FX/sys/module/ice" "$FX/sys/module/ice_helper"
ip -n "$NS" link del ice0
ip -n "$NS" link add pre0 type veth peer name peer0
export HALO_TRAP_NETDEV=
write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "ice" ]; persist = false; };
interfaces = ( { name = "ice0"; } );
firewall = { backend = "nftables"; };
CONF
run_trap --netns "$NS" --json
is "$rc" 6 "access taken out, device never appears: exit 6"
is "$(item link/ice0/present outcome)" failed "... link/ice0/present failed"
is "$(item "$LKEY" outcome)" ok "... the limits file has its item"
is "$(item "$LKEY" wanted)" "left as is (no longer in the config)" \
	"... left as is: it is no longer in the config"
is "$(recorded)" /etc/security/limits.d/90-halo-provision.conf "... and the state file still records it"
ok "$([ -f "$FX/etc/security/limits.d/90-halo-provision.conf" ]; echo $?)" "... which is still there"
NFT=file/etc/nftables.d/halo-provision.nft
is "$(item "$NFT" wanted)" "left as is (held back in this run, as a warning says)" \
	"... the firewall file, held back, is left as is for that reason"
is "$(printf '%s' "$out" | jq -r '.warnings[] | select(startswith("firewall:"))')" \
	'firewall: interface "ice0" has no link: /etc/nftables.d/halo-provision.nft is not written or checked' \
	"... its warning: no link, not \"no link yet\", after the modules phase"
is "$(jq -r --arg k "$NFT" '.items[] | select(.key == $k) | .path' "$STATE")" \
	/etc/nftables.d/halo-provision.nft "... and the state file still records it"

done_testing
