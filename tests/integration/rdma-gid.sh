#!/bin/bash
# The RDMA device, port and GID index of each RoCE interface, read from a
# fixture sysfs under --root while the links live in a namespace (as in
# links-match.sh): irdma (v2 only), mlx5 (v1/v2 pairs) renamed
# rocep194s0f0, an IPv6 address that shifts the index, two IPv4 addresses,
# an entry that reads EINVAL, no RDMA device (module missing, loaded but
# none, iWARP), a port that is down.
source "$top_srcdir/tests/integration/rdma-lib.sh"

NS=$(new_netns rdma) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
for p in a:b c:d e:f g:h i:j; do
	ip -n "$NS" link add "eth-${p%:*}" type veth peer name "eth-${p#*:}"
done
CONF=$ROOT/etc/halo-provision/halo.conf

# irdma: 0 = fe80, 1 = IPv4 (v2 only).
fake_nic eth-a 0000:c3:00.0 ice
fake_ibdev irdma0 0000:c3:00.0
set_gid irdma0 0 $FE80_GID "RoCE v2" eth-a
set_gid irdma0 1 "$(v4gid 192.168.100.1)" "RoCE v2" eth-a
# mlx5, renamed by rdma-core: 0/1 fe80 v1/v2, 2/3 IPv4 v1/v2.
fake_nic eth-c 0000:c2:00.0 mlx5_core
fake_ibdev rocep194s0f0 0000:c2:00.0
set_gid rocep194s0f0 0 $FE80_GID "IB/RoCE v1" eth-c
set_gid rocep194s0f0 1 $FE80_GID "RoCE v2" eth-c
set_gid rocep194s0f0 2 "$(v4gid 10.10.0.11)" "IB/RoCE v1" eth-c
set_gid rocep194s0f0 3 "$(v4gid 10.10.0.11)" "RoCE v2" eth-c
# irdma with an IPv6 address added before the IPv4 one: index 2.
fake_nic eth-e 0000:c4:00.0 ice
fake_ibdev irdma1 0000:c4:00.0
set_gid irdma1 0 $FE80_GID "RoCE v2" eth-e
set_gid irdma1 1 2001:0db8:0000:0000:0000:0000:0000:000e "RoCE v2" eth-e
set_gid irdma1 2 "$(v4gid 192.168.101.1)" "RoCE v2" eth-e
# mlx5 with two IPv4 addresses, the configured one second: index 5.
fake_nic eth-g 0000:c5:00.0 mlx5_core
fake_ibdev mlx5_2 0000:c5:00.0
set_gid mlx5_2 0 $FE80_GID "IB/RoCE v1" eth-g
set_gid mlx5_2 1 $FE80_GID "RoCE v2" eth-g
set_gid mlx5_2 2 "$(v4gid 10.20.0.9)" "IB/RoCE v1" eth-g
set_gid mlx5_2 3 "$(v4gid 10.20.0.9)" "RoCE v2" eth-g
set_gid mlx5_2 4 "$(v4gid 10.20.0.1)" "IB/RoCE v1" eth-g
set_gid mlx5_2 5 "$(v4gid 10.20.0.1)" "RoCE v2" eth-g
# irdma whose entry 1 still shows the GID but was deleted: its attributes
# read EINVAL; the live entry is 2.
fake_nic eth-i 0000:c6:00.0 ice
fake_ibdev irdma3 0000:c6:00.0
set_gid irdma3 0 $FE80_GID "RoCE v2" eth-i
set_gid irdma3 2 "$(v4gid 192.168.102.1)" "RoCE v2" eth-i
v4gid 192.168.102.1 >"$ROOT/sys/class/infiniband/irdma3/ports/1/gids/1"
# ice without an RDMA device (irdma loaded); mlx5 without mlx5_ib.
fake_nic eth-b 0000:c7:00.0 ice
mkdir -p "$ROOT/sys/module/irdma"
fake_nic eth-d 0000:c8:00.0 mlx5_core
# ice in iWARP mode: irdma made an RNIC.
fake_nic eth-f 0000:c9:00.0 ice
fake_ibdev iwp201s0f0 0000:c9:00.0 "4: RNIC"
# A port without link, a port with link but not active.
fake_nic eth-h 0000:ca:00.0 ice
fake_ibdev irdma5 0000:ca:00.0
set_gid irdma5 0 $FE80_GID "RoCE v2" eth-h
set_gid irdma5 1 "$(v4gid 192.168.103.1)" "RoCE v2" eth-h
echo "1: DOWN" >"$ROOT/sys/class/infiniband/irdma5/ports/1/state"
echo "3: Disabled" >"$ROOT/sys/class/infiniband/irdma5/ports/1/phys_state"
fake_nic eth-j 0000:cb:00.0 ice
fake_ibdev irdma6 0000:cb:00.0
set_gid irdma6 0 $FE80_GID "RoCE v2" eth-j
echo "2: INIT" >"$ROOT/sys/class/infiniband/irdma6/ports/1/state"

entry() { # entry NAME PCI ADDRESSES
	printf '  { name = "%s"; match = { pci = "%s"; }; addresses = [ %s ]; roce = { tos = 106; }; },\n' "$@"
}
{
	echo 'version = 1;'
	echo 'interfaces = ('
	entry irdma 0000:c3:00.0 '"192.168.100.1/30"'
	entry cx 0000:c2:00.0 '"10.10.0.11/24"'
	entry v6 0000:c4:00.0 '"2001:db8::e/64", "192.168.101.1/30"'
	entry two 0000:c5:00.0 '"10.20.0.1/24", "10.20.0.9/24"'
	entry einval 0000:c6:00.0 '"192.168.102.1/30"'
	entry nodev 0000:c7:00.0 '"192.168.104.1/30"'
	entry nomod 0000:c8:00.0 '"192.168.105.1/30"'
	entry iwarp 0000:c9:00.0 '"192.168.106.1/30"'
	entry down 0000:ca:00.0 '"192.168.103.1/30"'
	entry init 0000:cb:00.0 '"192.168.107.1/30"'
	# No roce group: no rdma items, even without an RDMA device.
	echo '  { name = "mgmt"; match = { pci = "0000:cc:00.0"; }; }'
	echo ');'
} | write_conf "$CONF"
fake_nic eth-mgmt 0000:cc:00.0 r8169
# rdma_cm loaded, no device directory yet: drift, not failed.
mkdir -p "$ROOT/sys/kernel/config/rdma_cm"
ip -n "$NS" link add eth-mgmt type veth peer name eth-mgmt-p

run_halo --root "$ROOT" --netns "$NS" --only rdma --check --json
is "$rc" 6 "check: exit 6 (drift and failed items)"
[ -n "$err" ] && diag "$err"

is "$(item rdma/irdma/device .observed)" "irdma0 port 1" "irdma: device irdma0 port 1"
is "$(item rdma/irdma/gid-index .observed)/$(item rdma/irdma/gid-index .outcome)" "1/ok" \
	"irdma: GID index 1"
is "$(item rdma/irdma/port-state .observed)/$(item rdma/irdma/port-state .outcome)" \
	"ACTIVE, LinkUp/ok" "irdma: port ACTIVE, LinkUp"
is "$(item rdma/cx/device .observed)" "rocep194s0f0 port 1" "mlx5: the renamed device is found"
is "$(item rdma/cx/gid-index .observed)" 3 "mlx5: GID index 3 (the v2 one of the IPv4 pair)"
is "$(item rdma/v6/gid-index .observed)" 2 "an IPv6 address before it shifts the index to 2"
is "$(item rdma/two/gid-index .observed)" 5 "two IPv4 addresses: the configured one (5)"
like "$(item rdma/two/gid-index .message)" \
	'eth-g: the configured 10\.20\.0\.1 is RoCE v2 GID index 5 on mlx5_2 port 1, after those of its other IPv4 addresses \(from index 3\)' \
	"... and the choice is said"
if [ -n "$EINVAL_SRC" ]; then
	is "$(cat "$ROOT/sys/class/infiniband/irdma3/ports/1/gid_attrs/types/1" 2>&1 >/dev/null)" \
		"cat: $ROOT/sys/class/infiniband/irdma3/ports/1/gid_attrs/types/1: Invalid argument" \
		"fixture: the deleted entry's type reads EINVAL"
	is "$(item rdma/einval/gid-index .observed)/$(item rdma/einval/gid-index .outcome)" "2/ok" \
		"an entry reading EINVAL is skipped: index 2"
else
	ok 0 "# SKIP no mount namespace: EINVAL entries not simulated"
	ok 0 "# SKIP no mount namespace"
fi
is "$(item rdma/nodev/device .outcome)" failed "ice without RDMA device: failed"
is "$(item rdma/nodev/device .message)" \
	"no RDMA device on eth-b (none in $ROOT/sys/class/net/eth-b/device/infiniband): irdma is loaded but has no device on it (RoCE and iWARP both off in devlink: roce.enable = true)" \
	"... with the reason"
is "$(item rdma/nomod/device .message)" \
	"no RDMA device on eth-d (none in $ROOT/sys/class/net/eth-d/device/infiniband): module mlx5_ib is not loaded (modules.load = [ \"mlx5_ib\" ])" \
	"mlx5 without mlx5_ib: the module is named"
is "$(item rdma/iwarp/device .outcome)" failed "iWARP device: failed"
like "$(item rdma/iwarp/device .message)" \
	'iwp201s0f0 on eth-f is an iWARP device, not RoCE: set roce.enable = true' "... and says why"
is "$(item rdma/down/port-state .observed)/$(item rdma/down/port-state .outcome)" \
	"DOWN, Disabled/drift" "port DOWN: drift"
like "$(item rdma/down/port-state .message)" 'no physical link: check the cable' "... hint: cable"
is "$(item rdma/init/port-state .outcome)" drift "port INIT with link: drift"
like "$(item rdma/init/port-state .message)" 'MTU and speed match the peer' "... hint: MTU"
is "$(item rdma/init/gid-index .outcome)" drift "no IPv4 GID yet: drift"
like "$(item rdma/init/gid-index .message)" \
	'no RoCE v2 GID of 192\.168\.107\.1 on eth-j in irdma6 port 1' "... and which GID is missing"
is "$(jq -r '[.items[] | select(.key | startswith("rdma/mgmt"))] | length' <<<"$out")" 0 \
	"no rdma items for an interface without a roce group"
is "$(jq -r '[.items[] | select(.outcome=="failed") | .key] | sort | join(" ")' <<<"$out")" \
	"rdma/iwarp/device rdma/iwarp/gid-index rdma/iwarp/port-state rdma/iwarp/rdma-cm rdma/nodev/device rdma/nodev/gid-index rdma/nodev/port-state rdma/nodev/rdma-cm rdma/nomod/device rdma/nomod/gid-index rdma/nomod/port-state rdma/nomod/rdma-cm" \
	"only the interfaces without a RoCE device failed"
is "$(jq -r '[.warnings[] | select(test("roce.tos|env_file"))] | length' <<<"$out")" 0 \
	"roce.tos is no longer an unimplemented warning"

# The device is looked up by name every time: renamed again, found again.
mv "$ROOT/sys/devices/pci0000:00/0000:c2:00.0/infiniband/rocep194s0f0" \
	"$ROOT/sys/devices/pci0000:00/0000:c2:00.0/infiniband/mlx5_0"
ln -sfn "../../devices/pci0000:00/0000:c2:00.0/infiniband/mlx5_0" "$ROOT/sys/class/infiniband/mlx5_0"
run_halo --root "$ROOT" --netns "$NS" --only rdma --check --json
is "$(item rdma/cx/device .observed)" "mlx5_0 port 1" "a renamed device is followed"
is "$(item rdma/cx/gid-index .observed)" 3 "... with the same GID index"

# A check changes nothing (no configfs directory is created, no file).
snap=$(cd "$ROOT" && find . | sort)
run_halo --root "$ROOT" --netns "$NS" --only rdma --check
is "$(cd "$ROOT" && find . | sort)" "$snap" "check: the root is unchanged"

# A FIFO or a device planted at a GID entry is not an empty entry (which
# reads EINVAL): the read fails naming the file, whichever of
# the entry's three files it is, and nothing blocks on the FIFO.
P=/sys/class/infiniband/irdma0/ports/1
for plant in "fifo gids/1 gid-index" "device gid_attrs/types/1 gid-index" \
	"fifo gid_attrs/ndevs/1 gid-index"; do
	set -- $plant
	cp "$ROOT$P/$2" "$TEST_TMP/saved"
	rm -f "$ROOT$P/$2"
	if [ "$1" = fifo ]; then mkfifo "$ROOT$P/$2"; what="a FIFO"
	else mknod "$ROOT$P/$2" c 1 3; what="a character device"; fi
	timeout 10 "$HALO" --root "$ROOT" --netns "$NS" --only rdma --check --json \
		>"$TEST_TMP/out" 2>"$TEST_TMP/err"
	rc=$? out=$(cat "$TEST_TMP/out")
	is "$rc" 6 "$1 at $P/$2: exit 6 (failed, no hang)"
	is "$(item "rdma/irdma/$3" .outcome)" failed "... rdma/irdma/$3 failed"
	grep -qF -- "$ROOT$P/$2: $what, not a regular file" <<<"$(item "rdma/irdma/$3" .message)"
	ok $? "... naming it: $(item "rdma/irdma/$3" .message)"
	rm -f "$ROOT$P/$2"
	cp "$TEST_TMP/saved" "$ROOT$P/$2"
done
run_halo --root "$ROOT" --netns "$NS" --only rdma --check --json
is "$(item rdma/irdma/gid-index .observed)/$(item rdma/irdma/gid-index .outcome)" "1/ok" \
	"the entry restored: GID index 1 again"

# The scan ends at the address's entry: what lies past it (here a FIFO,
# which would fail the item if read) is not opened. mlx5's tables run to
# hundreds of entries, a file each.
rm -f "$ROOT$P/gids/5"
mkfifo "$ROOT$P/gids/5"
run_halo --root "$ROOT" --netns "$NS" --only rdma --check --json
is "$(item rdma/irdma/gid-index .observed)/$(item rdma/irdma/gid-index .outcome)" "1/ok" \
	"an entry past the address's is not read"
rm -f "$ROOT$P/gids/5"
echo "$ZERO_GID" >"$ROOT$P/gids/5"

done_testing
