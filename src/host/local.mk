# src/host: the resolved host: --netns entered once, and the table of
# managed interfaces every subsystem reads, matched once (match.c) on
# netlink and sysfs facts (sysfs.c).
libhalo_la_SOURCES += \
	src/host/host.h \
	src/host/namespace.c \
	src/host/candidates.h \
	src/host/candidates.c \
	src/host/match.h \
	src/host/match.c \
	src/host/sysfs.h \
	src/host/sysfs.c \
	src/host/drm.h \
	src/host/drm.c \
	src/host/networkd.h \
	src/host/networkd-match.c \
	src/host/networkd.c \
	src/host/resolve.c

# Integration: phases over the finit_module trap, namespaces' own sysfs.
host_integration_tests = \
	tests/integration/host-phases.sh \
	tests/integration/host-netns-sysfs.sh
TESTS += $(host_integration_tests)
EXTRA_DIST += $(host_integration_tests)

# Unit tests: the matcher, candidate links and link facts from a fake
# sysfs, --netns names.
host_unit_tests = tests/unit/test-host-candidates tests/unit/test-host-match \
	tests/unit/test-host-namespace tests/unit/test-host-networkd
check_PROGRAMS += $(host_unit_tests)
TESTS += $(host_unit_tests)
tests_unit_test_host_networkd_SOURCES = tests/unit/test-host-networkd.c tests/unit/root-test.h
