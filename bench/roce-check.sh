#!/bin/bash
# bench/roce-check.sh [RUNS]: the cost of `halo-provision --check` with roce
# on two simulated NICs (tests/nicsim): an E810 (ice) and a ConnectX
# (mlx5_core), each a veth in a private network namespace, driver and PCI
# address from a fixture sysfs under --root, every key of the roce group
# set (enable, dcbx, pfc, trust, dscp_prio, ecn, tos). The host is
# converged by one apply first, so the check is the clean audit a timer
# runs on every node.
#
# Prints the median wall time over RUNS runs (default 20, at least 20),
# the peak RSS of one run, the netlink requests of one run as halo counts
# them (--json .stats.netlink_requests), and, as a cross-check, the
# dcbnl and generic netlink requests the simulator answered in that run
# (fewer: the family and link lookups go to the real kernel). Figures, not
# assertions.
# Needs root and a built tree: HALO=build/halo-provision, the simulator
# found next to it (NICSIM_SO= to point at another).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
HALO=${HALO:-$top/build/halo-provision}
runs=${1:-20}
source "$here/lib.sh"

[ "$runs" -ge 20 ] 2>/dev/null || { echo "bench: RUNS must be a number of at least 20" >&2; exit 1; }
[ -x "$HALO" ] || { echo "bench: no $HALO (build first, or set HALO=)" >&2; exit 1; }
NICSIM_SO=${NICSIM_SO:-$(find "$(dirname "$HALO")" -name 'nicsim*.so' -print -quit)}
[ -n "$NICSIM_SO" ] || { echo "bench: no nicsim*.so under $(dirname "$HALO") (make check builds it)" >&2; exit 1; }

box=$(mktemp -d /tmp/halo-bench-roce.XXXXXX)
NS=halo-bench-roce-$$
cleanup() { ip netns del "$NS" 2>/dev/null || true; rm -rf "$box"; }
trap cleanup EXIT

ip netns add "$NS"
ip -n "$NS" link set lo up
for dev in e810a cx0; do
	ip -n "$NS" link add "$dev" type veth peer name "$dev-p"
	ip -n "$NS" link set "$dev-p" up
	ip -n "$NS" link set "$dev" up
done

export NICSIM_STATE=$box/state NICSIM_CONFIG=$box/nicsim.conf
mkdir -p "$NICSIM_STATE"
cat >"$NICSIM_CONFIG" <<'NIC'
e810a e810 pci=0000:3b:00.0 enable_roce=false enable_iwarp=true
cx0 connectx pci=0000:c1:00.0 flap_ms=50
NIC

R=$box/root
mkdir -p "$R/etc/halo-provision"
fake_nic() { # fake_nic IFNAME BDF DRIVER
	local dev=sys/devices/pci0000:00/$2
	mkdir -p "$R/$dev/net/$1" "$R/sys/class/net" "$R/sys/bus/pci/drivers/$3"
	ln -s "../../../$2" "$R/$dev/net/$1/device"
	ln -s "../../../bus/pci/drivers/$3" "$R/$dev/driver"
	ln -s "../../devices/pci0000:00/$2/net/$1" "$R/sys/class/net/$1"
}
fake_nic e810a 0000:3b:00.0 ice
fake_nic cx0 0000:c1:00.0 mlx5_core
# The vendor mlx5 driver's per-priority ECN switches (the E810 has none:
# its ecn item is unsupported, as on real irdma).
for p in roce_np roce_rp; do
	d=$R/sys/devices/pci0000:00/0000:c1:00.0/net/cx0/ecn/$p/enable
	mkdir -p "$d"
	for i in 0 1 2 3 4 5 6 7; do echo 0 >"$d/$i"; done
done

CONF=$R/etc/halo-provision/halo.conf
install -m 0600 /dev/stdin "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "rdma0"; match = { driver = "ice"; pci = "0000:3b:00.0"; };
    roce = { enable = true; dcbx = "host"; pfc = [ 3 ]; trust = "dscp";
             dscp_prio = ( [ 26, 3 ], [ 48, 6 ] ); ecn = [ 3 ]; tos = 106; }; },
  { name = "cx"; match = { driver = "mlx5_core"; };
    roce = { enable = true; dcbx = "host"; pfc = [ 3 ]; trust = "dscp";
             dscp_prio = ( [ 26, 3 ], [ 48, 6 ] ); ecn = [ 3 ]; tos = 106; }; }
);
CONF

halo() {
	env LD_PRELOAD="$NICSIM_SO" "$HALO" -c "$CONF" --root "$R" --netns "$NS" --only roce "$@"
}
halo_check() { halo --check "$@"; }
# Requests the simulator answered so far, summed over both NICs.
nic_requests() {
	jq -s '[.[].requests | (.get // 0) + (.set // 0)] | add' "$NICSIM_STATE"/*.json
}

rc=0
halo -q >/dev/null 2>&1 || rc=$?
[ $((rc & 5)) = 0 ] || { echo "bench: the apply failed (exit $rc)" >&2; exit 1; }
rc=0
out=$(halo_check --json 2>/dev/null) || rc=$?
[ "$rc" = 0 ] || {
	echo "bench: the check after the apply is not clean (exit $rc)" >&2
	jq -r '.items[] | select(.outcome != "ok" and .outcome != "unsupported") | "  \(.key): \(.outcome) \(.message // "")"' <<<"$out" >&2 || true
	exit 1
}
n_items=$(jq '[.items[] | select(.subsystem == "roce")] | length' <<<"$out")
n_unsup=$(jq '[.items[] | select(.outcome == "unsupported")] | length' <<<"$out")

before=$(nic_requests)
req=$(halo_check --json 2>/dev/null | jq '.stats.netlink_requests')
nic=$(($(nic_requests) - before))
ms=$(median_ms "$runs" halo_check -q)
# env execs halo-provision: the RSS is its own, the preload only in it.
rss=$(peak_rss_kib env LD_PRELOAD="$NICSIM_SO" "$HALO" -c "$CONF" --root "$R" --netns "$NS" \
	--only roce --check -q)

printf 'halo-provision --check --only roce: an E810 and a ConnectX (nicsim), %s items (%s unsupported), %s runs\n' \
	"$n_items" "$n_unsup" "$runs"
printf '%10s %10s %8s %8s\n' "median ms" "RSS KiB" "req" "nicsim"
printf '%10s %10s %8s %8s\n' "$ms" "$rss" "$req" "$nic"
echo "req: netlink requests of one run (its --json stats counter); nicsim: the dcbnl,"
echo "devlink and ethtool requests the simulator answered in that run. RSS: peak of one run."
