# src/files/sysctl.c: the sysctl drop-in and runtime values; its config section.
libhalo_la_SOURCES += \
	src/files/sysctl.c \
	src/files/sysctl-key.h \
	src/files/sysctl-key.c \
	src/config/parse-sysctl.c

# The drop-in's template, embedded with the others (src/util/local.mk).
halo_templates += templates/sysctl-dropin.conf

# Unit tests (cmocka, TAP): keys, values, names, the drop-in's text.
sysctl_unit_tests = tests/unit/test-files-sysctl
check_PROGRAMS += $(sysctl_unit_tests)
TESTS += $(sysctl_unit_tests)
