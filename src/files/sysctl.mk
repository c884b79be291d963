# src/files/sysctl.c: the sysctl drop-in and runtime values.
libhalo_la_SOURCES += \
	src/files/sysctl.c \
	src/files/sysctl-key.h \
	src/files/sysctl-key.c \
	src/files/sysctl-runtime.h \
	src/files/sysctl-runtime.c

# The drop-in's template, embedded with the others (src/util/local.mk).
halo_templates += templates/sysctl-dropin.conf

# Unit tests (cmocka, TAP): keys, values, names, the drop-in's text.
sysctl_unit_tests = tests/unit/test-files-sysctl
check_PROGRAMS += $(sysctl_unit_tests)
TESTS += $(sysctl_unit_tests)

# Integration test: fixture /proc/sys under --root, veths in a network
# namespace read back by procps sysctl and systemd-sysctl.
sysctl_integration_tests = tests/integration/files-sysctl.sh
TESTS += $(sysctl_integration_tests)
EXTRA_DIST += $(sysctl_integration_tests)
