# hardening.mk: root confinement and fault tests.
# The full confinement matrix is bench/confinement.sh (run by hand).
TESTS += tests/integration/confinement.sh tests/integration/faults.sh
EXTRA_DIST += tests/integration/confinement.sh tests/integration/faults.sh \
	tests/lib/confine.sh bench/confinement.sh
