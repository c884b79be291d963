#!/bin/bash
# bench/cluster-fabric.sh [RUNS]: `halo-provision --cluster` over the state
# files of N nodes behind one switch (one /16; tests/lib/fabric-states.py,
# each file the size of a real node's, ~8 KiB), for N in $SIZES (default
# "200 1500 5000"), one node's MTU off: median wall time over RUNS runs
# (default 10), peak RSS, items and findings. The targets for 1,500 nodes
# are under 1 s and under 64 MiB. HALO_BEFORE=PATH adds the same rows for
# another build (a version that paired every two ports of a subnet) up to
# $BEFORE_MAX nodes (default 400: it grows with the square). Needs a built
# tree: HALO=build/halo-provision.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
HALO=${HALO:-$top/build/halo-provision}
runs=${1:-10}
sizes=${SIZES:-200 1500 5000}
before_max=${BEFORE_MAX:-400}
source "$here/lib.sh"

box=$(mktemp -d /tmp/halo-bench.XXXXXX)
trap 'rm -rf "$box"' EXIT

row() { # row LABEL PROGRAM N
	local label=$1 prog=$2 n=$3 files ms rss items found
	files=("$box/$n"/*.json)
	ms=$(median_ms "$runs" "$prog" --cluster "${files[@]}")
	rss=$(peak_rss_kib "$prog" --cluster "${files[@]}" | tail -n 1 || true)
	items=$("$prog" --cluster --json "${files[@]}" | jq '.items | length' || true)
	found=$("$prog" --cluster "${files[@]}" | grep -c -v '^cluster:' || true)
	printf '%-10s %7s %10s %10s %9s %9s\n' "$label" "$n" "$ms" "$rss" "$items" "$found"
}

echo "halo-provision --cluster, N nodes in one switched /16, one MTU off ($runs runs each)"
printf '%-10s %7s %10s %10s %9s %9s\n' build nodes "median ms" "RSS KiB" items findings
for n in $sizes; do
	python3 "$top/tests/lib/fabric-states.py" "$n" "$box/$n" "$((n / 2)):1500"
	row this "$HALO" "$n"
	if [ -n "${HALO_BEFORE:-}" ] && [ "$n" -le "$before_max" ]; then
		row before "$HALO_BEFORE" "$n"
	fi
done
echo "bytes of state files per node: $(( $(du -sb "$box/${sizes%% *}" | cut -f1) / ${sizes%% *} ))"
echo "targets at 1500 nodes: under 1000 ms, under 65536 KiB"
