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

# links_box NAME: the two-link node of the links benchmarks: a temp dir
# (box) removed at exit with the namespace NS (halo-bench-NAME-PID, made
# by the caller), the root R and its config CONF managing rdma0 and
# rdma1 (MTU 9000, one /30 each).
links_box() {
	box=$(mktemp -d "/tmp/halo-bench-$1.XXXXXX")
	NS=halo-bench-$1-$$
	trap 'ip netns del "$NS" 2>/dev/null || true; rm -rf "$box"' EXIT
	R=$box/root
	mkdir -p "$R/etc/halo-provision"
	CONF=$R/etc/halo-provision/halo.conf
	install -m 0600 /dev/stdin "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "rdma0"; mtu = 9000; addresses = [ "192.168.100.1/30" ]; },
  { name = "rdma1"; mtu = 9000; addresses = [ "192.168.100.2/30" ]; }
);
CONF
}
