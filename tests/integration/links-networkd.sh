#!/bin/bash
# systemd-networkd and netplan, for real: the real `netplan generate
# --root-dir` renders an Ubuntu server's netplan files (the installer's
# all-en DHCP file, an RDMA file for mlx5 ports) into the node root's
# run/systemd/network; --dry-run names networkd and the file that would
# manage each managed link; apply writes the owned drop-in that sorts
# first with Unmanaged=yes; the real systemd-networkd (Debian's), run in
# the node's network namespace with the root's files and a private /run,
# then leaves the link alone for HOLD seconds while a DHCP server (a
# second real networkd on the peer side) offers an address, a default
# route and MTU 1500. The negative control: without the drop-in the same
# networkd takes the link (MTU 1500, a DHCP address), and --check names it.
# Then the drop-in follows the config (an entry leaves, all leave) and
# --revert removes it; bad files in networkd's directories are refused.
source "$top_srcdir/tests/lib/tap.sh"

NETWORKD=/lib/systemd/systemd-networkd
command -v netplan >/dev/null || { echo "1..0 # SKIP netplan is not installed"; exit 0; }
[ -x "$NETWORKD" ] || { echo "1..0 # SKIP $NETWORKD is not installed"; exit 0; }
getent passwd systemd-network >/dev/null ||
	{ echo "1..0 # SKIP no systemd-network user for networkd"; exit 0; }
# networkd's own directories are mount points of its private view.
[ -d /etc/systemd/network ] && [ -d /usr/lib/systemd/network ] ||
	{ echo "1..0 # SKIP systemd's network directories are missing"; exit 0; }
# networkd, once it runs as its own user, resolves every path from /: a
# root directory others cannot search (a chroot made in a mktemp
# directory) stops it with EACCES before it reads a file.
[ $(( 0$(stat -c %a /) & 1 )) = 1 ] ||
	{ echo "1..0 # SKIP / is not searchable by networkd's user (mode $(stat -c %a /))"; exit 0; }
NS=$(new_netns nd) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
PEER=$(new_netns ndpeer) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
HOLD=${HALO_NETWORKD_HOLD:-30}

# networkd processes started here, stopped by pid (and on exit).
NETWORKD_PIDS=()
stop_networkd() {
	local pid
	for pid in "$@"; do
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
}
trap 'stop_networkd "${NETWORKD_PIDS[@]}"; tap_cleanup' EXIT

# start_networkd NETNS RUNDIR ETCDIR LOG: the real networkd in NETNS, in a
# private mount namespace where RUNDIR is /run, ETCDIR is
# /etc/systemd/network and the host's own networkd files are hidden, so
# it reads exactly the node root's files and writes its state into
# RUNDIR; /sys read-only, as in a container, so it does not wait for
# udev (which sees no device of another network namespace). Sets $ND_PID.
start_networkd() {
	local empty=$TEST_TMP/empty
	mkdir -p "$empty" "$2/systemd/netif/links" "$2/systemd/netif/leases" "$2/systemd/netif/lldp"
	# networkd drops to its own user: its runtime directory is that
	# user's, as systemd's tmpfiles.d/systemd-network.conf makes it, and
	# its files are readable (the bind mounts hide the 0700 test
	# directories above them).
	chown -R systemd-network:systemd-network "$2/systemd/netif"
	chmod -R go+rX "$2" "$3"
	ip netns exec "$1" unshare -m --propagation private sh -c '
		mount -o remount,bind,ro /sys &&
		mount --bind "$1" /run &&
		mount --bind "$2" /etc/systemd/network &&
		mount --bind "$3" /usr/lib/systemd/network &&
		SYSTEMD_LOG_LEVEL=debug exec "$4"' sh "$2" "$3" "$empty" "$NETWORKD" >"$4" 2>&1 &
	ND_PID=$!
	NETWORKD_PIDS+=("$ND_PID")
}

ROOT=$TEST_TMP/root
CONF=$ROOT/etc/halo-provision/halo.conf
DROPIN=$ROOT/etc/systemd/network/00-halo-provision-unmanaged.network
mkdir -p "$ROOT/etc/halo-provision" "$ROOT/etc/netplan" "$ROOT/etc/systemd/network"
ip -n "$NS" link add enp194s0f0 type veth peer name peer0 netns "$PEER"
ip -n "$NS" link add enp194s0f1 type veth peer name peer1 netns "$PEER"
ip -n "$PEER" link set peer0 up
fake_nic enp194s0f0 0000:c2:00.0 mlx5_core
fake_nic enp194s0f1 0000:c2:00.1 mlx5_core
MAC0=$(ip -n "$NS" -j link show enp194s0f0 | jq -r '.[0].address')
MAC1=$(ip -n "$NS" -j link show enp194s0f1 | jq -r '.[0].address')
IDX0=$(ip -n "$NS" -j link show enp194s0f0 | jq -r '.[0].ifindex')

# The installer's netplan file and the guide's RDMA file.
install -m 0600 /dev/stdin "$ROOT/etc/netplan/50-cloud-init.yaml" <<'EOF'
network:
  version: 2
  ethernets:
    all-en:
      match:
        name: "en*"
      dhcp4: true
EOF
install -m 0600 /dev/stdin "$ROOT/etc/netplan/60-rdma.yaml" <<EOF
network:
  version: 2
  ethernets:
    rdma0:
      match: {driver: mlx5_core, macaddress: "$MAC0"}
      mtu: 9000
      addresses: [10.0.1.1/24]
    rdma1:
      match: {driver: mlx5_core, macaddress: "$MAC1"}
      mtu: 9000
      addresses: [10.0.2.1/24]
EOF
netplan generate --root-dir "$ROOT" 2>"$TEST_TMP/netplan.err"
ok $? "netplan generate --root-dir renders the node's netplan files"
[ -s "$TEST_TMP/netplan.err" ] && diag "$(cat "$TEST_TMP/netplan.err")"
ALLEN=/run/systemd/network/10-netplan-all-en.network
test -f "$ROOT$ALLEN" && test -f "$ROOT/run/systemd/network/10-netplan-rdma0.network"
ok $? "netplan wrote $ALLEN and the rdma files into the root"
# networkd installed and enabled in the root, as on Ubuntu server.
mkdir -p "$ROOT/usr/lib/systemd" "$ROOT/etc/systemd/system/multi-user.target.wants"
: >"$ROOT/usr/lib/systemd/systemd-networkd"
ln -s /lib/systemd/system/systemd-networkd.service \
	"$ROOT/etc/systemd/system/multi-user.target.wants/systemd-networkd.service"

write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "rdma0"; match = { driver = "mlx5_core"; pci = "0000:c2:00.0"; };
    mtu = 9000; addresses = [ "10.0.1.1/24" ]; exclusive_addresses = true; },
  { name = "rdma1"; match = { driver = "mlx5_core"; pci = "0000:c2:00.1"; }; mtu = 9000; }
);
CONF
halo() { run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only links "$@"; }
item() { jq -r --arg k "$1" '.items[] | select(.key==$k) | '"$2" <<<"$out"; }
KEY=file/etc/systemd/network/00-halo-provision-unmanaged.network

# ---- notice: --dry-run names networkd and the file, changes nothing ----
before=$(tree_snapshot "$ROOT")
halo --dry-run --json
is "$rc" 2 "dry-run: exit 2 (drift)"
is "$(item "$KEY" .outcome)" drift "dry-run: the networkd drop-in would be written"
like "$(item "$KEY" .note)" \
	"systemd-networkd manages enp194s0f0 \\($ALLEN\\), enp194s0f1 \\($ALLEN\\): unmanaged from its next reload \\(networkctl reload\\) or the next boot" \
	"dry-run: the item names networkd, each link and the file that would manage it"
is "$(tree_snapshot "$ROOT")" "$before" "dry-run changed nothing in the root"
test ! -e "$DROPIN"
ok $? "dry-run: no drop-in"
halo --dry-run
like "$out" "00-halo-provision-unmanaged\\.network .*; systemd-networkd" "dry-run text names networkd too"
halo --dry-run -v
like "$out" "systemd-networkd manages enp194s0f0 \\($ALLEN\\)" "... and -v says which file makes it manage the link"

# ---- hand over: apply writes the drop-in ----
ip -n "$NS" link set enp194s0f1 mtu 9000
halo --json
is "$rc" 2 "apply: exit 2"
[ -z "$err" ] || diag "$err"
is "$(grep -v '^#' "$DROPIN")" $'[Match]\nName=enp194s0f0 enp194s0f1\n\n[Link]\nUnmanaged=yes' \
	"the drop-in matches both managed links, Unmanaged=yes"
head -1 "$DROPIN" | grep -q 'Managed by halo-provision'
ok $? "the drop-in carries the managed header"
is "$(ls "$ROOT/etc/systemd/network" "$ROOT/run/systemd/network" | grep '\.network$' | LC_ALL=C sort | head -1)" \
	00-halo-provision-unmanaged.network "the drop-in sorts before every other .network file"
halo
is "$rc" 0 "second apply: in sync (exit 0)"
halo --check
is "$rc" 0 "check: clean"

# ---- the real networkd with the drop-in: the links are left alone ----
mkdir -p "$TEST_TMP/peer-run" "$TEST_TMP/peer-etc"
cat >"$TEST_TMP/peer-etc/10-dhcp-server.network" <<'EOF'
[Match]
Name=peer0

[Network]
Address=10.0.1.254/24
DHCPServer=yes

[DHCPServer]
PoolOffset=100
PoolSize=20
EmitRouter=yes
SendOption=26:uint16:1500
EOF
start_networkd "$PEER" "$TEST_TMP/peer-run" "$TEST_TMP/peer-etc" "$TEST_TMP/peer.log"
SERVER=$ND_PID
start_networkd "$NS" "$ROOT/run" "$ROOT/etc/systemd/network" "$TEST_TMP/node.log"
NODE=$ND_PID
STATE=$ROOT/run/systemd/netif/links/$IDX0
for _ in $(seq 300); do
	grep -qs '^ADMIN_STATE=unmanaged' "$STATE" && break
	sleep 0.1
done
admin=$(grep '^ADMIN_STATE=' "$STATE" 2>/dev/null)
is "$admin" ADMIN_STATE=unmanaged "networkd's record of enp194s0f0: unmanaged"
[ "$admin" = ADMIN_STATE=unmanaged ] || diag "networkd said: $(tail -15 "$TEST_TMP/node.log")"
sleep "$HOLD"
kill -0 "$NODE" 2>/dev/null && kill -0 "$SERVER" 2>/dev/null
ok $? "both networkd instances still run after ${HOLD}s"
is "$(ip -n "$NS" -j link show enp194s0f0 | jq -r '.[0].mtu')" 9000 "after ${HOLD}s: MTU 9000 holds"
is "$(ip -n "$NS" -j -4 addr show dev enp194s0f0 | jq -r '[.[0].addr_info[] | "\(.local)/\(.prefixlen)"] | join(" ")')" \
	10.0.1.1/24 "after ${HOLD}s: only the configured address, no DHCP one"
is "$(ip -n "$NS" -j route show default | jq length)" 0 "after ${HOLD}s: no default route"
grep -q 'enp194s0f0: .*unmanaged' "$TEST_TMP/node.log"
ok $? "networkd's log calls enp194s0f0 unmanaged"
halo --check
is "$rc" 0 "check while networkd runs: clean"
stop_networkd "$NODE"

# ---- negative control: without the drop-in networkd takes the link ----
mv "$DROPIN" "$TEST_TMP/dropin.saved"
rm -rf "$ROOT/run/systemd/netif"
start_networkd "$NS" "$ROOT/run" "$ROOT/etc/systemd/network" "$TEST_TMP/node2.log"
NODE=$ND_PID
taken=
for _ in $(seq 600); do
	mtu=$(ip -n "$NS" -j link show enp194s0f0 | jq -r '.[0].mtu')
	n4=$(ip -n "$NS" -j -4 addr show dev enp194s0f0 | jq '.[0].addr_info | length')
	if [ "$mtu" = 1500 ] && [ "$n4" -gt 1 ]; then taken=1; break; fi
	sleep 0.1
done
ok $(( taken != 1 )) "without the drop-in networkd takes enp194s0f0: MTU $mtu, $n4 IPv4 addresses"
is "$(grep '^NETWORK_FILE=' "$STATE" 2>/dev/null)" "NETWORK_FILE=$ALLEN" \
	"networkd's record names netplan's all-en file"
halo --check --json
is "$rc" 2 "check: drift"
like "$(item link/rdma0/mtu .message)" \
	"likely undone by systemd-networkd, which manages enp194s0f0 \\($ALLEN\\)" \
	"check names networkd (and its file) as the likely cause of the MTU drift"
like "$(item link/rdma0/addr-extra .message)" "likely undone by systemd-networkd" \
	"... and of the extra (DHCP) address"
stop_networkd "$NODE"
# networkd stopped; its record is still there and the drop-in still
# missing: check names it from the files alone.
rm -rf "$ROOT/run/systemd/netif"
halo --check --json
like "$(item link/rdma0/mtu .message)" \
	"likely undone by systemd-networkd, which manages enp194s0f0 \\($ALLEN\\) unless /etc/systemd/network/00-halo-provision-unmanaged.network excludes it" \
	"with no record, check names networkd from its files and the missing drop-in"
halo
is "$rc" 2 "apply again: the drop-in is back, the link converged"
test -f "$DROPIN"
ok $? "the drop-in is back"
stop_networkd "$SERVER"

# ---- a drop-in of netplan's file, read as networkd reads it ----
# Unmanaged=yes in a drop-in of the file that takes the links: networkd
# leaves them alone, so the tool's own file is not needed.
NPDROP=$ROOT/etc/systemd/network/10-netplan-all-en.network.d
mkdir -p "$NPDROP"
printf '[Link]\nUnmanaged=yes\n' >"$NPDROP/50-rdma.conf"
halo --dry-run --json
is "$(item "$KEY" .wanted)" absent "netplan's file made unmanaged by a drop-in: the tool's file would go"
mv "$DROPIN" "$TEST_TMP/dropin.saved"
rm -rf "$ROOT/run/systemd/netif"
start_networkd "$NS" "$ROOT/run" "$ROOT/etc/systemd/network" "$TEST_TMP/node3.log"
NODE=$ND_PID
for _ in $(seq 300); do
	grep -qs '^ADMIN_STATE=unmanaged' "$STATE" && break
	sleep 0.1
done
is "$(grep '^ADMIN_STATE=' "$STATE" 2>/dev/null)" ADMIN_STATE=unmanaged \
	"the real networkd agrees: the drop-in leaves enp194s0f0 unmanaged"
stop_networkd "$NODE"
rm -rf "$NPDROP" "$ROOT/run/systemd/netif"
halo
is "$rc" 2 "the drop-in gone: apply writes the tool's file again"
test -f "$DROPIN"
ok $? "... and it is there"

# ---- a managed NIC gone: the audit fails its link, not the drop-in ----
# The drop-in lists every managed link: planned on the links left, it
# would read as drift; it is held back, kept recorded, and a warning says so.
ip -n "$NS" link set enp194s0f1 netns "$PEER"
halo --check --json
is "$rc" 4 "check with enp194s0f1 gone: its link failed (exit 4), nothing drifts"
is "$(item link/rdma1/present .outcome)" failed "... link/rdma1/present failed"
is "$(item "$KEY" .outcome)" ok "... the drop-in is no drift"
is "$(item "$KEY" .wanted)" "left as is (held back in this run, as a warning says)" \
	"... it is left as is"
like "$(jq -r '.warnings[]' <<<"$out")" \
	'links: interface "rdma1" has no link: /etc/systemd/network/00-halo-provision-unmanaged.network is not written or checked' \
	"... and a warning says why"
# A revert removes it all the same, the state file's record or not.
NODE_STATE=$ROOT/var/lib/halo-provision/state.json
mv "$NODE_STATE" "$TEST_TMP/state.saved"
halo --dry-run --revert --json
is "$(item "$KEY" .wanted)" absent "... a revert without the state file would still remove it"
is "$(jq -r '[.warnings[] | select(startswith("links:"))] | length' <<<"$out")" 0 \
	"... and says nothing of holding it back"
# None there yet: it is planned for the links present, which it hands over.
mv "$DROPIN" "$TEST_TMP/dropin.held"
halo --check --json
is "$(item "$KEY" .outcome)" drift "none there yet: the drop-in is planned (drift)"
like "$(item "$KEY" .note)" "systemd-networkd manages enp194s0f0 " "... for the link present"
mv "$TEST_TMP/dropin.held" "$DROPIN"
mv "$TEST_TMP/state.saved" "$NODE_STATE"
ip -n "$PEER" link set enp194s0f1 netns "$NS"
ip -n "$NS" link set enp194s0f1 mtu 9000 up
halo --check --json
is "$rc" 0 "the NIC back: check clean"
[ "$rc" = 0 ] || diag "$(jq -c '.items[] | select(.outcome != "ok")' <<<"$out")"

# ---- the drop-in follows the config ----
write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "rdma0"; match = { driver = "mlx5_core"; pci = "0000:c2:00.0"; };
    mtu = 9000; addresses = [ "10.0.1.1/24" ]; exclusive_addresses = true; }
);
CONF
halo
is "$rc" 2 "rdma1 left the config: apply rewrites the drop-in"
is "$(grep '^Name=' "$DROPIN")" Name=enp194s0f0 "the drop-in names only enp194s0f0"
install -m 0600 /dev/stdin "$TEST_TMP/mtu-only.conf" <<'CONF'
version = 1;
interfaces = (
  { name = "rdma0"; match = { driver = "mlx5_core"; pci = "0000:c2:00.0"; }; mtu = 9000; }
);
CONF
# networkd disabled in the root: nothing of it may manage the link.
rm "$ROOT/etc/systemd/system/multi-user.target.wants/systemd-networkd.service"
halo --dry-run --json
is "$(item "$KEY" .wanted)" absent "networkd disabled: the drop-in would go"
ln -s /lib/systemd/system/systemd-networkd.service \
	"$ROOT/etc/systemd/system/multi-user.target.wants/systemd-networkd.service"
write_conf "$CONF" <<'CONF'
version = 1;
boot = { loader = "none"; };
CONF
halo
is "$rc" 2 "no interface left in the config: apply removes the drop-in"
test ! -e "$DROPIN"
ok $? "the drop-in is gone"

# ---- --revert removes it ----
cp "$TEST_TMP/mtu-only.conf" "$CONF"
halo
is "$rc" 2 "back in the config: the drop-in is written again"
test -f "$DROPIN"
ok $? "the drop-in is back"
halo --revert
is "$rc" 2 "--revert: exit 2"
test ! -e "$DROPIN"
ok $? "--revert removed the drop-in"

# ---- bad files in networkd's directories: exit 1, nothing changed ----
halo
bad() {	# bad DESCRIPTION PATH-IN-ROOT REGEX
	before=$(tree_snapshot "$ROOT")
	halo
	is "$rc" 1 "$1: exit 1"
	like "$err" "^halo-provision: links: [^:]*: $ROOT$2: $3\$" "$1: one line naming the file"
	is "$(tree_snapshot "$ROOT")" "$before" "$1: nothing changed"
}
mkfifo "$ROOT/run/systemd/network/20-fifo.network"
bad "a FIFO in run/systemd/network" /run/systemd/network/20-fifo.network ".*FIFO.*"
rm "$ROOT/run/systemd/network/20-fifo.network"
ln -s /etc/passwd "$ROOT/etc/systemd/network/20-link.network"
bad "a symlink in etc/systemd/network" /etc/systemd/network/20-link.network ".*symbolic link.*"
rm "$ROOT/etc/systemd/network/20-link.network"
mkdir -p "$ROOT/run/systemd/netif/links"
mkfifo "$ROOT/run/systemd/netif/links/$IDX0"
bad "a FIFO as networkd's record" "/run/systemd/netif/links/$IDX0" ".*FIFO.*"
rm "$ROOT/run/systemd/netif/links/$IDX0"
mkdir -p "$ROOT/run/systemd/network/10-netplan-all-en.network.d"
mkfifo "$ROOT/run/systemd/network/10-netplan-all-en.network.d/50-fifo.conf"
bad "a FIFO among a .network file's drop-ins" \
	/run/systemd/network/10-netplan-all-en.network.d/50-fifo.conf ".*FIFO.*"
rm -r "$ROOT/run/systemd/network/10-netplan-all-en.network.d"
ln -s /dev/null "$ROOT/etc/systemd/network/10-netplan-all-en.network"
halo --dry-run --json
is "$(item "$KEY" .wanted)" absent \
	"a mask (symlink to /dev/null) hides netplan's all-en file: nothing to hand over"
# An alternative name (the kernel's IFLA_PROP_LIST) counts for Name=.
if ip -n "$NS" link property add dev enp194s0f0 altname rdma-alt0 2>/dev/null; then
	printf '[Match]\nName=rdma-alt*\n' >"$ROOT/etc/systemd/network/50-alt.network"
	halo --dry-run --json
	like "$(item "$KEY" .note)" "enp194s0f0 \\(/etc/systemd/network/50-alt.network\\)" \
		"a file matching the link's alternative name would manage it"
	rm "$ROOT/etc/systemd/network/50-alt.network"
else
	ok 0 "# SKIP the kernel has no alternative interface names"
fi
rm "$ROOT/etc/systemd/network/10-netplan-all-en.network"

# ---- NetworkManager connection profiles bound to a managed link ----
P=$ROOT/etc/NetworkManager/system-connections
mkdir -p "$P" "$ROOT/usr/sbin"
printf '[connection]\nid=rdma0\ntype=ethernet\ninterface-name=enp194s0f0\n[ethernet]\nmtu=9000\n' \
	>"$P/rdma0.nmconnection"
printf '[connection]\nid=by mac\ntype=ethernet\n[ethernet]\nmac-address=%s\n' "${MAC0^^}" \
	>"$P/by-mac.nmconnection"
printf '[connection]\nid=other\ninterface-name=eno1\n' >"$P/other.nmconnection"
halo --dry-run --json
is "$(jq -r '[.warnings[] | select(test("NetworkManager profile"))] | length' <<<"$out")" 0 \
	"without NetworkManager the profiles are inert: no warning"
: >"$ROOT/usr/sbin/NetworkManager"
halo --dry-run --json
is "$(jq -r '[.warnings[] | select(test("NetworkManager profile"))] | length' <<<"$out")" 2 \
	"two profiles bound to the managed link are named, the other one is not"
like "$(jq -r '.warnings[]' <<<"$out")" \
	"NetworkManager profile /etc/NetworkManager/system-connections/rdma0.nmconnection \\(\"rdma0\"\\) is bound to enp194s0f0 by interface-name: .*nmcli connection delete \"rdma0\".*nmcli connection modify \"rdma0\" connection.autoconnect no" \
	"the warning names the profile file and the nmcli commands"
like "$(jq -r '.warnings[]' <<<"$out")" "by-mac.nmconnection \\(\"by mac\"\\) is bound to enp194s0f0 by mac-address" \
	"a profile bound by MAC address is named too"
# With another entry's link gone, the profiles bound to the link present
# are still named.
cp "$CONF" "$TEST_TMP/one-entry.conf"
write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "rdma0"; match = { driver = "mlx5_core"; pci = "0000:c2:00.0"; }; mtu = 9000; },
  { name = "rdma1"; match = { driver = "mlx5_core"; pci = "0000:c2:00.1"; }; mtu = 9000; }
);
CONF
ip -n "$NS" link set enp194s0f1 netns "$PEER"
halo --check --json
is "$(jq -r '[.warnings[] | select(test("NetworkManager profile"))] | length' <<<"$out")" 2 \
	"rdma1's link gone: the check still names the two profiles bound to enp194s0f0"
ip -n "$PEER" link set enp194s0f1 netns "$NS"
cp "$TEST_TMP/one-entry.conf" "$CONF"
mkfifo "$P/fifo.nmconnection"
bad "a FIFO among NetworkManager's profiles" /etc/NetworkManager/system-connections/fifo.nmconnection ".*FIFO.*"
done_testing
