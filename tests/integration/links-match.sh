#!/bin/bash
# Matching by driver, PCI address and MAC with a fake sysfs under --root
# while netlink works in a namespace; links keep their names; exclusive
# addresses keep the IPv6 link-local; an existing address is success;
# routes; carrier; the NetworkManager unmanaged drop-in.
#
# The interplay: the set of links, their names, MACs and ifindexes come
# from netlink (inside --netns); driver and PCI address are read from
# <root>/sys/class/net/<name>/device{,/driver} by the link's name. A real
# host has both from the same kernel; here the fixture stands in for the
# NICs the namespace's veths pretend to be.
source "$top_srcdir/tests/lib/tap.sh"

NS=$(new_netns match) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ip -n "$NS" link add eth-a type veth peer name eth-b
ip -n "$NS" link add eth-c type veth peer name eth-d
ip -n "$NS" link set eth-b up
ROOT=$TEST_TMP/root
CONF=$ROOT/etc/halo-provision/halo.conf
mkdir -p "$ROOT/etc/halo-provision"

fake_nic eth-a 0000:c2:00.0 ice
fake_nic eth-c 0000:c2:00.1 ice
fake_nic eth-b 0000:01:00.0 r8169
readlink -f "$ROOT/sys/class/net/eth-a/device/driver" | grep -q '/drivers/ice$'
ok $? "fixture: eth-a/device/driver resolves to ice"

MAC_C=$(ip -n "$NS" -j link show eth-c | jq -r '.[0].address')
halo() { run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only links "$@"; }
item() { jq -r --arg k "$1" '.items[] | select(.key==$k) | '"$2" <<<"$out"; }

# Addresses there before the run: one listed (success, not an error), one
# unlisted IPv4 and one unlisted IPv6 (removed by exclusive_addresses).
ip -n "$NS" addr add 192.168.50.1/24 dev eth-a
ip -n "$NS" addr add 10.5.5.5/24 dev eth-a
ip -n "$NS" addr add 2001:db8::5/64 dev eth-a nodad
# Up before the run, so the kernel's fe80:: is there for the removal to spare.
ip -n "$NS" link set eth-a up
for _ in $(seq 50); do
	ip -n "$NS" -j addr show dev eth-a | jq -e '.[0].addr_info[] | select(.local | startswith("fe80:"))' >/dev/null && break
	sleep 0.1
done
is "$(ip -n "$NS" -j addr show dev eth-a | jq -r '[.[0].addr_info[] | select(.local | startswith("fe80:"))] | length')" \
	1 "fixture: eth-a has its IPv6 link-local before the run"

# NetworkManager's runtime state: it manages eth-a, knows eth-c unmanaged.
IDX_A=$(ip -n "$NS" -j link show eth-a | jq -r '.[0].ifindex')
IDX_C=$(ip -n "$NS" -j link show eth-c | jq -r '.[0].ifindex')
mkdir -p "$ROOT/run/NetworkManager/devices"
printf '[device]\nmanaged=true\nnm-owned=false\n' >"$ROOT/run/NetworkManager/devices/$IDX_A"
printf '[device]\nmanaged=false\n' >"$ROOT/run/NetworkManager/devices/$IDX_C"
DROPIN=$ROOT/etc/NetworkManager/conf.d/90-halo-provision-unmanaged.conf

write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "rdma0"; match = { driver = "ice"; pci = "0000:c2:00.0"; };
    mtu = 9000; addresses = [ "192.168.50.1/24" ]; exclusive_addresses = true;
    routes = ( { to = "10.20.0.0/16"; via = "192.168.50.254"; } ); },
  { name = "rdma1"; match = { mac = "@MAC_C@"; driver = "ice"; }; mtu = 4200; }
);
CONF
sed -i "s/@MAC_C@/$MAC_C/" "$CONF"

halo --json
is "$rc" 2 "apply: exit 2 (changed)"
[ -z "$err" ] || diag "$err"
is "$(ip -n "$NS" -j link show eth-a | jq -r '.[0].mtu')" 9000 "driver+pci matched eth-a: mtu 9000 (ip -j)"
is "$(ip -n "$NS" -j link show eth-c | jq -r '.[0].mtu')" 4200 "mac+driver matched eth-c: mtu 4200 (ip -j)"
is "$(ip -n "$NS" -j link show eth-b | jq -r '.[0].mtu')" 1500 "the r8169 link is untouched"
ip -n "$NS" link show rdma0 >/dev/null 2>&1
ok $(( $? == 0 )) "no link was renamed to rdma0"
like "$(item link/rdma0/present .message)" \
	'matched link eth-a by driver ice, pci 0000:c2:00.0; it keeps its name' \
	"the present item says the link's name differs"
is "$(item link/rdma0/present .observed)" eth-a "present: observed eth-a"
is "$(item link/rdma0/addr/192.168.50.1/24 .outcome)" ok "an address already there is success"
is "$(item link/rdma0/addr-extra .outcome)" changed "unlisted addresses removed"
like "$(item link/rdma0/addr-extra .message)" 'link-local fe80::/64 addresses are kept' \
	"addr-extra says the IPv6 link-local is kept"
is "$(ip -n "$NS" -j addr show dev eth-a | jq -r '[.[0].addr_info[] | select(.scope=="global") | "\(.local)/\(.prefixlen)"] | join(" ")')" \
	"192.168.50.1/24" "only the listed global address remains (ip -j)"
is "$(ip -n "$NS" -j addr show dev eth-a | jq -r '[.[0].addr_info[] | select(.local | startswith("fe80:"))] | length')" \
	1 "the IPv6 link-local is kept (ip -j)"
is "$(ip -n "$NS" -j route show 10.20.0.0/16 | jq -r '.[0] | "\(.gateway) \(.dev)"')" \
	"192.168.50.254 eth-a" "route via the gateway on eth-a (ip -j)"
is "$(item link/rdma1/up .message)" "no carrier (cable unplugged or peer down)" \
	"no carrier is reported as a fact"
is "$(item link/rdma1/up .outcome)" changed "... and the up item did not fail"
is "$(jq -r '.failed' <<<"$out")" false "nothing failed"

# The drop-in names exactly the link NetworkManager manages, appending
# ("+=") to any list the distribution's own conf.d files set.
is "$(grep -v '^#' "$DROPIN")" $'[keyfile]\nunmanaged-devices+=interface-name:eth-a' \
	"NetworkManager drop-in lists exactly eth-a"
head -1 "$DROPIN" | grep -q 'Managed by halo-provision'
ok $? "the drop-in carries the managed header"
is "$(python3 -c 'import configparser,sys; c=configparser.ConfigParser(); c.read(sys.argv[1]); print(c["keyfile"]["unmanaged-devices+"])' "$DROPIN")" \
	"interface-name:eth-a" "a keyfile parser reads the unmanaged-devices list"
like "$(item file/etc/NetworkManager/conf.d/90-halo-provision-unmanaged.conf .note)" \
	'NetworkManager manages eth-a' "the drop-in item says why"

# NetworkManager obeyed (its state now says unmanaged): stays in sync.
printf '[device]\nmanaged=false\n' >"$ROOT/run/NetworkManager/devices/$IDX_A"
halo
is "$rc" 0 "second apply: exit 0"
halo --check
is "$rc" 0 "check: clean"
[ "$rc" = 0 ] || diag "$out"

# After a reboot NetworkManager, installed, has no state yet: the drop-in
# must stay, or NetworkManager would take the link back.
rm -rf "$ROOT/run/NetworkManager"
mkdir -p "$ROOT/usr/sbin" && touch "$ROOT/usr/sbin/NetworkManager"
halo
is "$rc" 0 "NetworkManager without runtime state: the drop-in stays (exit 0)"
test -e "$DROPIN"
ok $? "the drop-in is still there"

# NetworkManager uninstalled: the stale drop-in goes.
rm -f "$ROOT/usr/sbin/NetworkManager"
halo
is "$rc" 2 "NetworkManager gone: apply removes the drop-in (exit 2)"
test ! -e "$DROPIN"
ok $? "the drop-in is gone"
halo
is "$rc" 0 "and then nothing more to do"

# Every interface leaves the config: the drop-in goes with them.
mkdir -p "$ROOT/run/NetworkManager/devices"
printf '[device]\nmanaged=true\nnm-owned=false\n' >"$ROOT/run/NetworkManager/devices/$IDX_A"
halo
is "$rc" 2 "NetworkManager manages eth-a again: the drop-in is back (exit 2)"
test -e "$DROPIN"
ok $? "the drop-in is there before the interfaces leave"
cp "$CONF" "$TEST_TMP/with-interfaces.conf"
write_conf "$CONF" <<<'version = 1;'
halo
is "$rc" 2 "no interface left in the config: apply removes the drop-in (exit 2)"
test ! -e "$DROPIN"
ok $? "the drop-in is gone with the interfaces"
cp "$TEST_TMP/with-interfaces.conf" "$CONF"
rm -rf "$ROOT/run/NetworkManager"

# A key that does not hold excludes the link.
sed -i 's/0000:c2:00.0/0000:c2:00.7/' "$CONF"
halo
is "$rc" 1 "pci key that no link has: exit 1"
like "$err" 'interface "rdma0": no link matches driver ice, pci 0000:c2:00.7' "... naming the entry and keys"

# A route the kernel refuses fails its item at apply time, with the
# kernel's own reason; the rest is applied. rdma1 lists no IPv4 address,
# so the config loader cannot judge an IPv4 gateway (it may come from
# elsewhere) and accepts it; the kernel has no connected route to it.
sed -i -e 's/0000:c2:00.7/0000:c2:00.0/' \
	-e 's|mtu = 4200; }|mtu = 4300; routes = ( { to = "10.30.0.0/16"; via = "10.99.0.1"; } ); }|' "$CONF"
grep -q 'via = "10.99.0.1"' "$CONF"
ok $? "fixture: rdma1 has a route via an unreachable gateway"
halo --json
is "$rc" 6 "invalid gateway: exit 6 (changed + failed)"
is "$(jq -c '[.items[] | select(.outcome=="failed") | .key]' <<<"$out")" \
	'["link/rdma1/route/10.30.0.0/16"]' "only the route item failed"
like "$(item link/rdma1/route/10.30.0.0/16 .message)" \
	'route to 10\.30\.0\.0/16 on eth-c \(kernel: Nexthop has invalid gateway\): Network is unreachable' \
	"the failure carries the kernel's extended ack"
is "$(ip -n "$NS" -j link show eth-c | jq -r '.[0].mtu')" 4300 "the other changes were applied"

done_testing
