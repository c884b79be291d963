#!/bin/bash
# The cost of a run does not grow with the host's links:
# --check --json stats.netlink_requests is the same in a namespace of 2
# links and of 2,048 veth links. Entries matched by name are fetched with
# one RTM_GETLINK each; each configured address is one FIB-match lookup
# (is it on another link?); addresses are dumped per managed link, filtered
# by the kernel (NETLINK_GET_STRICT_CHK); routes add one dump of the main
# table. Entries matching by driver or PCI are fetched by the names the
# root's sysfs gives: /sys/bus/pci/devices/P and the devices
# of /sys/bus/pci/drivers/D lead to the device and its netdevs. Only an
# entry matching by MAC, or a sysfs without those bus links, needs a dump;
# candidates that do not give every entry its link fall back to the dump.
source "$top_srcdir/tests/lib/tap.sh"

NS=$(new_netns req) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ip -n "$NS" link add rdma0 type veth peer name peer0
ip -n "$NS" link add rdma1 type veth peer name peer1
ROOT=$TEST_TMP/root
mkdir -p "$ROOT/etc/halo-provision"
CONF=$ROOT/etc/halo-provision/halo.conf
write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "rdma0"; mtu = 9000; addresses = [ "192.168.100.1/30" ]; },
  { name = "rdma1"; mtu = 9000; addresses = [ "192.168.100.5/30" ]; }
);
CONF
MACCONF=$TEST_TMP/mac.conf
write_conf "$MACCONF" <<CONF
version = 1;
interfaces = (
  { name = "fast0"; match = { mac = "$(ip -n "$NS" -j link show rdma0 | jq -r '.[0].address')"; };
    mtu = 9000; addresses = [ "192.168.100.1/30" ]; },
  { name = "rdma1"; mtu = 9000; addresses = [ "192.168.100.5/30" ]; }
);
CONF
# nic_sysfs ROOT IFNAME BDF DRIVER: sysfs says IFNAME is PCI function BDF
# of DRIVER (class link, device link, driver), without the bus links.
nic_sysfs() {
	local dev=sys/devices/pci0000:00/$3
	mkdir -p "$1/$dev/net/$2" "$1/sys/class/net" "$1/sys/bus/pci/drivers/$4"
	ln -sfn "../../../$3" "$1/$dev/net/$2/device"
	ln -sfn "../../../bus/pci/drivers/$4" "$1/$dev/driver"
	ln -sfn "../../devices/pci0000:00/$3/net/$2" "$1/sys/class/net/$2"
}
# bus_links ROOT BDF DRIVER [TARGET]: the kernel's links from the PCI bus
# to the device (TARGET: another function's directory, a stale listing).
bus_links() {
	mkdir -p "$1/sys/bus/pci/devices" "$1/sys/bus/pci/drivers/$3"
	ln -sfn "../../../devices/pci0000:00/${4:-$2}" "$1/sys/bus/pci/devices/$2"
	ln -sfn "../../../../devices/pci0000:00/${4:-$2}" "$1/sys/bus/pci/drivers/$3/$2"
}
# Three roots describing the same links: NROOT without the bus links (the
# fixtures' layout: the dump), PROOT with them, SROOT whose bus link for
# 0000:c2:00.0 leads to peer0's function (a listing that does not match).
NROOT=$TEST_TMP/nroot PROOT=$TEST_TMP/proot SROOT=$TEST_TMP/sroot
for r in "$NROOT" "$PROOT" "$SROOT"; do
	nic_sysfs "$r" rdma0 0000:c2:00.0 ice
	nic_sysfs "$r" rdma1 0000:c3:00.0 mlx5_core
	nic_sysfs "$r" peer0 0000:c9:00.0 r8169
done
bus_links "$PROOT" 0000:c2:00.0 ice
bus_links "$PROOT" 0000:c3:00.0 mlx5_core
bus_links "$PROOT" 0000:c9:00.0 r8169
bus_links "$SROOT" 0000:c2:00.0 ice 0000:c9:00.0
bus_links "$SROOT" 0000:c3:00.0 mlx5_core
PCICONF=$TEST_TMP/pci.conf
write_conf "$PCICONF" <<'CONF'
version = 1;
interfaces = (
  { name = "fast0"; match = { driver = "ice"; pci = "0000:c2:00.0"; };
    mtu = 9000; addresses = [ "192.168.100.1/30" ]; },
  { name = "fast1"; match = { driver = "mlx5_core"; };
    mtu = 9000; addresses = [ "192.168.100.5/30" ]; }
);
CONF
# No link has this function: its bus directory lists peer0 (r8169).
BADCONF=$TEST_TMP/bad.conf
write_conf "$BADCONF" <<'CONF'
version = 1;
interfaces = (
  { name = "fast0"; match = { driver = "ice"; pci = "0000:c9:00.0"; };
    mtu = 9000; addresses = [ "192.168.100.1/30" ]; }
);
CONF
# preq ROOT CONF [ARGS...]: --check --json under ROOT, traced; sets $rc, $out, $err,
# $n (requests sent) and $dumps (RTM_GETLINK, 0x12, requests with
# NLM_F_DUMP, 0x300: strace may not name them inside a namespace).
preq() {
	ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" \
		run_halo_traced -c "$2" --root "$1" --netns "$NS" --only links --check --json "${@:3}"
	n=$(jq -r '.stats.netlink_requests' <<<"$out")
	dumps=$(grep -cE 'nlmsg_type=(RTM_GETLINK|0x12)[ ,][^}]*nlmsg_flags=[^,]*(NLM_F_DUMP|0x300)' "$TEST_TMP/strace")
}
run_halo_traced() {
	out=$(strace -f -qq -s 32 -o "$TEST_TMP/strace" -e trace=sendto,sendmsg \
		"$HALO" "$@" 2>"$TEST_TMP/stderr")
	rc=$?
	err=$(cat "$TEST_TMP/stderr")
}
# pci_checks WHEN: the driver/pci config on the three roots.
pci_checks() {
	local nout nerr
	preq "$NROOT" "$PCICONF"
	is "$rc" 0 "$1: driver/pci without bus links: check is clean (dump path)"
	is "$dumps" 1 "$1: ... by one link dump"
	is "$n" "$few_mac" "$1: ... as many requests as matching by MAC ($few_mac)"
	nout=$(jq -c 'del(.stats, .root)' <<<"$out")
	preq "$PROOT" "$PCICONF"
	is "$rc" 0 "$1: driver/pci with bus links: check is clean"
	is "$dumps" 0 "$1: ... and no link dump (strace)"
	is "$n" "$few" "$1: ... as many requests as matching by name ($few)"
	is "$(jq -c 'del(.stats, .root)' <<<"$out")" "$nout" "$1: ... the same report as the dump's"
	preq "$SROOT" "$PCICONF"
	is "$rc" 0 "$1: a bus listing that does not match: still clean"
	is "$dumps" 1 "$1: ... after falling back to the dump"
	is "$(jq -c 'del(.stats, .root)' <<<"$out")" "$nout" "$1: ... the same report as the dump's"
	# A check reports an entry no link matches as a failed item.
	preq "$NROOT" "$BADCONF"
	nerr=$(jq -r '.items[] | select(.key=="link/fast0/present") | .message' <<<"$out")
	is "$(( rc & 4 ))" 4 "$1: a pci no link has: failed (exit bit 4)"
	like "$nerr" '^no link matches driver ice, pci 0000:c9:00\.0 \(gone, renamed or replaced\)' "$1: ... link/fast0/present says so"
	preq "$PROOT" "$BADCONF"
	is "$(( rc & 4 ))" 4 "$1: the same with bus links listing another driver's link: failed"
	is "$(jq -r '.items[] | select(.key=="link/fast0/present") | .message' <<<"$out")" "$nerr" \
		"$1: ... with the dump's message"
	is "$dumps" 1 "$1: ... which the dump gave"
	# Hotplug: the link udev names is a candidate too.
	preq "$PROOT" "$PCICONF" --interface rdma1
	is "$rc" 0 "$1: --interface rdma1 with bus links: clean"
	is "$(jq -r '[.items[].key | split("/")[1]] | unique | join(" ")' <<<"$out")" fast1 \
		"$1: ... only fast1's items"
	is "$dumps" 0 "$1: ... and no link dump"
	preq "$PROOT" "$PCICONF" --interface peer0
	is "$rc/$(jq '.items | length' <<<"$out")/$dumps" 0/0/0 \
		"$1: --interface peer0 (unmanaged): exit 0, no items, no dump"
}

halo() { run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only links "$@"; }
# requests [CONF]: runs --check --json, sets $rc and $n (requests sent).
requests() {
	run_halo -c "${1:-$CONF}" --root "$ROOT" --netns "$NS" --only links --check --json
	n=$(jq -r '.stats.netlink_requests' <<<"$out")
}

# Per run of the two entries: 2 RTM_GETLINK (by name) + 2 address lookups
# + 2 address dumps (one per link) = 6.
halo --json
is "$rc" 2 "apply converges the two links"
# Apply: the 6 reads, one request per change (2 x mtu, up, address), and
# the changed kinds read again once to verify (2 links, 2 address dumps)
# -- not one address dump per address.
is "$(jq -r '.stats.netlink_requests' <<<"$out")" $((6 + 6 + 4)) \
	"apply: 6 reads + 6 changes + 4 verifying reads"
is "$(ip -n "$NS" -j addr show dev rdma0 | jq -r '.[0].addr_info[] | select(.family=="inet") | .broadcast')" \
	192.168.100.3 "the /30 gets its broadcast address (ip -j)"
requests; few=$n
is "$rc" 0 "check is clean"
is "$few" 6 "check with 2 links: 2 links by name + 2 address lookups + 2 address dumps"
requests "$MACCONF"; few_mac=$n
is "$rc" 0 "check matching by MAC is clean"
is "$few_mac" 5 "check matching by MAC: one link dump instead of 2 by name"
pci_checks "2 links"

# 2,048 veth links: 1,022 more pairs, one end of each with an address.
for i in $(seq 1 1022); do echo "link add x$i type veth peer name y$i"; done |
	ip -n "$NS" -batch -
for i in $(seq 1 1022); do echo "addr add 10.$((i / 250)).$((i % 250)).1/24 dev x$i"; done |
	ip -n "$NS" -batch -
is "$(ip -n "$NS" -j link show type veth | jq length)" 2048 "2,048 veth links"
requests; many=$n
is "$rc" 0 "check is still clean"
is "$many" "$few" "check with 2,048 links sends as many requests ($few)"
requests "$MACCONF"
is "$rc" 0 "check matching by MAC is still clean"
is "$n" "$few_mac" "check matching by MAC with 2,048 links: as many requests ($few_mac)"
pci_checks "2,048 links"

# An address on one of the 2,046 others is still found (one lookup).
ip -n "$NS" addr del 192.168.100.5/30 dev rdma1
ip -n "$NS" addr add 192.168.100.5/32 dev y77
requests
is "$rc" 1 "an address already on another link: exit 1"
like "$err" 'address 192\.168\.100\.5/30 is already on link y77' "... naming the link among 2,048"
ip -n "$NS" addr del 192.168.100.5/32 dev y77

# Routes add exactly one dump.
write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "rdma0"; mtu = 9000; addresses = [ "192.168.100.1/30" ];
    routes = ( { to = "10.99.2.0/24"; via = "192.168.100.2"; },
               { to = "10.99.3.0/24"; via = "192.168.100.2"; metric = 50; } ); },
  { name = "rdma1"; mtu = 9000; addresses = [ "192.168.100.5/30" ]; }
);
CONF
halo
is "$rc" 2 "apply adds the routes"
is "$(ip -n "$NS" -j route show 10.99.3.0/24 | jq -r '.[0] | "\(.gateway) \(.dev) \(.metric)"')" \
	"192.168.100.2 rdma0 50" "route with metric read back (ip -j)"
requests
is "$n" $((few + 1)) "check with routes: one more dump, whatever the number of routes"
is "$rc" 0 "check with routes is clean"

done_testing
