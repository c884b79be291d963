# src/net: links, addresses, routes through libnl-route-3 (issue 4).
libhalo_la_SOURCES += \
	src/net/links.h \
	src/net/links.c \
	src/net/items.h \
	src/net/items.c \
	src/net/match.h \
	src/net/match.c \
	src/net/sysfs.c \
	src/net/nl.h \
	src/net/nl.c \
	src/net/netns.c \
	src/net/nm.h \
	src/net/nm.c

# Unit tests (cmocka, TAP)
net_unit_tests = tests/unit/test-net-nl tests/unit/test-net-match tests/unit/test-net-nm \
	tests/unit/test-net-items tests/unit/test-net-transport
check_PROGRAMS += $(net_unit_tests)
TESTS += $(net_unit_tests)

# Integration tests: real kernel netlink in private namespaces.
net_integration_tests = \
	tests/integration/links-chain.sh \
	tests/integration/links-bad-input.sh \
	tests/integration/links-requests.sh \
	tests/integration/links-match.sh \
	tests/integration/links-interface.sh
TESTS += $(net_integration_tests)
EXTRA_DIST += $(net_integration_tests)

# Benchmark: links --check against an ip -j + jq audit (figures only).
EXTRA_DIST += bench/links-check.sh
