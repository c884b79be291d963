#!/bin/bash
# A run under --root that manages links opens nothing outside the root.
# strace follows an apply that changes a link's MTU, address and route in
# a network namespace; outside the root it may open only what a process
# opens before it knows the root (the loader's shared libraries and its
# cache, /proc/self/..., /dev/null) and the namespace --netns names. In
# particular not /etc/libnl/classid, which libnl-route's load-time
# constructor read from the host whatever the root, in every run.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/lib/confine.sh"
command -v strace >/dev/null || { echo "1..0 # SKIP strace is not installed"; exit 0; }
NS=$(new_netns linkroot) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ip -n "$NS" link add eth-a type veth peer name eth-b || { echo "1..0 # SKIP no veth"; exit 0; }
ip -n "$NS" link set eth-b up

ROOT=$TEST_TMP/root
mkdir -p "$ROOT/etc/halo-provision"
write_conf "$ROOT/etc/halo-provision/halo.conf" <<'CONF'
version = 1;
interfaces = ( { name = "rdma0"; match = { mac = "MAC"; }; mtu = 9000;
    addresses = [ "192.168.100.1/30" ];
    routes = ( { to = "10.0.2.0/24"; via = "192.168.100.2"; } ); } );
CONF
# Matched by MAC: the run dumps the namespace's links, the widest read.
sed -i "s/MAC/$(ip -n "$NS" -j link show eth-a | jq -r '.[0].address')/" \
	"$ROOT/etc/halo-provision/halo.conf"

trace=$TEST_TMP/trace
# LeakSanitizer's exit check uses ptrace, which fails under strace.
ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" \
	strace -f -qq -y -e trace=open,openat,openat2 -o "$trace" \
	"$HALO" --root "$ROOT" --netns "$NS" -q >"$TEST_TMP/out" 2>&1
is "$?" 2 "apply under --root with links: exit 2 (changed)"
is "$(ip -n "$NS" -j link show eth-a | jq '.[0].mtu')" 9000 "the MTU was set"
like "$(ip -n "$NS" -j addr show eth-a | jq -r '.[0].addr_info[].local')" '^192\.168\.100\.1$' \
	"the address was added"
like "$(ip -n "$NS" route show 10.0.2.0/24)" 'via 192\.168\.100\.2 dev eth-a' "the route was added"

grep -q ' openat(AT_FDCWD<[^>]*>, "/lib' "$trace"
ok $? "the trace sees the loader's opens (strace followed the run)"
outside=$(confine_opened_outside "$trace" "$ROOT" "$NS")
is "$outside" "" "nothing opened outside the root but libraries, /proc/self, /dev/null and the namespace"
grep -q 'libnl' "$trace"
ok $((!$?)) "no /etc/libnl/classid, no libnl library"

done_testing
