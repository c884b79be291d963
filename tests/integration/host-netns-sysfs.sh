#!/bin/bash
# --netns on this machine (no --root): driver and PCI address come from
# the namespace's own sysfs, mounted by halo-provision in a private mount
# namespace, with no `ip netns exec`. Only --check and --dry-run run here
# (no --root: an apply would write the host's state file).
#
# The proof: inside the namespace, a veth takes the name of a link this
# machine has on a PCI device (eth0 on most). Read through the host's
# /sys, that name is the PCI NIC; through the namespace's, it is the veth.
source "$top_srcdir/tests/lib/tap.sh"

NS=$(new_netns sysfs) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
CONF=$TEST_TMP/halo.conf
host_dev=
for d in /sys/class/net/*; do
	t=$(readlink "$d" 2>/dev/null) || continue
	pci=$(tr '/' '\n' <<<"$t" | grep -E '^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$' | tail -1)
	if [ -n "$pci" ] && [ -e "$d/device/driver" ]; then
		host_dev=${d##*/}
		host_pci=$pci
		host_driver=$(basename "$(readlink "$d/device/driver")")
		break
	fi
done
name=${host_dev:-nsveth0}
ip link add hv9 type veth peer name "$name" netns "$NS"
diag "the veth in the namespace is named $name (host: ${host_driver:-none} ${host_pci:-})"

conf() { # conf MATCH-KEYS
	write_conf "$CONF" <<CONF
version = 1;
interfaces = ( { name = "$name"; match = { $1 }; mtu = 1400; } );
CONF
}
halo() { run_halo -c "$CONF" --netns "$NS" --only links --json "$@"; }
item() { jq -r --arg k "$1" '.items[] | select(.key==$k) | '"$2" <<<"$out"; }

conf 'driver = "veth";'
halo --check
is "$rc" 2 "driver veth matches the namespace's $name: drift on mtu (exit 2)"
[ -z "$err" ] || diag "$err"
is "$(item "link/$name/present" .outcome)" ok "link/$name/present: ok"
is "$(item "link/$name/mtu" .observed)" 1500 "the observed mtu is the veth's"
halo --dry-run
is "$rc" 2 "dry-run: the same"

if [ -n "$host_dev" ]; then
	conf "driver = \"$host_driver\";"
	halo --dry-run
	is "$rc" 1 "driver $host_driver (the host's $name) does not match in the namespace"
	like "$err" "no link matches driver $host_driver" "one line says so"
	conf "pci = \"$host_pci\";"
	halo --dry-run
	is "$rc" 1 "pci $host_pci (the host's $name) does not match in the namespace"
	like "$err" "no link matches pci $host_pci" "one line says so"
else
	for _ in $(seq 4); do ok 0 "# SKIP no link of this machine sits on a PCI device"; done
fi

# The host's own view is unchanged: the process's mounts stayed private.
[ -z "$host_dev" ] || [ "$(basename "$(readlink "/sys/class/net/$host_dev/device/driver")")" = "$host_driver" ]
ok $? "this machine's /sys still shows its own $name"

# Under --root, a virtio NIC's PCI address is the function it sits on
# (its device link names virtio2, its path the PCI function).
ROOT=$TEST_TMP/root
dev=sys/devices/pci0000:00/0000:00:03.0/virtio2
mkdir -p "$ROOT/$dev/net/vnet0" "$ROOT/sys/class/net" "$ROOT/sys/bus/virtio/drivers/virtio_net"
ln -s ../../../virtio2 "$ROOT/$dev/net/vnet0/device"
ln -s ../../../../bus/virtio/drivers/virtio_net "$ROOT/$dev/driver"
ln -s "../../${dev#sys/}/net/vnet0" "$ROOT/sys/class/net/vnet0"
ip link add hv10 type veth peer name vnet0 netns "$NS"
write_conf "$CONF" <<'CONF'
version = 1;
interfaces = ( { name = "vnet0"; match = { pci = "0000:00:03.0"; driver = "virtio_net"; }; } );
CONF
run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only links --json --check
is "$(item link/vnet0/present .outcome)" ok "a virtio NIC matches by the PCI function it sits on"
[ "$rc" -le 2 ] || diag "$err"

done_testing
