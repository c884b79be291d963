#!/bin/bash
# The sysctl section: the drop-in /etc/sysctl.d/90-halo-provision.conf and
# the running values. Two veths in a namespace are the managed interfaces
# (one matched by MAC under another entry name, one with a dot in its
# name); a fixture /proc/sys under --root holds the running values. The
# drop-in is read back by the real readers, procps `sysctl -p` and
# systemd-sysctl, applied to the veths in their namespace; then a run on
# the namespace's real /proc/sys/net (bind-mounted into a root) sets and
# reads back the kernel's own values.
source "$top_srcdir/tests/lib/tap.sh"

NS=$(new_netns sysctl) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ip -n "$NS" link add eth-a type veth peer name eth-b
ip -n "$NS" link add eth0.100 type veth peer name eth-c
MAC=$(ip -n "$NS" -j link show eth-a | jq -r '.[0].address')

ROOT=$TEST_TMP/root
CONF=$ROOT/etc/halo-provision/halo.conf
DROPIN=$ROOT/etc/sysctl.d/90-halo-provision.conf
mkdir -p "$ROOT/etc/halo-provision"

# proc_key KEY-PATH VALUE: a fixture /proc/sys file, as the kernel prints it.
proc_key() {
	mkdir -p "$(dirname "$ROOT/proc/sys/$1")"
	printf '%s\n' "$2" >"$ROOT/proc/sys/$1"
}
for ifn in eth-a eth-b eth0.100; do
	for leaf in arp_ignore arp_announce rp_filter forwarding; do
		proc_key "net/ipv4/conf/$ifn/$leaf" 0
	done
done
proc_key net/ipv4/conf/all/arp_ignore 0
proc_key net/ipv4/tcp_ecn 2
proc_key net/ipv4/tcp_rmem "$(printf '4096\t131072\t6291456')"
proc_snapshot() { (cd "$ROOT/proc" && find . -type f | sort | xargs cat | sha256sum); }

# conf INTERFACES SYSCTL-BODY
conf() {
	write_conf "$CONF" <<-EOF
	version = 1;
	interfaces = ( $1 );
	sysctl = {
	$2
	};
	EOF
}
TWO="{ name = \"rdma0\"; match = { mac = \"$MAC\"; }; }, { name = \"eth0.100\"; }"
# The keys must be per-namespace: the real readers below apply them.
conf "$TWO" '  multi_nic = "auto";
  settings = [ "net.ipv4.tcp_ecn = 1", "net.ipv4.tcp_rmem=4096 87380 6291456" ];'
halo() { run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only links,files "$@"; }
item() { jq -r --arg k "$1" ".items[] | select(.key == \$k) | $2" <<<"$out"; }
KEY_A=sysctl/net.ipv4.conf.eth-a
KEY_D=sysctl/net.ipv4.conf.eth0/100
FILE=file/etc/sysctl.d/90-halo-provision.conf

# --check and --dry-run: the differences, nothing written.
before=$(tree_snapshot "$ROOT"; proc_snapshot)
halo --check --json
is "$rc" 2 "check before apply: exit 2 (drift)"
[ "$rc" -le 2 ] || diag "$err"
is "$(item "$KEY_A.arp_ignore" .outcome)/$(item "$KEY_A.arp_ignore" .observed)" "drift/0" \
	"check: arp_ignore of eth-a (entry rdma0, matched by MAC) drifts, observed 0"
is "$(item "$KEY_D.rp_filter" .wanted)" 2 "check: the dotted name's key, with '/' for its dot"
is "$(item sysctl/net.ipv4.tcp_rmem .observed)" "4096 131072 6291456" \
	"check: the kernel's tabs read as words"
is "$(item "$FILE" .outcome)" drift "check: the drop-in drifts"
is "$(jq '[.items[] | select(.key | startswith("sysctl/"))] | length' <<<"$out")" 8 \
	"check: 3 keys on each of the 2 interfaces, 2 settings"
halo --dry-run --diff
is "$rc" 2 "dry-run: exit 2"
like "$out" '\+net\.ipv4\.conf\.eth0/100\.rp_filter = 2' "dry-run --diff shows the drop-in's lines"
is "$(tree_snapshot "$ROOT"; proc_snapshot)" "$before" "check and dry-run changed nothing"

# Apply.
halo --json
is "$rc" 2 "apply: exit 2 (changed)"
[ "$rc" = 2 ] || diag "$err"
is "$(grep -v '^#' "$DROPIN")" "net.ipv4.conf.eth-a.arp_ignore = 1
net.ipv4.conf.eth-a.arp_announce = 2
net.ipv4.conf.eth-a.rp_filter = 2
net.ipv4.conf.eth0/100.arp_ignore = 1
net.ipv4.conf.eth0/100.arp_announce = 2
net.ipv4.conf.eth0/100.rp_filter = 2
net.ipv4.tcp_ecn = 1
net.ipv4.tcp_rmem = 4096 87380 6291456" "the drop-in: the rule on the live names, then the settings"
head -1 "$DROPIN" | grep -q '^# Managed by halo-provision'
ok $? "the drop-in starts with the managed header"
is "$(stat -c %a "$DROPIN")" 644 "the drop-in's mode is 0644"
is "$(cat "$ROOT/proc/sys/net/ipv4/conf/eth-a/arp_ignore" "$ROOT/proc/sys/net/ipv4/conf/eth-a/arp_announce" \
	"$ROOT/proc/sys/net/ipv4/conf/eth0.100/rp_filter" "$ROOT/proc/sys/net/ipv4/tcp_rmem" | tr '\n' ,)" \
	"1,2,2,4096 87380 6291456," "the running values were written"
is "$(cat "$ROOT/proc/sys/net/ipv4/conf/eth-b/rp_filter")" 0 "an unmanaged interface is left alone"
is "$(item "$KEY_D.arp_announce" .outcome)" changed "apply: the dotted name's key changed"

# The real readers, on the veths in their namespace.
reset_ns() {
	for ifn in eth-a eth0.100; do
		for leaf in arp_ignore arp_announce rp_filter; do
			ip netns exec "$NS" sh -c "echo 0 >/proc/sys/net/ipv4/conf/$ifn/$leaf"
		done
	done
	ip netns exec "$NS" sh -c 'echo 2 >/proc/sys/net/ipv4/tcp_ecn'
}
ns_values() {
	ip netns exec "$NS" cat /proc/sys/net/ipv4/conf/eth-a/arp_ignore \
		/proc/sys/net/ipv4/conf/eth-a/arp_announce /proc/sys/net/ipv4/conf/eth-a/rp_filter \
		/proc/sys/net/ipv4/conf/eth0.100/arp_ignore /proc/sys/net/ipv4/conf/eth0.100/arp_announce \
		/proc/sys/net/ipv4/conf/eth0.100/rp_filter /proc/sys/net/ipv4/tcp_ecn \
		/proc/sys/net/ipv4/tcp_rmem | tr '\t\n' ' ,'
}
WANT_NS="1,2,2,1,2,2,1,4096 87380 6291456,"
reset_ns
perr=$(ip netns exec "$NS" sysctl -p "$DROPIN" 2>&1 >/dev/null)
is "$?/$perr" "0/" "procps sysctl -p accepts every line of the drop-in"
is "$(ns_values)" "$WANT_NS" "... and sets every key in the namespace (the dotted name too)"
reset_ns
perr=$(ip netns exec "$NS" /lib/systemd/systemd-sysctl "$DROPIN" 2>&1)
is "$?/$perr" "0/" "systemd-sysctl accepts every line of the drop-in"
is "$(ns_values)" "$WANT_NS" "... and sets every key in the namespace"

# A second apply writes nothing.
before=$(tree_snapshot "$ROOT"; proc_snapshot)
halo
is "$rc" 0 "apply again: exit 0"
is "$(tree_snapshot "$ROOT"; proc_snapshot)" "$before" "apply again wrote nothing"
halo --check
is "$rc" 0 "check: exit 0"

# Drift: the file edited by hand, a running value changed.
sed -i 's/^net.ipv4.tcp_ecn = 1$/net.ipv4.tcp_ecn = 0/' "$DROPIN"
halo --check --json --diff
is "$rc" 2 "the drop-in edited: check exit 2"
is "$(item "$FILE" .outcome)" drift "... the drop-in drifts"
like "$(item "$FILE" .diff)" '\+net\.ipv4\.tcp_ecn = 1' "... and the diff shows the line to restore"
printf '1\n' >"$ROOT/proc/sys/net/ipv4/conf/eth-a/rp_filter"
halo --check --json
is "$(item "$KEY_A.rp_filter" .outcome)/$(item "$KEY_A.rp_filter" .observed)" "drift/1" \
	"a running value changed: its item drifts"
halo --json
is "$rc" 2 "apply restores both: exit 2"
is "$(item "$KEY_A.rp_filter" .outcome)/$(item "$FILE" .outcome)" "changed/changed" \
	"... the value and the file"
is "$(cat "$ROOT/proc/sys/net/ipv4/conf/eth-a/rp_filter")/$(grep -c '^net.ipv4.tcp_ecn = 1$' "$DROPIN")" \
	"2/1" "... as the config says"

# A setting the kernel does not have, one that contradicts the rule on a
# live name (eth-a is entry rdma0), a shell metacharacter: exit 1 with
# file:line, nothing changed.
bad_case() { # DESCRIPTION SETTING WANT-REGEX
	conf "$TWO" "  settings = [
    \"net.ipv4.tcp_ecn = 0\",
    \"$2\" ];"
	before=$(tree_snapshot "$ROOT"; proc_snapshot)
	halo
	is "$rc" 1 "$1: exit 1"
	like "$err" "$3" "$1: the message names file:line"
	is "$(tree_snapshot "$ROOT"; proc_snapshot)" "$before" "$1: nothing changed"
}
bad_case "a key not under /proc/sys" "net.ipv4.no_such_key=1" \
	"halo\.conf:6: sysctl\.settings: net\.ipv4\.no_such_key is not a key of this kernel \(no .*/proc/sys/net/ipv4/no_such_key\)"
bad_case "a directory, not a key" "net.ipv4.conf=1" \
	"halo\.conf:6: sysctl\.settings: net\.ipv4\.conf is a directory of keys, not a key"
bad_case "contradicts the rule on a live name" "net.ipv4.conf.eth-a.rp_filter=1" \
	"halo\.conf:6: sysctl\.settings: net\.ipv4\.conf\.eth-a\.rp_filter=1 contradicts multi_nic \(rp_filter=2 on the managed interfaces\) \(eth-a is a managed interface\)"
bad_case "contradicts the rule on an entry name" "net.ipv4.conf.eth0.100.rp_filter=0" \
	"halo\.conf:6: sysctl\.settings: net\.ipv4\.conf\.eth0\.100\.rp_filter=0 contradicts multi_nic"
bad_case "a shell metacharacter" 'net.ipv4.tcp_ecn=1;reboot' \
	'halo\.conf:6: sysctl\.settings\[1\]: "net\.ipv4\.tcp_ecn=1;reboot" is not a sysctl value'
bad_case "a key twice" "net.ipv4.tcp_ecn=1" \
	"halo\.conf:6: sysctl\.settings: net\.ipv4\.tcp_ecn is already set at line 5"
[ "$(grep -c . <<<"$err")" -eq 1 ]
ok $? "one line for one error"

# One managed interface: auto leaves the rule out; with no settings there
# is nothing to write, so the drop-in goes.
conf "{ name = \"rdma0\"; match = { mac = \"$MAC\"; }; }" '  multi_nic = "auto";'
halo --json
is "$rc" 2 "one interface, no settings: exit 2 (the drop-in is removed)"
is "$(jq '[.items[] | select(.key | startswith("sysctl/"))] | length' <<<"$out")" 0 \
	"one interface: auto plans no key"
test ! -e "$DROPIN"
ok $? "one interface: no drop-in"
halo
is "$rc" 0 "one interface: apply again, exit 0"
# No keys and an admin's drop-in at our path (no managed header): left.
echo 'net.ipv4.tcp_ecn = 0' >"$DROPIN"
before=$(stat -c '%i %.9Y' "$DROPIN"; cat "$DROPIN")
halo --json
is "$rc" 0 "no keys, an admin's drop-in at our path: exit 0"
is "$(stat -c '%i %.9Y' "$DROPIN"; cat "$DROPIN")" "$before" "... it is left as it is"
like "$(item file/etc/sysctl.d/90-halo-provision.conf .message)" 'not ours \(no .* header\)' \
	"... and the item says it is not ours"
rm "$DROPIN"
# --revert when a key became read-only since the apply (an apply refuses
# that): the drop-in still goes (a revert leaves the running values).
conf "{ name = \"rdma0\"; match = { mac = \"$MAC\"; }; }" '  settings = [ "net.ipv4.tcp_ecn = 1" ];'
halo
is "$rc" 2 "a setting: the drop-in is written"
chmod a-w "$ROOT/proc/sys/net/ipv4/tcp_ecn"
halo --check
is "$rc" 1 "the key read-only: an apply's checks refuse it"
halo --revert
is "$rc" 2 "--revert with the key read-only: exit 2 (removed)"
is "$err" "" "... no error"
test ! -e "$DROPIN"
ok $? "... the drop-in is removed"
chmod u+w "$ROOT/proc/sys/net/ipv4/tcp_ecn"
# ... "on" applies it to that one interface.
conf "{ name = \"rdma0\"; match = { mac = \"$MAC\"; }; }" '  multi_nic = "on";'
halo
is "$rc" 2 "multi_nic on, one interface: exit 2"
is "$(grep -c '^net\.ipv4\.conf\.eth-a\.' "$DROPIN")" 3 "multi_nic on: the three keys of eth-a"
# ... and "off" with two interfaces leaves it out.
conf "$TWO" '  multi_nic = "off"; settings = [ "net.ipv4.tcp_ecn=1" ];'
halo
is "$rc" 2 "multi_nic off: exit 2"
is "$(grep -v '^#' "$DROPIN")" "net.ipv4.tcp_ecn = 1" "multi_nic off: only the setting"

# A hotplug run (--interface) sets that interface's keys only, and leaves
# the drop-in, which names every key, to the full runs.
conf "$TWO" '  settings = [ "net.ipv4.tcp_ecn=1" ];'
halo --interface eth0.100 --check --json
is "$(jq -c '[.items[] | select(.key | test("^(sysctl|file)/")) | .key]' <<<"$out")" \
	'["sysctl/net.ipv4.conf.eth0/100.arp_ignore","sysctl/net.ipv4.conf.eth0/100.arp_announce","sysctl/net.ipv4.conf.eth0/100.rp_filter"]' \
	"--interface: only that interface's keys, no drop-in"

# A symlink at the drop-in's path is refused before anything changes.
rm -f "$DROPIN"
ln -s /etc/passwd "$DROPIN"
printf '0\n' >"$ROOT/proc/sys/net/ipv4/tcp_ecn"
conf "$TWO" '  settings = [ "net.ipv4.tcp_ecn=1" ];'
before=$(tree_snapshot "$ROOT"; proc_snapshot)
halo
is "$rc" 1 "a symlink at the drop-in: exit 1"
like "$err" 'refusing to write through a symlink: .*/etc/sysctl\.d/90-halo-provision\.conf' \
	"... saying so"
is "$(tree_snapshot "$ROOT"; proc_snapshot)" "$before" "... nothing changed (not even the values)"
rm -f "$DROPIN"

# A fixture key is rewritten in place, so it must be a file of its own:
# one hard-linked to a file outside the root, or reached through a symlink
# (here to another file of the root), is refused before anything changes,
# by --check and apply alike, naming it; neither file is written.
printf '0\n' >"$TEST_TMP/decoy"
mv "$ROOT/proc/sys/net/ipv4/tcp_ecn" "$TEST_TMP/tcp_ecn.saved"
ln "$TEST_TMP/decoy" "$ROOT/proc/sys/net/ipv4/tcp_ecn"
conf "$TWO" '  settings = [ "net.ipv4.tcp_ecn=1" ];'
before=$(tree_snapshot "$ROOT"; proc_snapshot)
for mode in --check ""; do
	halo $mode
	is "$rc" 1 "a key hard-linked out of the root${mode:+ ($mode)}: exit 1"
	like "$err" "refusing to write a file with other hard links: .*/proc/sys/net/ipv4/tcp_ecn" \
		"... saying so"
done
is "$(cat "$TEST_TMP/decoy")" 0 "... the file outside the root keeps its value"
is "$(tree_snapshot "$ROOT"; proc_snapshot)" "$before" "... nothing changed"
rm "$ROOT/proc/sys/net/ipv4/tcp_ecn"
mv "$TEST_TMP/tcp_ecn.saved" "$ROOT/proc/sys/net/ipv4/tcp_ecn"
mkdir -p "$ROOT/etc/kept"
printf '128\n' >"$ROOT/etc/kept/somaxconn"
ln -s /etc/kept "$ROOT/proc/sys/net/core"
conf "$TWO" '  settings = [ "net.ipv4.tcp_ecn=1", "net.core.somaxconn=4096" ];'
before=$(tree_snapshot "$ROOT"; proc_snapshot)
halo
is "$rc" 1 "a key behind a symlink: exit 1"
like "$err" "refusing to write through a symlink: .*/proc/sys/net/core/somaxconn" "... saying so"
is "$(cat "$ROOT/etc/kept/somaxconn")" 128 "... the file it leads to is not written"
is "$(tree_snapshot "$ROOT"; proc_snapshot)" "$before" "... nothing changed (not even the other key)"
rm -r "$ROOT/proc/sys/net/core" "$ROOT/etc/kept"

# The real kernel: the namespace's own /proc/sys/net bind-mounted into a
# root, so the run writes and reads back the kernel's values (a private
# mount namespace of `ip netns exec`: nothing outlives the command).
KROOT=$TEST_TMP/kroot
mkdir -p "$KROOT/etc/halo-provision" "$KROOT/proc/sys/net"
conf "$TWO" '  settings = [ "net.ipv4.tcp_ecn=1" ];'
install -m 0600 "$CONF" "$KROOT/etc/halo-provision/halo.conf"
reset_ns
kernel_run() {
	out=$(ip netns exec "$NS" bash -c 'mount --bind /proc/sys/net "$1/proc/sys/net" &&
		exec "$HALO" -c "$1/etc/halo-provision/halo.conf" --root "$1" --netns "$2" \
			--only links,files "${@:3}"' _ "$KROOT" "$NS" "$@" 2>"$TEST_TMP/kerr")
	rc=$?
	err=$(cat "$TEST_TMP/kerr")
}
kernel_run --json
is "$rc" 2 "real /proc/sys: apply exit 2"
[ "$rc" = 2 ] || diag "$err"
is "$(ns_values | cut -d, -f1-7)" "1,2,2,1,2,2,1" "real /proc/sys: the kernel has every value"
is "$(item "$KEY_D.rp_filter" .outcome)" changed "real /proc/sys: the dotted name's key changed"
kernel_run
is "$rc" 0 "real /proc/sys: apply again, exit 0"
ip netns exec "$NS" sh -c 'echo 0 >/proc/sys/net/ipv4/conf/eth0.100/arp_ignore'
kernel_run --check --json
is "$rc/$(item "$KEY_D.arp_ignore" .observed)" "2/0" "real /proc/sys: a changed value drifts"

done_testing
