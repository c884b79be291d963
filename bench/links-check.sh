#!/bin/bash
# bench/links-check.sh [RUNS]: the cost of `halo-provision --check` for two
# managed interfaces on a host of 2 and 2,048 veth links (SIZES="2 64 2048"
# for more; built with
# `ip -batch` in a private namespace, every extra link with an address),
# side by side with the same audit scripted with `ip -j` and jq, the way a
# user checks MTU, admin state and address today.
#
# Per size: median wall time over RUNS runs, peak RSS of one run, and the
# netlink requests one run sends (halo: its own --json counter, checked
# against strace; the script: strace of sendto/sendmsg on netlink sockets,
# never timed under strace). Figures, not assertions.
# Needs root and a built tree: HALO=build/halo-provision.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
HALO=${HALO:-$top/build/halo-provision}
runs=${1:-20}
source "$here/lib.sh"

links_box links

# The audit a user would script: per interface, MTU, UP flag, address.
ip_audit() {
	local spec dev mtu addr bad=0
	for spec in rdma0:9000:192.168.100.1/30 rdma1:9000:192.168.100.2/30; do
		IFS=: read -r dev mtu addr <<<"$spec"
		ip -n "$NS" -j link show dev "$dev" |
			jq -e --argjson m "$mtu" '.[0].mtu == $m and (.[0].flags | index("UP"))' >/dev/null || bad=1
		ip -n "$NS" -j addr show dev "$dev" |
			jq -e --arg a "$addr" '[.[0].addr_info[] | "\(.local)/\(.prefixlen)"] | index($a)' >/dev/null || bad=1
	done
	return $bad
}
export -f ip_audit
export NS

# netlink sends of one run, from strace (sendto/sendmsg on AF_NETLINK fds).
nl_sends() {
	local log=$box/strace.log
	strace -f -qq -e trace=sendto,sendmsg -e signal=none -o "$log" "$@" >/dev/null 2>&1 || true
	grep -c 'nlmsg_len' "$log" || true
}

halo_check() { "$HALO" -c "$CONF" --root "$R" --netns "$NS" --only links --check "$@"; }

printf 'halo-provision links --check: 2 managed interfaces, %s runs per figure\n' "$runs"
printf '%-6s | %-36s | %-36s\n' "" "halo-provision --check" "ip -j + jq script"
printf '%-6s | %10s %10s %6s %6s | %10s %10s %6s\n' links "median ms" "RSS KiB" "req" "strace" "median ms" "RSS KiB" "req"
for size in ${SIZES:-2 2048}; do
	ip netns del "$NS" 2>/dev/null || true
	ip netns add "$NS"
	ip -n "$NS" link set lo up
	{
		echo "link add rdma0 type veth peer name rdma1"
		for ((i = 1; i <= (size - 2) / 2; i++)); do
			echo "link add x$i type veth peer name y$i"
		done
	} | ip -n "$NS" -batch -
	for ((i = 1; i <= (size - 2) / 2; i++)); do
		echo "addr add 10.$((i / 250)).$((i % 250)).1/24 dev x$i"
		echo "addr add 10.$((100 + i / 250)).$((i % 250)).1/24 dev y$i"
	done | ip -n "$NS" -batch -
	n_links=$(ip -n "$NS" -j link show | jq '[.[] | select(.ifname != "lo")] | length')
	"$HALO" -c "$CONF" --root "$R" --netns "$NS" --only links -q >/dev/null || true
	halo_check -q >/dev/null || { echo "bench: $size links did not converge" >&2; exit 1; }
	ip_audit || { echo "bench: the ip audit disagrees" >&2; exit 1; }

	h_ms=$(median_ms "$runs" halo_check -q)
	h_rss=$(peak_rss_kib "$HALO" -c "$CONF" --root "$R" --netns "$NS" --only links --check -q)
	h_req=$(halo_check --json | jq '.stats.netlink_requests')
	h_strace=$(nl_sends "$HALO" -c "$CONF" --root "$R" --netns "$NS" --only links --check -q)
	i_ms=$(median_ms "$runs" bash -c ip_audit)
	i_rss=$(peak_rss_kib bash -c ip_audit)
	i_req=$(nl_sends bash -c ip_audit)
	printf '%-6s | %10s %10s %6s %6s | %10s %10s %6s\n' "$n_links" "$h_ms" "$h_rss" "$h_req" \
		"$h_strace" "$i_ms" "$i_rss" "$i_req"
done
echo "req: netlink requests per run (halo: its --json stats counter; strace: every"
echo "sendto/sendmsg on a netlink socket). RSS: peak of one run"
echo "(for the script, the largest single process)."
