# hostile.mk: what a careless or hostile config or root does to a run.
# The fast scripts run in the suite. `make check-hostile` runs them with
# the slow sweeps: a FIFO in place of every file a full apply and a check
# read, on a Debian and a Fedora sandbox root (the list of files comes
# from an strace of the run itself, so a new read is swept too).
hostile_tests = tests/integration/outputs-collide.sh \
	tests/integration/outputs-unwritable.sh \
	tests/integration/modules-root-cmdline.sh \
	tests/integration/hostile-refusals.sh \
	tests/integration/root-confined-full.sh
hostile_slow_tests = tests/integration/hostile-fifo-sweep.sh
TESTS += $(hostile_tests)
EXTRA_DIST += $(hostile_tests) $(hostile_slow_tests)

check-hostile:
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(hostile_tests) $(hostile_slow_tests)'
.PHONY: check-hostile
