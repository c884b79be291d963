# src/files/firewall*.c, firewalld.c: the firewalld zone or nftables table
# of the managed interfaces (issue 11, FACTS.md section 8).
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
	tests/integration/files-nftables.sh
TESTS += $(firewall_integration_tests)
EXTRA_DIST += $(firewall_integration_tests)
