#!/bin/bash
# sandbox/demo.sh HALO: the main job on a throwaway root and network
# namespaces, never the real host. Two machines are simulated:
#   debian/  a Debian 12 node: /etc/default/grub + grub.d, a 128 GiB
#            /proc/meminfo, two RDMA links in network namespaces
#   fedora/  a Fedora 43 node: BLS entries, /etc/kernel/cmdline, root= on a
#            real ext4 image resolved through libblkid
# The Debian node also gets a firewalld zone of its own for the RDMA link
# (printed), the udev rule for the render group and the memlock drop-ins.
# For each: --dry-run, apply, --check, a simulated reboot (the new command
# line becomes /proc/cmdline), --check, and apply again, which must change
# nothing and exit 0.
# Then RoCE (sandbox/roce.sh): two E810 nodes back to back and a ConnectX
# node, configured from examples/ on the simulated NIC of tests/nicsim;
# E810 node 1 and the ConnectX node also get an RDMA device (sandbox/rdma.sh)
# and print their env file (state.env_file) with the computed GID index.
set -uo pipefail

HALO=${1:?usage: demo.sh PATH-TO-halo-provision}
HALO=$(realpath "$HALO")
here=$(cd "$(dirname "$0")" && pwd)
box=$(mktemp -d /tmp/halo-sandbox.XXXXXX)
ns=()
cleanup() {
	local n
	for n in "${ns[@]}"; do ip netns del "$n" 2>/dev/null; done
	rm -rf "$box"
}
trap cleanup EXIT

bold=$(tput bold 2>/dev/null || true)
plain=$(tput sgr0 2>/dev/null || true)
failures=0

# step WANT_EXIT DESCRIPTION ARGS...: runs halo-provision, shows its output.
step() {
	local want=$1 what=$2
	shift 2
	echo
	echo "${bold}\$ halo-provision $*${plain}    # $what"
	"$HALO" "$@"
	local rc=$?
	if [ "$rc" = "$want" ]; then
		echo "=> exit $rc (expected)"
	else
		echo "=> exit $rc, expected $want  <-- UNEXPECTED"
		failures=$((failures + 1))
	fi
}

# Snapshot of every file under a root (inode, mtime, size, checksum).
# dev/ holds the root file system's image and halo-provision never
# writes there. Of the run lock only the inode counts: every run that
# holds it writes its pid, mode and start time into it.
snapshot() {
	(cd "$1" && find . -path ./proc -prune -o -path ./dev -prune -o -type f -print0 | sort -z |
		xargs -0 stat -c '%i %.9Y %s %n' |
		sed 's|^\([0-9]*\) .* \./run/halo-provision\.lock$|\1 ./run/halo-provision.lock|' &&
		find . -path ./proc -prune -o -path ./dev -prune -o -path ./run/halo-provision.lock \
		-prune -o -type f -print0 | sort -z | xargs -0 sha256sum)
}

echo "${bold}halo-provision sandbox${plain} in $box (removed on exit)"

# ---------------------------------------------------------------- debian
"$here/mkroot.sh" debian "$box/debian"
n1="halo-demo1-$$"; n2="halo-demo2-$$"
ip netns add "$n1" && ns+=("$n1")
ip netns add "$n2" && ns+=("$n2")
ip -n "$n1" link add name rdma0 type veth peer name rdma0 netns "$n2"
ip -n "$n1" link set lo up; ip -n "$n2" link set lo up

conf=$box/debian/etc/halo-provision/halo.conf
peer_conf=$box/peer.conf
sed -e "s/@ADDR@/192.168.100.1\/30/" "$here/debian.conf" | install -m 0600 /dev/stdin "$conf"
sed -e "s/@ADDR@/192.168.100.2\/30/" "$here/debian.conf" | install -m 0600 /dev/stdin "$peer_conf"
cp -a "$box/debian" "$box/peer"

echo
echo "${bold}== Debian node (network namespace $n1, peer in $n2)${plain}"
R=(--root "$box/debian" --netns "$n1")
# A copy with an explicit mode: the loader refuses a group-writable config,
# and a checkout made under umask 002 has 0664 files, which would show that
# refusal instead of the config's own error.
install -m 0600 "$here/bad.conf" "$box/bad.conf"
step 1 "a config error is one line, exit 1" --validate -c "$box/bad.conf"
case "$("$HALO" --validate -c "$box/bad.conf" 2>&1)" in
*'unknown key "gtt_mb"'*) ;;
*) echo "<-- UNEXPECTED: not the config's own error"; failures=$((failures + 1)) ;;
esac
step 0 "validate the config" --validate "${R[@]}"
step 10 "what would change (drift + reboot)" --dry-run --diff "${R[@]}"
step 10 "apply: changed, reboot pending" "${R[@]}"
step 8 "audit: configured, not active until reboot" --check "${R[@]}"
echo
echo "\$ cat /etc/firewalld/zones/halo-rdma.xml   # the RDMA link's zone, under the node's root"
cat "$box/debian/etc/firewalld/zones/halo-rdma.xml" ||
	{ echo "<-- UNEXPECTED: no zone file"; failures=$((failures + 1)); }
"$HALO" --root "$box/peer" -c "$peer_conf" --netns "$n2" -q >/dev/null
echo
echo "\$ ip netns exec $n1 ping -M do -s 8972 -c 1 192.168.100.2   # jumbo frames cross the link"
ip netns exec "$n1" ping -M do -s 8972 -c 1 -W 2 192.168.100.2 | sed -n '2p' ||
	{ echo "<-- UNEXPECTED: ping failed"; failures=$((failures + 1)); }
"$here/reboot.sh" "$box/debian"
echo
echo "(simulated update-grub and reboot: $(cat "$box/debian/proc/cmdline"))"
step 0 "audit after reboot: in sync" --check "${R[@]}"
step 0 "apply after reboot: nothing to change (the state file records it)" "${R[@]}"
before=$(snapshot "$box/debian")
step 0 "apply again: changes nothing" "${R[@]}"
after=$(snapshot "$box/debian")
if [ "$before" = "$after" ]; then
	echo "=> no file under the root was written"
else
	echo "<-- UNEXPECTED: files changed:"; diff <(echo "$before") <(echo "$after")
	failures=$((failures + 1))
fi

# ---------------------------------------------------------------- fedora
"$here/mkroot.sh" fedora "$box/fedora"
install -m 0600 "$here/fedora.conf" "$box/fedora/etc/halo-provision/halo.conf"
echo
echo "${bold}== Fedora node (BLS, root= resolved by libblkid)${plain}"
R=(--root "$box/fedora")
step 10 "what would change" --dry-run --diff "${R[@]}"
step 10 "apply" "${R[@]}"
"$here/reboot.sh" "$box/fedora"
echo
echo "(simulated grubby and reboot: $(cat "$box/fedora/proc/cmdline"))"
step 0 "audit after reboot" --check "${R[@]}"
step 0 "apply after reboot: nothing to change" -q "${R[@]}"
before=$(snapshot "$box/fedora")
step 0 "apply again: changes nothing" "${R[@]}"
after=$(snapshot "$box/fedora")
[ "$before" = "$after" ] && echo "=> no file under the root was written" ||
	{ echo "<-- UNEXPECTED: files changed"; failures=$((failures + 1)); }
step 0 "the state file of the last run" --status "${R[@]}"

# ---------------------------------------------------------------- roce
source "$here/roce.sh"
roce_demo

echo
if [ "$failures" = 0 ]; then
	echo "${bold}sandbox: every step behaved as expected${plain}"
else
	echo "${bold}sandbox: $failures step(s) did not behave as expected${plain}"
	exit 1
fi
