#!/bin/bash
# bench/startup.sh [RUNS]: what halo-provision costs before it does
# anything, next to a do-nothing process: /bin/true, `halo-provision
# --version` and `halo-provision --check --only links` on a small fixture
# (two veth links in a private namespace, both converged).
#
# Per command: median wall time over RUNS runs (default 20; timed with
# bash's EPOCHREALTIME, so no timer process runs between two samples),
# mean CPU time (user + sys of all RUNS runs, from bash's `times`, divided
# by RUNS: steadier than wall time on a busy machine), both as a ratio to
# /bin/true; with perf (optional), the mean task-clock of the command
# alone (perf stat -r RUNS); the mmap calls of one run (strace); the shared objects the
# dynamic loader opens (LD_DEBUG=files) and its relocations
# (LD_DEBUG=statistics). Then the binary's NEEDED entries.
#
# BASELINE=/path/to/another/halo-provision adds its rows (e.g. a build of
# an older commit) for a before/after comparison on the same machine.
# Needs root (network namespace) and a built tree: HALO=build/halo-provision.
# Figures only: nothing here asserts a timing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
HALO=${HALO:-$top/build/halo-provision}
BASELINE=${BASELINE:-}
runs=${1:-20}
((runs >= 1)) || { echo "bench: RUNS must be a positive number" >&2; exit 1; }

source "$here/lib.sh"
links_box startup
ip netns add "$NS"
ip -n "$NS" link set lo up
ip -n "$NS" link add rdma0 type veth peer name rdma1

# Children's user + sys CPU between two `times` outputs, in microseconds
# (second line: "XmY.YYYs XmY.YYYs"). `times` runs in the shell that ran
# the commands; both are parsed afterwards, so no parser runs in between.
cpu_us_between() {
	awk 'function us(t,  m, x) { m = t; sub(/m.*/, "", m);
		x = t; sub(/^[0-9]+m/, "", x); sub(/s$/, "", x); return (m * 60 + x) * 1e6 }
		FNR == 2 { v[++n] = us($1) + us($2) }
		END { printf "%d\n", v[2] - v[1] }' "$1" "$2"
}

# measure CMD...: "median_wall_us mean_cpu_us" over $runs runs. Wall time
# from EPOCHREALTIME: no timer process between two samples.
measure() {
	local i t0 t1 times=()
	times >"$box/t0"
	for ((i = 0; i < runs; i++)); do
		t0=${EPOCHREALTIME/./}
		"$@" >/dev/null 2>&1 || true
		t1=${EPOCHREALTIME/./}
		times+=($((10#$t1 - 10#$t0)))
	done
	times >"$box/t1"
	printf '%s\n' "${times[@]}" | sort -n |
		awk -v cpu=$(($(cpu_us_between "$box/t0" "$box/t1") / runs)) '{ a[NR] = $1 }
			END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
			      printf "%d %d\n", m, cpu }'
}

# Mean task-clock of the command alone (from its exec, without the fork
# of the shell), in ms, when perf is there and allowed; "-" otherwise.
task_ms() {
	command -v perf >/dev/null || { echo -; return; }
	perf stat -x, -e task-clock -r "$runs" -o "$box/perf" "$@" >/dev/null 2>&1 || { echo -; return; }
	awk -F, '/task-clock/ { printf "%.3f\n", $1; f = 1 } END { if (!f) print "-" }' "$box/perf"
}

mmaps() {
	strace -f -qq -e trace=mmap -e signal=none -o "$box/strace.log" "$@" >/dev/null 2>&1 || true
	grep -c 'mmap(' "$box/strace.log" || true
}
objects() {
	LD_DEBUG=files "$@" 2>&1 >/dev/null | grep -c 'file=.*needed by\|file=.*dynamically loaded' || true
}
relocs() {
	LD_DEBUG=statistics "$@" 2>&1 >/dev/null | awk '
		/number of relocations:/ && !r { r = $NF }
		/number of relative relocations:/ && !rr { rr = $NF }
		END { printf "%d+%d\n", r, rr }'
}

row() { # row LABEL CMD...
	local label=$1 m w c t
	shift
	m=$(measure "$@")
	w=${m% *}
	c=${m#* }
	t=$(task_ms "$@")
	printf '%-38s %9.3f %6.1fx %9.3f %6.1fx %8s %6s %6s %5s %12s\n' "$label" \
		"$(awk -v x="$w" 'BEGIN { print x / 1000 }')" \
		"$(awk -v x="$w" -v f="$floor_wall" 'BEGIN { print x / f }')" \
		"$(awk -v x="$c" 'BEGIN { print x / 1000 }')" \
		"$(awk -v x="$c" -v f="$floor_cpu" 'BEGIN { print (f > 0 ? x / f : 0) }')" \
		"$t" "$(awk -v x="$t" -v f="$floor_task" 'BEGIN { print (x == "-" || f == "-") ? "-" : sprintf("%.1fx", x / f) }')" \
		"$(mmaps "$@")" "$(objects "$@")" "$(relocs "$@")"
}

for bin in "$HALO" ${BASELINE:+"$BASELINE"}; do
	"$bin" -c "$CONF" --root "$R" --netns "$NS" --only links -q >/dev/null || true
	"$bin" -c "$CONF" --root "$R" --netns "$NS" --only links --check -q >/dev/null ||
		{ echo "bench: the fixture did not converge with $bin" >&2; exit 1; }
done

m=$(measure /bin/true)
floor_wall=${m% *}
floor_cpu=${m#* }
floor_task=$(task_ms /bin/true)

printf 'halo-provision start-up: %s runs per figure (median wall, mean CPU)\n' "$runs"
printf '%-38s %9s %7s %9s %7s %8s %6s %6s %5s %12s\n' command "wall ms" "/true" "cpu ms" "/true" \
	"task ms" "/true" mmaps objs relocs
row "/bin/true" /bin/true
for bin in ${BASELINE:+"$BASELINE"} "$HALO"; do
	tag=""
	[ -n "$BASELINE" ] && { [ "$bin" = "$BASELINE" ] && tag="[before] " || tag="[after] "; }
	row "${tag}--version" "$bin" --version
	row "${tag}--check --only links (2 links)" \
		"$bin" -c "$CONF" --root "$R" --netns "$NS" --only links --check -q
done
echo "wall: median; cpu: mean user+sys of the runs, the shell's fork included;"
echo "task: mean perf task-clock from exec (\"-\" without perf)."
echo "mmaps: mmap calls of one run (strace -f); objs: shared objects the loader"
echo "opens (LD_DEBUG=files); relocs: symbol+relative relocations at start-up"
echo "(LD_DEBUG=statistics)."
for bin in ${BASELINE:+"$BASELINE"} "$HALO"; do
	printf 'NEEDED of %s:' "$bin"
	if command -v readelf >/dev/null; then
		readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/ \1/p' | tr -d '\n'
	else
		printf ' (readelf missing)'
	fi
	echo
done
