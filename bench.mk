# bench.mk: the benchmark's smoke test; bench/ itself is run by hand.
bench_tests = tests/integration/bench-run.sh
TESTS += $(bench_tests)
EXTRA_DIST += $(bench_tests) bench/run bench/run-lib.sh bench/audit-script.sh \
	bench/ansible-check.yml
