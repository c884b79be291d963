#!/bin/bash
# The nftables table of the managed interfaces (firewall.backend =
# "nftables", or "auto" with nft and no firewalld in the root): written
# from the live names, read by the real `nft -c -f` (this test runs in a
# network namespace of its own), loaded twice beside another table that
# stays as it was, not written again when right, drift and diff after an
# edit, a symlink refused, a name nft could not hold refused, nothing run
# under --root.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/integration/firewall-lib.sh"

if ! command -v nft >/dev/null; then
	echo "1..0 # SKIP nft (nftables) is not installed"
	exit 0
fi
firewall_node nft
mkdir -p "$ROOT/usr/sbin"
: >"$ROOT/usr/sbin/nft"
NFT=$ROOT/etc/nftables.d/halo-provision.nft
KEY=file/etc/nftables.d/halo-provision.nft
nft_check() { check_out=$(nft -c -f "$1" 2>&1); }

conf true auto
halo --check --json
is "$rc" 2 "auto with nft in the root: check finds drift (exit 2)"
[ -n "$err" ] && diag "$err"
is "$(item $KEY .outcome)" drift "the table file drifts"
test ! -e "$NFT"
ok $? "check wrote nothing"

halo --json
is "$rc" 2 "apply: exit 2 (changed)"
is "$(item $KEY .outcome)" changed "the table file was written"
like "$(item $KEY .note)" 'under --root the table is not loaded: left to the operator \(nft -f /etc/nftables.d/halo-provision.nft\) or the next boot' \
	"under --root: loading is left to the operator or the next boot"
is "$(jq -r .stats.spawned <<<"$out")" 0 "under --root nothing was run (no nft -f)"
head -1 "$NFT" | grep -q '^# Managed by halo-provision'
ok $? "the file carries the managed header"
is "$(grep -v '^#' "$NFT" | head -2)" "table inet halo_provision
delete table inet halo_provision" "it replaces its own table, and only that"
is "$(grep -E '^[[:space:]]*(flush|delete|table|add|create)' "$NFT" | grep -vc 'inet halo_provision')" 0 \
	"no flush ruleset, no other table"
like "$(tr -d '\n\t' <"$NFT")" 'iifname \{ "eth-a", "eth-c" \} accept' "both live interfaces accepted"
nft_check "$NFT"
ok $? "nft -c -f accepts the file"
[ -z "$check_out" ] || diag "$check_out"

snap=$(tree_snapshot "$ROOT")
halo
is "$rc" 0 "apply again: exit 0"
is "$(tree_snapshot "$ROOT")" "$snap" "the second apply wrote nothing"

# Ports instead of trust.
conf false nftables
halo --json --diff
is "$rc" 2 "trusted_interfaces = false: exit 2"
like "$(item $KEY .diff)" '\+		iifname \{ "eth-a", "eth-c" \} udp dport \{ 4791 \} accept' \
	"the diff shows the UDP rule"
like "$(cat "$NFT")" 'tcp dport \{ 6379, 8265 \} accept' "the TCP ports"
nft_check "$NFT"
ok $? "nft -c -f accepts the file with ports"
[ -z "$check_out" ] || diag "$check_out"
# A minimal host has no /etc/protocols (package netbase): nft resolves
# protocol names through it, so the file must use none.
bare_out=$(unshare -m -- sh -c 'mount --bind /dev/null /etc/protocols && nft -c -f "$1"' _ "$NFT" 2>&1)
ok $? "nft -c -f accepts it on a host without /etc/protocols"
[ -z "$bare_out" ] || diag "$bare_out"

# Loaded for real in this test's namespace beside an operator's table:
# twice (the second load replaces ours), the other table untouched.
nft -f - <<'EOF2'
table inet filter {
	chain input { type filter hook input priority 0; policy accept; tcp dport 22 accept; }
}
EOF2
before=$(nft list table inet filter)
nft -f "$NFT" && nft -f "$NFT"
ok $? "nft -f loads it twice"
is "$(nft list table inet filter)" "$before" "the operator's table is untouched"
is "$(nft list tables | sort | tr '\n' ' ')" "table inet filter table inet halo_provision " \
	"two tables, ours once"
is "$(nft list chain inet halo_provision input | grep -c 'udp dport 4791 accept')" 1 \
	"the UDP rule once after two loads"

# nft -c can fail: a port out of range in a copy of the file.
sed 's/4791/70000/' "$NFT" >"$TEST_TMP/broken.nft"
nft_check "$TEST_TMP/broken.nft"
ok $((!$?)) "nft -c -f rejects a broken variant (the check can fail)"
like "$check_out" 'rror' "... with its error"

# An edit by hand: drift, a diff, and apply puts it back.
sed -i 's/eth-c/eth-x/' "$NFT"
halo --check --diff
is "$rc" 2 "an edited file: check exit 2"
like "$out" '\+.*"eth-c"' "--diff shows the name put back"
halo
is "$rc" 2 "apply repairs it"
halo --check
is "$rc" 0 "check: exit 0"

# A symlink at the path is refused, the target untouched.
rm "$NFT"
echo keep >"$TEST_TMP/elsewhere"
ln -s "$TEST_TMP/elsewhere" "$NFT"
halo
is "$rc" 1 "a symlink at the table's path: exit 1"
like "$err" 'symlink' "the error says symlink"
is "$(cat "$TEST_TMP/elsewhere")" keep "the symlink's target is untouched"
rm "$NFT"

# nftables chosen while firewalld is installed: said.
mkdir -p "$ROOT/usr/lib/firewalld"
halo --check --json
like "$(jq -r '.warnings[]?' <<<"$out")" 'backend is nftables but firewalld is installed' \
	"nftables beside an installed firewalld: a warning"
rm -r "$ROOT/usr/lib/firewalld"

# A live name a firewall file cannot hold (the kernel allows quotes):
# exit 1, one line, nothing written.
ip -n "$NS" link add 'e"vil' type veth peer name ev-b
ip -n "$NS" link set 'e"vil' address 02:00:00:00:00:42
sed -i 's/{ name = "eth-c"; }/{ name = "eth-c"; }, { name = "rdma9"; match = { mac = "02:00:00:00:00:42"; }; }/' "$CONF"
snap=$(tree_snapshot "$ROOT")
halo
is "$rc" 1 "an unsafe live name: exit 1"
like "$err" 'interface "rdma9" is link "e"vil", a name a firewall file cannot hold verbatim' \
	"the error names the entry and the link"
is "$(tree_snapshot "$ROOT")" "$snap" "nothing changed"

done_testing
