# bench.mk: the benchmark's smoke test (issue 13); bench/ itself is run by hand.
