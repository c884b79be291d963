# bench/lib.sh: shared helpers for the benchmark scripts (sourced).
# Figures only: nothing here asserts a timing.

# median_ms RUNS CMD...: runs CMD RUNS times, prints the median wall time in
# milliseconds (3 decimals). Output of CMD is discarded.
median_ms() {
	local runs=$1 i t0 t1
	shift
	local times=()
	for ((i = 0; i < runs; i++)); do
		t0=$(date +%s%N)
		"$@" >/dev/null 2>&1
		t1=$(date +%s%N)
		times+=($(((t1 - t0) / 1000)))
	done
	printf '%s\n' "${times[@]}" | sort -n |
		awk '{ a[NR] = $1 } END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.3f\n", m / 1000 }'
}

# peak_rss_kib CMD...: peak resident set size of one run, in KiB.
peak_rss_kib() {
	/usr/bin/time -f '%M' -o /dev/fd/3 "$@" 3>&1 >/dev/null 2>/dev/null
}
