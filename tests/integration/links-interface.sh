#!/bin/bash
# --interface NAME (the hotplug unit halo-provision@NAME.service): only the
# entry that manages NAME is planned, NAME being the entry's own name or
# the kernel's name of the link its keys match (udev passes the name after
# a rename). Other entries may be absent without failing the run; a NIC no
# entry manages is a clean no-op; the NetworkManager drop-in is left to
# the full runs.
source "$top_srcdir/tests/lib/tap.sh"

NS=$(new_netns iface) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ip -n "$NS" link add eth-a type veth peer name eth-b
ip -n "$NS" link add eth-c type veth peer name eth-d
ROOT=$TEST_TMP/root
CONF=$ROOT/etc/halo-provision/halo.conf
mkdir -p "$ROOT/etc/halo-provision"
MAC_A=$(ip -n "$NS" -j link show eth-a | jq -r '.[0].address')
MAC_C=$(ip -n "$NS" -j link show eth-c | jq -r '.[0].address')
mtu() { ip -n "$NS" -j link show "$1" | jq -r '.[0].mtu'; }
halo() { run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only links "$@"; }
keys() { jq -c '[.items[].key]' <<<"$out"; }

# NetworkManager manages eth-a: a full run would write the drop-in.
IDX_A=$(ip -n "$NS" -j link show eth-a | jq -r '.[0].ifindex')
mkdir -p "$ROOT/run/NetworkManager/devices" "$ROOT/usr/sbin"
printf '[device]\nmanaged=true\n' >"$ROOT/run/NetworkManager/devices/$IDX_A"
touch "$ROOT/usr/sbin/NetworkManager"
DROPIN=$ROOT/etc/NetworkManager/conf.d/90-halo-provision-unmanaged.conf

# rdma2 names a NIC that is not there (yet): a hotplug of another NIC
# must not fail because of it.
write_conf "$CONF" <<CONF
version = 1;
interfaces = (
  { name = "rdma0"; match = { mac = "$MAC_A"; }; mtu = 9000;
    addresses = [ "192.168.60.1/24" ]; },
  { name = "rdma1"; match = { mac = "$MAC_C"; }; mtu = 4200; },
  { name = "absent0"; mtu = 9000; }
);
CONF

halo
is "$rc" 1 "full run: exit 1 (absent0 has no link)"
like "$err" 'interface "absent0": no link matches name absent0' "... naming it"

# The kernel's name of the link rdma0's MAC matches, as udev passes it.
halo --json --interface eth-a
is "$rc" 2 "--interface eth-a: exit 2 (changed)"
[ -z "$err" ] || diag "$err"
is "$(keys)" '["link/rdma0/present","link/rdma0/mtu","link/rdma0/up","link/rdma0/addr/192.168.60.1/24"]' \
	"only rdma0's items are planned"
is "$(mtu eth-a)" 9000 "eth-a: mtu 9000 (ip -j)"
is "$(mtu eth-c)" 1500 "eth-c (rdma1) untouched"
is "$(ip -n "$NS" -j addr show dev eth-a | jq -r '.[0].addr_info[] | select(.family=="inet") | .local')" \
	192.168.60.1 "eth-a: address added"
test ! -e "$DROPIN"
ok $? "the NetworkManager drop-in is left to the full runs"
halo --interface eth-a
is "$rc" 0 "--interface eth-a again: exit 0"

# The entry's own name, as a person types it.
halo --json --interface rdma1
is "$rc" 2 "--interface rdma1 (the entry's name): exit 2"
is "$(keys)" '["link/rdma1/present","link/rdma1/mtu","link/rdma1/up"]' "only rdma1's items"
is "$(mtu eth-c)" 4200 "eth-c: mtu 4200"
# The state file keeps describing the whole host: rdma0's items, recorded
# by the run before, stay beside rdma1's.
STATE=$ROOT/var/lib/halo-provision/state.json
is "$(jq -c '[.items[].key] | sort' "$STATE")" \
	'["link/rdma0/addr/192.168.60.1/24","link/rdma0/mtu","link/rdma0/present","link/rdma0/up","link/rdma1/mtu","link/rdma1/present","link/rdma1/up"]' \
	"state file: rdma0's items kept by the rdma1 run"
halo --json --interface rdma1
is "$(jq -r '.stats.files_written' <<<"$out")" 0 "--interface rdma1 again: the state file is not rewritten"

# After a rename (systemd's predictable names) udev passes the new name.
ip -n "$NS" link set eth-a down
ip -n "$NS" link set eth-a name enren0
ip -n "$NS" link set enren0 mtu 1500
halo --json --interface enren0
is "$rc" 2 "--interface enren0 (eth-a renamed): exit 2"
is "$(jq -r '.items[] | select(.key=="link/rdma0/mtu") | .outcome' <<<"$out")" changed \
	"rdma0's mtu re-applied on the renamed link"
is "$(mtu enren0)" 9000 "enren0: mtu 9000"

# A netdev no entry manages (udev starts the unit for every RDMA driver's
# netdev): nothing planned, nothing changed, exit 0.
before=$(tree_snapshot "$ROOT")
halo --json --interface eth-b
is "$rc" 0 "--interface eth-b (unmanaged): exit 0"
is "$(keys)" '[]' "... no items"
like "$(jq -r '.warnings[]' <<<"$out")" '^--interface eth-b: no interface entry manages it: nothing to do$' \
	"... and a warning says so"
is "$(mtu eth-b)" 1500 "eth-b untouched"
# The state file keeps every interface's items: nothing is rewritten.
is "$(tree_snapshot "$ROOT")" "$before" "... and nothing in the root changed, the state file included"
is "$(jq -r '[.items[].key | select(startswith("link/rdma1/"))] | length' "$STATE")" 3 \
	"... rdma1's items still in the state file"
is "$(jq -c '[.items[] | .interface] | unique' "$STATE")" '["rdma0","rdma1"]' \
	"... each item names the entry it configures"

# An item that left rdma0's entry (its address) is gone from the state
# file after a run of rdma0 alone; rdma1's items, not looked at, stay.
sed -i 's|    addresses = \[ "192.168.60.1/24" \]; },|  },|' "$CONF"
halo --json --interface rdma0
is "$rc" 0 "--interface rdma0 without its address: exit 0 (an address is never removed unasked)"
is "$(jq -c '[.items[].key] | sort' "$STATE")" \
	'["link/rdma0/mtu","link/rdma0/present","link/rdma0/up","link/rdma1/mtu","link/rdma1/present","link/rdma1/up"]' \
	"state file: rdma0's address item dropped, rdma1's kept"

halo --interface eth-b
like "$out" 'warning: --interface eth-b: no interface entry manages it' "text output shows the warning"
halo -q --interface eth-b
is "$rc:$out:$err" "0:apply: 0 items:" "-q: exit 0, the summary only (the hotplug unit's journal)"
halo --interface nosuch9
is "$rc" 0 "--interface of a name nothing has: exit 0"

# The entry of that name, but its NIC is missing: that is an error.
halo --interface absent0
is "$rc" 1 "--interface absent0 (managed, no link): exit 1"
like "$err" 'interface "absent0": no link matches name absent0' "... naming it"

# An unselected entry that matches the same link is still an ambiguity.
write_conf "$CONF" <<CONF
version = 1;
interfaces = (
  { name = "rdma1"; match = { mac = "$MAC_C"; }; mtu = 4200; },
  { name = "eth-c"; mtu = 4000; }
);
CONF
before=$(tree_snapshot "$ROOT")
halo --interface rdma1
is "$rc" 1 "two entries on one link: exit 1"
like "$err" 'interfaces "rdma1" \(line 3\) and "eth-c" both match link eth-c' "... naming both"
is "$(tree_snapshot "$ROOT")" "$before" "... and nothing in the root changed"
is "$(mtu eth-c)" 4200 "... nor the link"

# Without --only, an unmanaged NAME still plans nothing: a run for one
# link writes no file of another subsystem (here the memlock drop-ins).
write_conf "$CONF" <<CONF
version = 1;
interfaces = (
  { name = "rdma1"; match = { mac = "$MAC_C"; }; mtu = 4200; }
);
access = { memlock = "unlimited"; };
CONF
before=$(tree_snapshot "$ROOT")
run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --json --interface eth-b
is "$rc" 0 "every subsystem, --interface eth-b (unmanaged): exit 0"
is "$(keys)" '[]' "... no items, not even access's"
is "$(tree_snapshot "$ROOT")" "$before" "... and nothing in the root changed"
# A config with no interface entry manages no NAME either.
sed -i '/^interfaces = (/,/^);/d' "$CONF"
before=$(tree_snapshot "$ROOT")
run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --json --interface eth-b
is "$rc:$(keys)" "0:[]" "no interface entries, --interface eth-b: exit 0, no items"
like "$(jq -r '.warnings[]' <<<"$out")" '^--interface eth-b: no interface entry manages it: nothing to do$' \
	"... and the warning says so"
is "$(tree_snapshot "$ROOT")" "$before" "... and nothing in the root changed"
# --only says which subsystems run: one that is not about links is not
# limited by --interface.
run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --json --only files --interface eth-b
is "$rc" 2 "--only files --interface eth-b: the files are written (exit 2)"

# A one-interface run without --only leaves the shared files (the sysctl
# drop-in here) alone, and their items stay in the state file.
mkdir -p "$ROOT/proc/sys/net/core"
echo 212992 >"$ROOT/proc/sys/net/core/rmem_max"
write_conf "$CONF" <<CONF
version = 1;
interfaces = ( { name = "rdma1"; match = { mac = "$MAC_C"; }; mtu = 4200; } );
sysctl = { settings = [ "net.core.rmem_max=4194304" ]; };
CONF
run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --json
state_keys() { jq -c '[.items[].key] | sort' "$STATE"; }
full=$(state_keys)
like "$full" '"sysctl/net.core.rmem_max"' "a full apply records the sysctl items"
run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --json --interface rdma1
is "$rc" 0 "--interface rdma1 without --only: exit 0"
is "$(state_keys)" "$full" "... and the state file keeps every item it did not look at"

done_testing
