# src/links: the links subsystem: MTU, up, addresses and routes of the
# managed links, through netlink/rtnl.h.
libhalo_la_SOURCES += \
	src/links/links.h \
	src/links/links.c \
	src/links/items.h \
	src/links/items.c \
	src/links/items-addr.c \
	src/links/items-route.c \
	src/links/nm.h \
	src/links/nm.c \
	src/links/networkd.h \
	src/links/networkd.c

# Unit tests (cmocka, TAP)
links_unit_tests = tests/unit/test-links-nm tests/unit/test-links-items \
	tests/unit/test-links-networkd
check_PROGRAMS += $(links_unit_tests)
TESTS += $(links_unit_tests)
tests_unit_test_links_nm_SOURCES = tests/unit/test-links-nm.c tests/unit/root-test.h
tests_unit_test_links_networkd_SOURCES = tests/unit/test-links-networkd.c tests/unit/root-test.h

# Integration tests: real kernel netlink in private namespaces.
links_integration_tests = \
	tests/integration/links-chain.sh \
	tests/integration/links-bad-input.sh \
	tests/integration/links-requests.sh \
	tests/integration/links-match.sh \
	tests/integration/links-interface.sh \
	tests/integration/links-root-confined.sh \
	tests/integration/links-networkd.sh \
	tests/integration/links-ipv6-prefix.sh \
	tests/integration/links-addr-kernel.sh
TESTS += $(links_integration_tests)
EXTRA_DIST += $(links_integration_tests)

# Benchmark: links --check against an ip -j + jq audit (figures only).
EXTRA_DIST += bench/links-check.sh
