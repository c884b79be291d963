#!/bin/bash
# bench/modules-check.sh [RUNS]: the cost of the modules part of
# `halo-provision --check` (--only modules) on fixture trees shaped like a
# distribution kernel's: the 11 modules of the test fixture plus 0, 1000
# and 6000 filler modules (with aliases, exports, parameters and
# dependencies, so modules.dep/alias/symbols have a real kernel's size).
# The config is an E810 + ConnectX node's (4 modules to load, options for
# mlx5_core), all already loaded: the steady state a drift timer sees.
#
# Per size: median wall time over RUNS runs and peak RSS of one run
# (/usr/bin/time, Debian package "time"), side by side with the same audit
# scripted with modinfo and /sys/module, the way a user checks it today.
# Figures, not assertions. --check loads nothing, so no preload trap is
# needed. Needs a built tree: HALO=build/halo-provision.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
HALO=${HALO:-$top/build/halo-provision}
runs=${1:-20}
source "$here/lib.sh"
REL=6.99.0-bench

box=$(mktemp -d /tmp/halo-bench-modules.XXXXXX)
trap 'rm -rf "$box"' EXIT
CONF=$box/halo.conf
install -m 0600 /dev/stdin "$CONF" <<'CONF'
version = 1;
modules = {
  load = [ "irdma", "ib_uverbs", "rdma_ucm", "mlx5_ib" ];
  options = { mlx5_core = "prof_sel=2"; };
};
CONF

# What a careful user scripts: each module loaded, each option declared
# (modinfo) and live (sysfs).
script_audit() {
	local R=$1 m bad=0
	for m in irdma ib_uverbs rdma_ucm mlx5_ib; do
		modinfo -b "$R" -k "$REL" -F name "$m" >/dev/null || bad=1
		[ "$(cat "$R/sys/module/$m/initstate" 2>/dev/null)" = live ] || bad=1
	done
	modinfo -b "$R" -k "$REL" -F parm mlx5_core | grep -q '^prof_sel:' || bad=1
	[ "$(cat "$R/sys/module/mlx5_core/parameters/prof_sel")" = 2 ] || bad=1
	return $bad
}

printf '%-8s %-8s %12s %10s %14s %12s\n' fillers modules halo_ms halo_kib script_ms script_kib
for bulk in 0 1000 6000; do
	R=$box/root-$bulk
	"$top/tests/fixtures/modules/mkfixture.sh" "$R" "$REL" "bulk=$bulk" >/dev/null 2>&1
	for m in ib_core ice_helper ice irdma ib_uverbs rdma_cm rdma_ucm mlx5_core mlx5_ib; do
		mkdir -p "$R/sys/module/$m/parameters"
		echo live >"$R/sys/module/$m/initstate"
	done
	echo 2 >"$R/sys/module/mlx5_core/parameters/prof_sel"
	# Drop-ins as an apply leaves them, so the check is in sync.
	"$HALO" -c "$CONF" --root "$R" --kernel-release "$REL" --only modules >/dev/null 2>&1 || true
	halo_check() { "$HALO" -c "$CONF" --root "$R" --kernel-release "$REL" --only modules --check; }
	if ! halo_check >/dev/null 2>&1; then
		echo "modules-check: --check is not in sync on the $bulk-filler tree" >&2
		halo_check >&2 || true
		exit 1
	fi
	n=$(grep -c . "$R/lib/modules/$REL/modules.dep")
	printf '%-8s %-8s %12s %10s %14s %12s\n' "$bulk" "$n" \
		"$(median_ms "$runs" halo_check)" "$(peak_rss_kib "$HALO" -c "$CONF" --root "$R" --kernel-release "$REL" --only modules --check)" \
		"$(median_ms "$runs" script_audit "$R")" "$(peak_rss_kib bash -c "$(declare -f script_audit); REL=$REL; script_audit $R")"
	rm -rf "$R"
done
