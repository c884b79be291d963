# hostile.mk: what a careless or hostile config or root does to a run.
# The fast scripts run in the suite; the slow sweeps (a FIFO in place of
# every file a full apply reads, ...) run with `make check-hostile`.
hostile_tests = tests/integration/outputs-collide.sh \
	tests/integration/outputs-unwritable.sh \
	tests/integration/modules-root-cmdline.sh
TESTS += $(hostile_tests)
EXTRA_DIST += $(hostile_tests)
