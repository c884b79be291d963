# src/files/access.c and memlock.c: device access rules, memlock limits;
# group.c: group names in the root's /etc/group.
libhalo_la_SOURCES += \
	src/files/access.h \
	src/files/access.c \
	src/files/memlock.c \
	src/files/group.h \
	src/files/group.c

# Their templates, embedded with the others (src/util/local.mk).
halo_templates += \
	templates/70-halo-access.rules \
	templates/90-halo-limits.conf \
	templates/90-halo-systemd-memlock.conf

# Unit tests (cmocka, TAP)
access_unit_tests = tests/unit/test-files-access tests/unit/test-files-memlock
check_PROGRAMS += $(access_unit_tests)
TESTS += $(access_unit_tests)

# Integration tests: --root fixture trees; the rule read by the real
# udevadm, the drop-ins by systemd-analyze cat-config.
access_integration_tests = \
	tests/integration/files-access.sh \
	tests/integration/files-memlock.sh
TESTS += $(access_integration_tests)
EXTRA_DIST += $(access_integration_tests)
