# tests/nicsim: the simulated NIC, an LD_PRELOAD library that answers
# dcbnl, devlink and ethtool requests for the interfaces it is told about
# (and shows bridges it is told about as bonds). Built by make check, never
# installed.

# The library: LD_PRELOADed by the tests that need a NIC, never linked into
# anything. No sanitizer flags: it is preloaded into sanitized binaries and
# must not bring a runtime of its own.
check_LTLIBRARIES += tests/nicsim/nicsim.la
tests_nicsim_nicsim_la_SOURCES = \
	tests/nicsim/nicsim.h \
	tests/nicsim/nicsim.c \
	tests/nicsim/nicsim-reply.c \
	tests/nicsim/nicsim-config.c \
	tests/nicsim/nicsim-state.c \
	tests/nicsim/nicsim-json.c \
	tests/nicsim/nicsim-kernel.c \
	tests/nicsim/nicsim-dcb.c \
	tests/nicsim/nicsim-ice.c \
	tests/nicsim/nicsim-mlx5.c \
	tests/nicsim/nicsim-genl.c \
	tests/nicsim/nicsim-devlink.c \
	tests/nicsim/nicsim-bond.c
tests_nicsim_nicsim_la_CFLAGS = -std=gnu11 -fvisibility=hidden $(WARN_CFLAGS) $(MNL_CFLAGS) $(JSONC_CFLAGS)
tests_nicsim_nicsim_la_LDFLAGS = -module -avoid-version -rpath /nowhere -shared
tests_nicsim_nicsim_la_LIBADD = $(MNL_LIBS) $(JSONC_LIBS) -lpthread -ldl

# A small client that sends dcbnl, devlink and ethtool requests given on its
# command line and prints the replies (the tests drive the simulator with it).
check_PROGRAMS += tests/nicsim/nicsim-probe
tests_nicsim_nicsim_probe_SOURCES = tests/nicsim/nicsim-probe.c
tests_nicsim_nicsim_probe_LDADD = $(MNL_LIBS)

EXTRA_DIST += tests/nicsim/README.md tests/nicsim/nicsim-lib.sh

# Integration: the simulator alone, driven by nicsim-probe in namespaces.
nicsim_integration_tests = \
	tests/integration/nicsim-e810.sh \
	tests/integration/nicsim-connectx.sh \
	tests/integration/nicsim-passthrough.sh \
	tests/integration/nicsim-state.sh \
	tests/integration/nicsim-e810-reset.sh \
	tests/integration/nicsim-connectx-carrier.sh \
	tests/integration/nicsim-devlink-reload.sh
TESTS += $(nicsim_integration_tests)
EXTRA_DIST += $(nicsim_integration_tests)

# The state file's reader against json-c (nicsim-json.c), on the model's
# own files: the library's model without its socket side.
check_PROGRAMS += tests/nicsim/nicsim-json-test
TESTS += tests/nicsim/nicsim-json-test
tests_nicsim_nicsim_json_test_SOURCES = \
	tests/nicsim/nicsim-json-test.c \
	tests/nicsim/nicsim.h \
	tests/nicsim/nicsim-json.c \
	tests/nicsim/nicsim-state.c \
	tests/nicsim/nicsim-config.c \
	tests/nicsim/nicsim-ice.c \
	tests/nicsim/nicsim-mlx5.c \
	tests/nicsim/nicsim-dcb.c \
	tests/nicsim/nicsim-reply.c
tests_nicsim_nicsim_json_test_CFLAGS = -std=gnu11 $(WARN_CFLAGS) $(SANITIZER_CFLAGS) $(MNL_CFLAGS) $(JSONC_CFLAGS) \
	$(CMOCKA_CFLAGS)
tests_nicsim_nicsim_json_test_LDADD = $(MNL_LIBS) $(JSONC_LIBS) $(CMOCKA_LIBS)
