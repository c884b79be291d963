# src/files: the files subsystem, the owned files that are not boot,
# module or link settings: device access rules and memlock limits
# (access.c, memlock.c, group.c for the root's /etc/group), the firewalld
# zone or nftables table of the managed interfaces (firewall*.c,
# firewalld.c), the sysctl drop-in and runtime values (sysctl*.c).
libhalo_la_SOURCES += \
	src/files/files.h \
	src/files/files.c

# Device access and memlock.
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
tests_unit_test_files_access_SOURCES = tests/unit/test-files-access.c tests/unit/render-test.h
check_PROGRAMS += $(access_unit_tests)
TESTS += $(access_unit_tests)

# Integration tests: --root fixture trees; the rule read by the real
# udevadm, the drop-ins by systemd-analyze cat-config.
access_integration_tests = \
	tests/integration/files-access.sh \
	tests/integration/files-memlock.sh
TESTS += $(access_integration_tests)
EXTRA_DIST += $(access_integration_tests)

# The firewall.
libhalo_la_SOURCES += \
	src/files/firewall.h \
	src/files/firewall.c \
	src/files/firewall-render.c \
	src/files/firewalld.c \
	src/files/firewall-item.c

# Their templates, embedded with the others (src/util/local.mk).
halo_templates += templates/halo-rdma.xml templates/halo-provision.nft

# Unit tests (cmocka, TAP)
firewall_unit_tests = tests/unit/test-files-firewall
check_PROGRAMS += $(firewall_unit_tests)
TESTS += $(firewall_unit_tests)

# Integration tests: --root fixture trees, veths in a network namespace;
# the zone read by the real firewall-offline-cmd, the table by nft -c.
firewall_integration_tests = \
	tests/integration/files-firewalld.sh \
	tests/integration/files-nftables.sh \
	tests/integration/files-nft-activate.sh
TESTS += $(firewall_integration_tests)
EXTRA_DIST += $(firewall_integration_tests) tests/integration/firewall-lib.sh

# sysctl.
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
