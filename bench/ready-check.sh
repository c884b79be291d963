#!/bin/bash
# bench/ready-check.sh [RUNS]: the cost of `--check --only ready`
# ("--only ready is fast") on a fixture node with every readiness fact (a
# kernel release, a NIC on PCIe, an amdgpu card, IOMMU groups, pam_limits
# files), next to a do-nothing process: median wall time over RUNS runs,
# peak RSS, items. Needs a built tree: HALO=build/halo-provision.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
HALO=${HALO:-$top/build/halo-provision}
runs=${1:-50}
source "$here/lib.sh"

R=$(mktemp -d /tmp/halo-bench.XXXXXX)
trap 'rm -rf "$R"' EXIT
nic=$R/sys/devices/pci0000:00/0000:c2:00.0
gpu=$R/sys/devices/pci0000:00/0000:c5:00.0
mkdir -p "$R/proc/sys/kernel" "$nic" "$R/sys/bus/pci/devices" "$gpu/drm/card1" \
	"$R/sys/class/drm" "$R/sys/kernel/iommu_groups/0" "$R/etc/security/limits.d" \
	"$R/etc/halo-provision"
echo 6.18.5-200.fc43.x86_64 >"$R/proc/sys/kernel/osrelease"
echo "root=UUID=1 iommu=pt quiet" >"$R/proc/cmdline"
ln -s ../../../devices/pci0000:00/0000:c2:00.0 "$R/sys/bus/pci/devices/0000:c2:00.0"
for f in current_link_speed max_link_speed; do echo "16.0 GT/s PCIe" >"$nic/$f"; done
for f in current_link_width max_link_width; do echo 16 >"$nic/$f"; done
ln -s ../../devices/pci0000:00/0000:c5:00.0/drm/card1 "$R/sys/class/drm/card1"
ln -s ../../../0000:c5:00.0 "$gpu/drm/card1/device"
printf 'DRIVER=amdgpu\nPCI_CLASS=38000\n' >"$gpu/uevent"
echo $((512 << 20)) >"$gpu/mem_info_vram_total"
echo $((126976 << 20)) >"$gpu/mem_info_gtt_total"
echo '* - memlock unlimited' >"$R/etc/security/limits.d/90-rdma.conf"
install -m 0600 /dev/stdin "$R/etc/halo-provision/halo.conf" <<'CONF'
version = 1;
boot = { iommu = "pt"; gtt_mib = 126976; };
interfaces = ( { name = "rdma0"; match = { pci = "0000:c2:00.0"; }; } );
CONF

json=$("$HALO" --root "$R" --check --only ready --json) ||
	{ echo "bench: the fixture node is not ready" >&2; exit 1; }
items=$(jq '.items | length' <<<"$json")

echo "halo-provision benchmark: --check --only ready on a fixture node ($runs runs)"
printf '%-34s %10s ms\n' "/bin/true, median wall time" "$(median_ms "$runs" /bin/true)"
printf '%-34s %10s ms\n' "--only ready, median wall time" "$(median_ms "$runs" "$HALO" --root "$R" --check --only ready)"
printf '%-34s %10s KiB\n' "--only ready, peak RSS" "$(peak_rss_kib "$HALO" --root "$R" --check --only ready)"
printf '%-34s %10s\n' "readiness items" "$items"
