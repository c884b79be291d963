#!/bin/bash
# What the kernel does around an address change, on a real veth pair:
# - with exclusive_addresses, the link's only IPv4 address under a new
#   prefix is replaced by its addr item (new first), never removed first:
#   removing a link's last IPv4 address takes every IPv4 route of the link
#   with it (net/ipv4/fib_frontend.c fib_inetaddr_event);
# - an unlisted point-to-point address is removed (by its peer);
# - one IPv4 address held under two prefixes is drift, and apply leaves
#   the configured one, unless removing the other would take another
#   tool's secondary address with it;
# - a route outranked on its link by another to the same destination
#   with a lower metric is drift, and apply removes that one; one on
#   another link is named on the line and left alone;
# - an IPv6 address whose duplicate address detection failed is drift
#   (the kernel keeps it listed, flagged dadfailed, unusable), and apply
#   adds it anew, which starts the detection again.
source "$top_srcdir/tests/lib/tap.sh"

NS=$(new_netns addrk) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
# eth-b is the other host, in a namespace of its own.
PEER=$(new_netns addrk-peer) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ip -n "$NS" link add eth-a type veth peer name eth-b netns "$PEER"
ip -n "$NS" link set eth-a up
ip -n "$PEER" link set eth-b up
ROOT=$TEST_TMP/root
CONF=$ROOT/etc/halo-provision/halo.conf
mkdir -p "$ROOT/etc/halo-provision"
item() { jq -r --arg k "$1" '.items[] | select(.key==$k) | '"$2" <<<"$out"; }
halo() { run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only links --json "$@"; }
global() { ip -n "$NS" -j addr show dev "$1" |
	jq -r '[.[0].addr_info[] | select(.scope=="global") | "\(.local)/\(.prefixlen)"] | sort | join(" ")'; }
routes() { ip -n "$NS" -j route show dev eth-a | jq -r '[.[] | select(.gateway) | "\(.dst) via \(.gateway)"] | join(" ")'; }

# ---- the only IPv4 address, a new prefix, a route through it
ip -n "$NS" addr add 10.7.0.1/24 dev eth-a
ip -n "$NS" route add 10.9.0.0/16 via 10.7.0.254 dev eth-a
write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "eth-a"; addresses = [ "10.7.0.1/16" ]; exclusive_addresses = true; }
);
CONF
halo --check
is "$rc" 2 "check: drift"
is "$(item link/eth-a/addr-extra .outcome)" ok "addr-extra: the old prefix is the addr item's to replace"
is "$(item link/eth-a/addr/10.7.0.1/16 .outcome)" drift "addr: drift"
halo
is "$rc" 2 "apply: exit 2"
is "$(global eth-a)" "10.7.0.1/16" "10.7.0.1/16 only (ip -j)"
is "$(routes)" "10.9.0.0/16 via 10.7.0.254" "the route through the link survived the change (ip -j)"
is "$(item link/eth-a/addr-extra .outcome)" ok "addr-extra: nothing to remove"

# ---- an unlisted point-to-point address: the kernel knows it by its
# peer (inet_rtm_deladdr matches IFA_ADDRESS), so the removal sends that.
ip -n "$NS" addr add 10.8.0.1 peer 10.8.0.2/32 dev eth-a
halo --check
is "$(item link/eth-a/addr-extra .observed)" "10.8.0.1/32" "addr-extra sees the peer address"
halo
is "$rc" 2 "apply: exit 2"
is "$(item link/eth-a/addr-extra .outcome)" changed "addr-extra: changed"
is "$(global eth-a)" "10.7.0.1/16" "the peer address is gone (ip -j)"

# ---- one refused removal keeps neither the others nor quiet
# The refusal is strace's (the kernel refuses no such delete): the sendto
# that carried a traced run's first RTM_DELADDR (0x15), the same request
# in the same order on the same addresses again.
extras() {
	ip -n "$NS" addr add 10.5.0.1/24 dev eth-a
	ip -n "$NS" addr add 10.6.0.1/24 dev eth-a
}
sends() {
	out=$(ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" \
		strace -f -qq -e trace=sendto "$@" \
		"$HALO" -c "$CONF" --root "$ROOT" --netns "$NS" --only links --json 2>"$TEST_TMP/stderr")
	rc=$?
}
extras
sends -o "$TEST_TMP/sends"
is "$rc" 2 "two extra addresses: apply exit 2"
k=$(grep -E '^[0-9]+ +sendto\(' "$TEST_TMP/sends" | grep -nE 'nlmsg_type=(RTM_DELADDR|0x15)[ ,]' | head -n 1 | cut -d: -f1)
like "$k" '^[0-9]+$' "the first RTM_DELADDR is sendto number $k"
extras
sends -o /dev/null -e inject=sendto:error=ENOBUFS:when="$k"
is "$rc" 6 "the first removal refused: exit 6 (changed, failed)"
is "$(item link/eth-a/addr-extra .outcome)" failed "addr-extra: failed"
is "$(item link/eth-a/addr-extra .message)" "removing 10.5.0.1/24 from eth-a: No buffer space available" \
	"the line names the refused one"
is "$(global eth-a)" "10.5.0.1/24 10.7.0.1/16" "the other extra address is removed all the same (ip -j)"
ip -n "$NS" addr del 10.5.0.1/24 dev eth-a
extras
sends -o /dev/null -e inject=sendto:error=ENOBUFS:when="$k..$((k + 1))"
is "$rc" 4 "both removals refused: exit 4 (failed, nothing changed)"
is "$(item link/eth-a/addr-extra .message)" \
	"removing 10.5.0.1/24 from eth-a: No buffer space available; 1 more refused" \
	"the line names the first and counts the others"
halo
is "$(global eth-a)" "10.7.0.1/16" "the next apply removes the refused ones (ip -j)"

# ---- one IPv4 address under two prefixes
write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "eth-a"; addresses = [ "10.7.0.1/16" ]; }
);
CONF
ip -n "$NS" addr add 10.7.0.1/24 dev eth-a
halo --check
is "$rc" 2 "two prefixes: drift"
is "$(item link/eth-a/addr/10.7.0.1/16 .message)" "also 10.7.0.1/24, which apply removes" \
	"the line names the other prefix"
halo
is "$rc" 2 "apply: exit 2"
is "$(global eth-a)" "10.7.0.1/16" "10.7.0.1/16 only (ip -j)"
halo --check
is "$rc" 0 "then in sync"

# ---- the old prefix a point-to-point address: removed by its peer too
ip -n "$NS" addr flush dev eth-a scope global
ip -n "$NS" addr add 10.7.0.1 peer 10.7.0.2/32 dev eth-a
halo
is "$rc" 2 "an old peer prefix: apply exit 2"
is "$(global eth-a)" "10.7.0.1/16" "the peer address is replaced (ip -j)"

# ---- a new prefix for a primary address that holds a secondary
# 10.7.0.50/24 is another tool's (a VIP): removing its primary 10.7.0.1/24
# removes it too unless the link promotes secondaries (net/ipv4/devinet.c
# __inet_del_ifa). A namespace takes net.ipv4.conf.all and default from
# the host's (devinet_init_net), so they are set here.
for k in all default eth-a; do ip netns exec "$NS" sysctl -qw "net.ipv4.conf.$k.promote_secondaries=0"; done
# The run reads net.ipv4.conf.all from the root's /proc/sys: khalo gives
# it the kernel's own, the namespace's /proc/sys/net bind-mounted there
# (in the private mount namespace of `ip netns exec`: nothing outlives
# the command); halo's root has none to read.
mkdir -p "$ROOT/proc/sys/net"
khalo() {
	out=$(ip netns exec "$NS" bash -c 'mount --bind /proc/sys/net "$1/proc/sys/net" && shift && exec "$@"' \
		_ "$ROOT" "$HALO" -c "$CONF" --root "$ROOT" --netns "$NS" --only links --json "$@" \
		2>"$TEST_TMP/stderr")
	rc=$?
	err=$(cat "$TEST_TMP/stderr")
}
ip -n "$NS" addr flush dev eth-a scope global
ip -n "$NS" addr add 10.7.0.1/24 dev eth-a
ip -n "$NS" addr add 10.7.0.50/24 dev eth-a
khalo --check
is "$(item link/eth-a/addr/10.7.0.1/16 .message)" null "a secondary's primary: no line before the new prefix is there"
khalo
is "$rc" 6 "apply: exit 6 (changed, failed)"
is "$(item link/eth-a/addr/10.7.0.1/16 .message)" \
	"removing 10.7.0.1/24 from eth-a: left in place: the kernel would remove 10.7.0.50/24 with it (its secondary address), as net.ipv4.conf.{all,eth-a}.promote_secondaries are 0" \
	"the line says why the old prefix stays"
is "$(global eth-a)" "10.7.0.1/16 10.7.0.1/24 10.7.0.50/24" "the secondary is still there (ip -j)"
khalo --check
is "$rc" 2 "check: drift"
is "$(item link/eth-a/addr/10.7.0.1/16 .message)" \
	"also 10.7.0.1/24, which apply leaves: it would take 10.7.0.50/24 with it (net.ipv4.conf.{all,eth-a}.promote_secondaries are 0)" \
	"the check's line says so too"
halo --check
is "$(item link/eth-a/addr/10.7.0.1/16 .message)" \
	"also 10.7.0.1/24, which apply leaves: it would take 10.7.0.50/24 with it (net.ipv4.conf.eth-a.promote_secondaries is 0, and all's cannot be read)" \
	"all unreadable: counted as 0, and the line says so"
ip netns exec "$NS" sysctl -qw net.ipv4.conf.eth-a.promote_secondaries=1
khalo
is "$rc" 2 "promote_secondaries 1: apply removes the old prefix"
is "$(global eth-a)" "10.7.0.1/16 10.7.0.50/24" "and the kernel keeps the secondary, promoted (ip -j)"

# ---- the same, with only net.ipv4.conf.all promoting: the kernel takes
# either setting (IN_DEV_ORCONF), and "all" is not copied to the links.
ip netns exec "$NS" sysctl -qw net.ipv4.conf.eth-a.promote_secondaries=0
ip netns exec "$NS" sysctl -qw net.ipv4.conf.all.promote_secondaries=1
ip -n "$NS" addr flush dev eth-a scope global
ip -n "$NS" addr add 10.7.0.1/24 dev eth-a
ip -n "$NS" addr add 10.7.0.50/24 dev eth-a
ip -n "$NS" addr add 10.7.0.1/16 dev eth-a
khalo --check
is "$(item link/eth-a/addr/10.7.0.1/16 .message)" "also 10.7.0.1/24, which apply removes" \
	"all promotes: the check says apply removes the old prefix"
khalo
is "$rc" 2 "all promotes: apply removes the old prefix"
is "$(global eth-a)" "10.7.0.1/16 10.7.0.50/24" "and the kernel keeps the secondary, promoted (ip -j)"
ip netns exec "$NS" sysctl -qw net.ipv4.conf.all.promote_secondaries=0
rm -r "$ROOT/proc"

# ---- a route outranked on its own link
# Another route to the destination on the link with a lower metric takes
# the traffic: a replace leaves it (it changes only the route of the same
# metric), so apply removes it. The kernel's own answer is the witness.
ip -n "$NS" addr flush dev eth-a scope global
ip -n "$NS" addr add 10.7.0.1/16 dev eth-a
ip -n "$NS" route add 10.9.0.0/16 via 10.7.0.253 dev eth-a metric 100
write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "eth-a"; addresses = [ "10.7.0.1/16" ];
    routes = ( { to = "10.9.0.0/16"; via = "10.7.0.254"; metric = 200; } ); }
);
CONF
via() { ip -n "$NS" -j route get 10.9.1.1 | jq -r '.[0].gateway'; }
halo
is "$rc" 2 "apply: exit 2"
is "$(via)" 10.7.0.254 "the kernel sends through the configured gateway (ip route get)"
is "$(routes)" "10.9.0.0/16 via 10.7.0.254" "the outranking route is gone (ip -j)"
# The configured route there, outranked again behind the tool's back.
ip -n "$NS" route add 10.9.0.0/16 via 10.7.0.253 dev eth-a metric 100
halo --check
is "$rc" 2 "outranked: drift"
is "$(item link/eth-a/route/10.9.0.0/16 .message)" \
	"a route with a lower metric takes the traffic (10.9.0.0/16 via 10.7.0.253 dev eth-a metric 100), which apply removes" \
	"the line names the route that takes the traffic"
halo
is "$(via)" 10.7.0.254 "apply: through the configured gateway again (ip route get)"
halo --check
is "$rc" 0 "then in sync"
# Outranked from another link: that link's, so named and left alone.
ip -n "$NS" link add eth-c type veth peer name eth-d
ip -n "$NS" link set eth-d up
ip -n "$NS" link set eth-c up
ip -n "$NS" addr add 10.8.0.1/24 dev eth-c
ip -n "$NS" route add 10.9.0.0/16 via 10.8.0.254 dev eth-c metric 50
is "$(via)" 10.8.0.254 "a lower metric on eth-c takes the traffic (ip route get)"
halo --check
is "$rc" 0 "outranked from another link: in sync"
is "$(item link/eth-a/route/10.9.0.0/16 .message)" \
	"a route on another link with a lower metric is preferred (10.9.0.0/16 via 10.8.0.254 dev eth-c metric 50); it is that link's to change" \
	"the line names the other link's route"
halo
is "$rc" 0 "apply: nothing to do"
is "$(via)" 10.8.0.254 "the other link's route is left (ip route get)"
# A multipath route, one of its next hops on eth-a: no one link's.
ip -n "$NS" route del 10.9.0.0/16 via 10.8.0.254 dev eth-c metric 50
ip -n "$NS" route add 10.9.0.0/16 metric 50 nexthop via 10.8.0.254 dev eth-c nexthop via 10.7.0.253 dev eth-a
halo --check
is "$rc" 0 "outranked by a multipath route: in sync"
is "$(item link/eth-a/route/10.9.0.0/16 .message)" \
	"a multipath route with a lower metric is preferred (10.9.0.0/16 metric 50)" \
	"the line names the multipath route, no link's"
ip -n "$NS" route del 10.9.0.0/16 metric 50
ip -n "$NS" link del eth-c
ip -n "$NS" route del 10.9.0.0/16 via 10.7.0.254 dev eth-a metric 200

# ---- duplicate address detection failed
# The other host answers for fd00::1 (nodad: its own detection would see
# eth-a's).
ip netns exec "$NS" sysctl -qw net.ipv6.conf.eth-a.accept_dad=1
ip -n "$PEER" -6 addr add fd00::1/64 dev eth-b nodad
ip -n "$NS" -6 addr add fd00::1/64 dev eth-a
dadfailed() { ip -n "$NS" -j -6 addr show dev eth-a | jq -e '[.[0].addr_info[] | select(.local=="fd00::1" and .dadfailed)] | length == 1' >/dev/null; }
for _ in $(seq 100); do dadfailed && break; sleep 0.1; done
ok "$(dadfailed; echo $?)" "the kernel flags eth-a's fd00::1 dadfailed (ip -j)"
write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "eth-a"; addresses = [ "10.7.0.1/16", "fd00::1/64" ]; }
);
CONF
halo --check
is "$rc" 2 "dadfailed: drift"
key=link/eth-a/addr/fd00::1/64
is "$(item "$key" .outcome)" drift "$key: drift"
is "$(item "$key" .message)" "duplicate address detection failed: another host on the link answers for it" \
	"$key: the line says why"
# The other host gives it up; apply adds it anew and the detection passes.
ip -n "$PEER" -6 addr del fd00::1/64 dev eth-b
halo
is "$rc" 2 "apply: exit 2"
is "$(item "$key" .outcome)" changed "$key: added anew"
for _ in $(seq 100); do
	ip -n "$NS" -j -6 addr show dev eth-a | jq -e '.[0].addr_info[] | select(.local=="fd00::1") | .tentative or .dadfailed' >/dev/null || break
	sleep 0.1
done
halo --check
is "$rc" 0 "once the detection passed: in sync"
is "$(item "$key" .message)" null "$key: no line"

done_testing
