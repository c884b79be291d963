#!/bin/bash
# An IPv6 address whose prefix the config changes: the kernel knows an
# IPv6 address by the address alone (a second prefix is EEXIST, a
# replace keeps the old prefix), so the apply removes the old one before
# adding the new, and one run ends with exactly the configured prefix.
# IPv4 keeps both prefixes for a moment instead, and ends the same way.
# A new IPv6 prefix refused after the old one went puts the old one back.
source "$top_srcdir/tests/lib/tap.sh"

NS=$(new_netns v6prefix) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ip -n "$NS" link add eth-a type veth peer name eth-b
ip -n "$NS" link set eth-a up
ip -n "$NS" -6 addr add fd00::1/64 dev eth-a nodad
ip -n "$NS" addr add 10.7.0.1/24 dev eth-a
ROOT=$TEST_TMP/root
CONF=$ROOT/etc/halo-provision/halo.conf
mkdir -p "$ROOT/etc/halo-provision"
item() { jq -r --arg k "$1" '.items[] | select(.key==$k) | '"$2" <<<"$out"; }
halo() { run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only links "$@"; }
global() { ip -n "$NS" -j addr show dev eth-a |
	jq -r '[.[0].addr_info[] | select(.scope=="global") | "\(.local)/\(.prefixlen)"] | sort | join(" ")'; }

write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "eth-a"; addresses = [ "fd00::1/80", "10.7.0.1/16" ]; }
);
CONF

# (LeakSanitizer cannot run under ptrace: an ASan build checks leaks
# in the other runs.)
out=$(ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" \
	strace -f -qq -e trace=sendto,sendmsg -o "$TEST_TMP/sends" \
	"$HALO" -c "$CONF" --root "$ROOT" --netns "$NS" --only links --json 2>"$TEST_TMP/stderr")
rc=$? err=$(cat "$TEST_TMP/stderr")
is "$rc" 2 "apply: exit 2 (changed)"
[ -z "$err" ] || diag "$err"
# One RTM_NEWADDR (0x14: strace cannot name it in the namespace) per
# address: none answered EEXIST, to be sent again by the final pass once
# the old prefix was gone.
is "$(grep -cE 'nlmsg_type=(RTM_NEWADDR|0x14)[ ,]' "$TEST_TMP/sends")" 2 "two RTM_NEWADDR requests, one per address (strace)"
is "$(global)" "10.7.0.1/16 fd00::1/80" "the new prefixes only (ip -j)"
for key in "link/eth-a/addr/fd00::1/80" "link/eth-a/addr/10.7.0.1/16"; do
	is "$(item "$key" .outcome)" changed "$key: changed"
	is "$(item "$key" .note)" null "$key: in one apply, not applied again after its verify"
done
halo
is "$rc" 0 "again: exit 0 (in sync)"
is "$(global)" "10.7.0.1/16 fd00::1/80" "... and nothing moved"

# Back to /64: the same path the other way.
sed -i 's|fd00::1/80|fd00::1/64|' "$CONF"
halo
is "$rc" 2 "back to /64: exit 2"
is "$(global)" "10.7.0.1/16 fd00::1/64" "fd00::1/64 only"

# The new prefix refused after the old one went: the old one is put
# back, and the line says so. The refusal is strace's (the kernel refuses
# no such add): the sendto that carried the first run's RTM_NEWADDR, the
# same request in the same order on the same addresses again.
k=$(grep -E '^[0-9]+ +sendto\(' "$TEST_TMP/sends" | grep -nE 'nlmsg_type=(RTM_NEWADDR|0x14)[ ,]' | head -n 1 | cut -d: -f1)
like "$k" '^[0-9]+$' "the first run's RTM_NEWADDR is sendto number $k"
# refused WHEN: the first run's addresses back, then an apply whose
# sendto number WHEN (strace's when=) is refused.
refused() {
	ip -n "$NS" addr flush dev eth-a scope global
	ip -n "$NS" -6 addr add fd00::1/64 dev eth-a nodad
	ip -n "$NS" addr add 10.7.0.1/24 dev eth-a
	out=$(ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" \
		strace -f -qq -o /dev/null -e trace=sendto -e inject=sendto:error=ENOBUFS:when="$1" \
		"$HALO" -c "$CONF" --root "$ROOT" --netns "$NS" --only links --json 2>"$TEST_TMP/stderr")
	rc=$?
}
sed -i 's|fd00::1/64|fd00::1/80|' "$CONF"
refused "$k"
is "$rc" 6 "refused add: exit 6 (changed, failed)"
key="link/eth-a/addr/fd00::1/80"
is "$(item "$key" .outcome)" failed "$key: failed"
is "$(item "$key" .message)" \
	"adding fd00::1/80 to eth-a: No buffer space available; fd00::1/64 was put back" \
	"$key: the refusal and the put-back in one line"
is "$(global)" "10.7.0.1/16 fd00::1/64" "fd00::1/64 is back, not gone (ip -j)"
halo
is "$rc" 2 "the next run: exit 2"
is "$(global)" "10.7.0.1/16 fd00::1/80" "... and it makes the change"

# The put-back refused too: the line says the link is left without it.
refused "$k..$((k + 1))"
is "$rc" 6 "add and put-back refused: exit 6"
is "$(item "$key" .message)" \
	"adding fd00::1/80 to eth-a: No buffer space available; fd00::1/64, removed first, could not be put back (No buffer space available)" \
	"$key: the line says the old prefix is gone"
is "$(global)" "10.7.0.1/16" "no fd00::1 at all (ip -j)"
halo
is "$(global)" "10.7.0.1/16 fd00::1/80" "the next run adds it"

done_testing
