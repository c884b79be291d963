#!/bin/bash
# Bad input for the links subsystem: each case exits 1 with one line on
# stderr, and nothing changes, neither in the namespaces (ip -j link/addr
# before and after) nor under --root (tree_snapshot). A --check reports
# an entry no link matches as a failed item instead (an audit).
source "$top_srcdir/tests/lib/tap.sh"

NS=$(new_netns bad) && OTHER=$(new_netns bad-peer) || {
	echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ip -n "$NS" link add rdma0 type veth peer name rdma0 netns "$OTHER"
ip -n "$NS" link add rdma1 type veth peer name rdma1 netns "$OTHER"
ip -n "$NS" link add twin0 address 02:00:00:00:00:77 type veth peer name twin1 \
	address 02:00:00:00:00:77
ip -n "$NS" link add other0 type veth peer name other1
ip -n "$NS" addr add 10.9.9.1/24 dev other0
ip -n "$NS" link set other0 up && ip -n "$NS" link set other1 up
# Another link's route, which applying a configured one must never replace.
ip -n "$NS" route add 10.0.2.0/24 via 10.9.9.254
# And an IPv6 one without a metric, which the kernel gives 1024, as it
# gives a configured route without one.
ip -n "$NS" -6 route add fd01::/64 dev other0
# A tap's own maximum MTU is 65521 (veth, bridge, macvlan: 65535, and the
# config already stops at 65535).
ip -n "$NS" tuntap add tap0 mode tap
ip -n "$NS" link set rdma0 mtu 1600

ROOT=$TEST_TMP/root
CONF=$ROOT/etc/halo-provision/halo.conf
mkdir -p "$ROOT/etc/halo-provision"
halo() { run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only links "$@"; }

# A first, valid run creates the lock file and state so the snapshots below
# compare like with like.
write_conf "$CONF" <<<'version = 1;'
halo
is "$rc" 0 "an empty config changes nothing"

net_state() {
	for ns in "$NS" "$OTHER"; do
		ip -n "$ns" -j link show | jq -S -c 'map(del(.operstate, .linkmode))'
		ip -n "$ns" -j addr show | jq -S -c '[.[] | {ifname, mtu, flags, addr_info: [.addr_info[] | {local, prefixlen}]}]'
		ip -n "$ns" -j route show | jq -S -c .
		ip -n "$ns" -j -6 route show | jq -S -c .
	done
}

bad_case() { # bad_case DESC REGEX INTERFACES-LIST
	local desc=$1 regex=$2 before_net before_tree
	write_conf "$CONF" <<-CONF
	version = 1;
	interfaces = ( $3 );
	CONF
	before_net=$(net_state)
	before_tree=$(tree_snapshot "$ROOT")
	local modes=("" --check --dry-run)
	[ -z "${NO_CHECK:-}" ] || modes=("" --dry-run)
	for mode in "${modes[@]}"; do
		halo $mode
		is "$rc" 1 "$desc${mode:+ ($mode)}: exit 1"
	done
	halo
	is "$(printf '%s\n' "$err" | wc -l)" 1 "$desc: one line on stderr"
	like "$err" "$regex" "$desc: the line says why"; diag "$err"
	is "$(net_state)" "$before_net" "$desc: no namespace changed (ip -j)"
	is "$(tree_snapshot "$ROOT")" "$before_tree" "$desc: nothing written under --root"
}

bad_case "mtu above the device maximum" \
	'interface "rdma0": mtu 65530 is outside the range of tap0 \(68\.\.65521\)' \
	'{ name = "rdma0"; match = { mac = "'"$(ip -n "$NS" -j link show tap0 | jq -r '.[0].address')"'"; }; mtu = 65530; }'

NO_CHECK=1 bad_case "unknown interface" \
	'halo\.conf:3: interface "rdma9": no link matches name rdma9' \
	'{ name = "rdma0"; mtu = 9000; },
	 { name = "rdma9"; mtu = 9000; }'

# An audit of a node whose NIC is gone (or a name no link has): a failed
# item that the textfile carries like any other failure, the rest still
# checked, nothing changed.
write_conf "$CONF" <<'CONF'
version = 1;
interfaces = ( { name = "rdma0"; mtu = 9000; }, { name = "rdma9"; mtu = 9000; } );
firewall = { backend = "nftables"; };
sysctl = { multi_nic = "on"; };
state = { prometheus = "/var/lib/node-exporter/halo.prom"; };
CONF
mkdir -p "$ROOT/var/lib/node-exporter" "$ROOT/proc/sys/net/ipv4/conf/rdma0"
for k in arp_ignore arp_announce rp_filter; do echo 0 >"$ROOT/proc/sys/net/ipv4/conf/rdma0/$k"; done
before_net=$(net_state)
# Every subsystem: only a full run writes the textfile.
run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --check --json
is "$rc" 6 "--check, rdma9 has no link: drift + failed (exit 6)"
is "$err" "" "... nothing on stderr"
is "$(jq -r '.items[] | select(.key=="link/rdma9/present") | .outcome' <<<"$out")" failed \
	"... link/rdma9/present failed"
like "$(jq -r '.items[] | select(.key=="link/rdma9/present") | .message' <<<"$out")" \
	'no link matches name rdma9 \(gone, renamed or replaced\): No such device' "... saying why"
is "$(jq -r '.items[] | select(.key=="link/rdma0/mtu") | .outcome' <<<"$out")" drift \
	"... rdma0 is still checked (its MTU drifts)"
like "$(cat "$ROOT/var/lib/node-exporter/halo.prom")" \
	'halo_item_in_sync\{key="link/rdma9/present",subsystem="links"\} 0' \
	"... and the textfile carries the failed item"
is "$(jq -r '.warnings[]' <<<"$out" | sort)" \
	'firewall: interface "rdma9" has no link: /etc/nftables.d/halo-provision.nft is not written or checked
sysctl: interface rdma9 has no link: its keys and /etc/sysctl.d/90-halo-provision.conf are not applied or checked' \
	"... the firewall's and sysctl's warnings say it has no link (not \"yet\")"
is "$(net_state)" "$before_net" "... no namespace changed"
run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --revert --dry-run --json
is "$(jq -r '[.warnings[] | select(test("not (written|applied) or checked"))] | length' <<<"$out")" 0 \
	"... a revert holds nothing back: it removes those files whatever they list"
like "$(jq -r '.items[] | select(.key == "file/etc/sysctl.d/90-halo-provision.conf") | .wanted' <<<"$out")" \
	'^absent' "... the sysctl drop-in is planned, for removal"
halo --dry-run
is "$rc" 1 "--dry-run of the same config: still a config error (exit 1)"
rm -rf "$ROOT/var/lib/node-exporter" "$ROOT/proc"

bad_case "two entries match one link" \
	'interfaces "rdma0" \(line 2\) and "fast" both match link rdma0' \
	'{ name = "rdma0"; mtu = 9000; },
	 { name = "fast"; match = { mac = "'"$(ip -n "$NS" -j link show rdma0 | jq -r '.[0].address')"'"; }; mtu = 9000; }'

bad_case "one entry matches two links" \
	'interface "twin": mac 02:00:00:00:00:77 matches 2 links \((twin1, twin0|twin0, twin1)\)' \
	'{ name = "twin"; match = { mac = "02:00:00:00:00:77"; }; mtu = 9000; }'

bad_case "malformed CIDR" \
	'192\.168\.100\.300/30' \
	'{ name = "rdma0"; addresses = [ "192.168.100.300/30" ]; }'

bad_case "an address duplicated across interfaces" \
	'192\.168\.100\.1' \
	'{ name = "rdma0"; addresses = [ "192.168.100.1/30" ]; },
	 { name = "rdma1"; addresses = [ "192.168.100.1/30" ]; }'

bad_case "an address already on another link of the host" \
	'interface "rdma0": address 10\.9\.9\.1/24 is already on link other0' \
	'{ name = "rdma0"; mtu = 9000; addresses = [ "10.9.9.1/24" ]; }'

bad_case "a route that would replace another link's route" \
	'link/rdma0/route/10\.0\.2\.0/24: another route to the same destination and metric exists \(10\.0\.2\.0/24 via 10\.9\.9\.254 dev other0\)' \
	'{ name = "rdma0"; addresses = [ "192.168.60.1/24" ];
	   routes = ( { to = "10.0.2.0/24"; via = "192.168.60.2"; } ); }'
is "$(ip -n "$NS" -j route show 10.0.2.0/24 | jq -r '.[0].dev')" other0 \
	"the other link's route is still there"

bad_case "an IPv6 route that would replace another link's route" \
	'link/rdma0/route/fd01::/64: another route to the same destination and metric exists \(fd01::/64 dev other0 metric 1024\)' \
	'{ name = "rdma0"; addresses = [ "fd02::1/64" ]; routes = ( { to = "fd01::/64"; } ); }'
is "$(ip -n "$NS" -j -6 route show fd01::/64 | jq -r '[.[].dev] | join(" ")')" other0 \
	"the other link's IPv6 route is still there, and only there"

# --root without --netns would mean this machine's own links: refused.
host_before=$(ip -j link show)
write_conf "$CONF" <<<'version = 1; interfaces = ( { name = "lo"; mtu = 1500; } );'
run_halo -c "$CONF" --root "$ROOT" --only links
is "$rc" 1 "--root without --netns: exit 1"
like "$err" "links: --root $ROOT is a tree, not this machine's network: add --netns NAME" \
	"--root without --netns: says why"
is "$(ip -j link show)" "$host_before" "--root without --netns: the host's links untouched"

# --netns naming a namespace that does not exist.
write_conf "$CONF" <<<'version = 1; interfaces = ( { name = "rdma0"; mtu = 9000; } );'
run_halo -c "$CONF" --root "$ROOT" --netns "halo-no-such-ns-$$" --only links
is "$rc" 1 "unknown --netns: exit 1"
like "$err" "--netns halo-no-such-ns-$$: /run/netns/halo-no-such-ns-$$: No such file" \
	"unknown --netns: says which and why"

done_testing
