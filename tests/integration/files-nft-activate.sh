#!/bin/bash
# Loading the nftables table on the machine itself (no --root), as the
# boot units run it: the file is written, then `nft -f` loads it. When
# that fails the file goes back to what it was (absent, or the previous
# version byte for byte), so the next run sees it differ and loads it
# again instead of calling it right. Run in a network namespace and a
# mount namespace of its own: /etc and /var are overlays on the host's
# (every write lands in the test's directory), /run is a tmpfs, and
# /usr/sbin/nft is a stand-in that fails or records its loads.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/integration/firewall-lib.sh"

mkdir -p "$TEST_TMP/probe/l" "$TEST_TMP/probe/u" "$TEST_TMP/probe/w" "$TEST_TMP/probe/m"
if ! command -v nft >/dev/null || ! unshare -m --propagation private mount -t overlay overlay \
	-o "lowerdir=$TEST_TMP/probe/l,upperdir=$TEST_TMP/probe/u,workdir=$TEST_TMP/probe/w" \
	"$TEST_TMP/probe/m" 2>/dev/null; then
	echo "1..0 # SKIP needs nft, unshare -m and overlayfs"
	exit 0
fi
firewall_node nftact
conf true nftables
NFT=/etc/nftables.d/halo-provision.nft
KEY=file$NFT
T=$TEST_TMP
mkdir -p "$T/etc.u" "$T/etc.w" "$T/var.u" "$T/var.w"
cat >"$T/nft-fails" <<'SH'
#!/bin/sh
echo "Error: Could not process rule: No such file or directory" >&2
exit 1
SH
cat >"$T/nft-loads" <<SH
#!/bin/sh
cat "\$2" >>"$T/loaded"
SH
chmod 755 "$T/nft-fails" "$T/nft-loads"

# on_node NFT ARGS...: halo-provision on the namespace's machine with
# /usr/sbin/nft being NFT; the run's stdout, stderr, exit code and the
# table file as it is after (or "absent") land in $T.
on_node() {
	local fake=$1
	shift
	ip netns exec "$NS" unshare -m --propagation private bash -c '
		T=$1 fake=$2 conf=$3 halo=$4; shift 4
		mount -t overlay overlay -o "lowerdir=/etc,upperdir=$T/etc.u,workdir=$T/etc.w" /etc &&
		mount -t overlay overlay -o "lowerdir=/var,upperdir=$T/var.u,workdir=$T/var.w" /var &&
		mount -t tmpfs tmpfs /run && mount --bind "$T/$fake" /usr/sbin/nft || exit 99
		"$halo" -c "$conf" --only files "$@" >"$T/out" 2>"$T/err"
		echo $? >"$T/rc"
		cat '"$NFT"' >"$T/after" 2>/dev/null || echo absent >"$T/after"
	' on_node "$T" "$fake" "$CONF" "$HALO" "$@"
	out=$(cat "$T/out") err=$(cat "$T/err") rc=$(cat "$T/rc")
}

on_node nft-fails --json
is "$rc" 4 "nft -f fails: exit 4"
is "$(item "$KEY" .outcome)" failed "the table item failed"
is "$(item "$KEY" .message)" \
	"nft -f exited 1: Error: Could not process rule: No such file or directory; $NFT is back as it was, for the next run to write and load again" \
	"... saying what failed and that the file is back"
is "$(cat "$T/after")" absent "the file is absent again, as it was"

on_node nft-fails --json
is "$rc" 4 "the next run writes and loads it again: exit 4 again, not 0"

on_node nft-loads --json
is "$rc" 2 "nft -f loads it: exit 2"
is "$(item "$KEY" .note)" "loaded with nft -f $NFT" "... and says so"
is "$(cat "$T/loaded")" "$(cat "$T/after")" "nft -f was given the file that stays"
written=$(cat "$T/after")

on_node nft-loads --json
is "$rc" 0 "again: exit 0, nothing loaded"
is "$(cat "$T/loaded")" "$written" "... nft not run a second time"

# A table of another version in place: a failed load puts it back byte
# for byte, with its mode.
printf '# Managed by halo-provision; local changes will be overwritten.\ntable inet halo_provision {\n}\n' \
	>"$T/etc.u/nftables.d/halo-provision.nft"
chmod 0640 "$T/etc.u/nftables.d/halo-provision.nft"
old=$(cat "$T/etc.u/nftables.d/halo-provision.nft")
on_node nft-fails --json
is "$rc" 4 "an older table, nft -f fails: exit 4"
is "$(cat "$T/after")" "$old" "the older table is back, byte for byte"
is "$(stat -c %a "$T/etc.u/nftables.d/halo-provision.nft")" 640 "... with its mode"
test ! -e /etc/nftables.d/halo-provision.nft
ok $? "the host's /etc never saw the table"

done_testing
