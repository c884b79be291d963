# src/netlink: the run's netlink transport, and the dcbnl, devlink and
# ethtool codecs over it with their attribute reader and request builder.
libhalo_la_SOURCES += \
	src/netlink/context.h \
	src/netlink/context.c \
	src/netlink/transport.h \
	src/netlink/transport.c \
	src/netlink/attrs.h \
	src/netlink/attrs.c \
	src/netlink/request.h \
	src/netlink/request.c \
	src/netlink/dcbnl.h \
	src/netlink/dcbnl.c \
	src/netlink/devlink.h \
	src/netlink/devlink.c \
	src/netlink/ethtool.h \
	src/netlink/ethtool.c

# Unit tests (cmocka, TAP): the codecs against a fake kernel at the
# transport's seam (tests/unit/netlink-test.h).
netlink_unit_tests = tests/unit/test-netlink-dcbnl tests/unit/test-netlink-devlink \
	tests/unit/test-netlink-ethtool
check_PROGRAMS += $(netlink_unit_tests)
TESTS += $(netlink_unit_tests)
tests_unit_test_netlink_dcbnl_SOURCES = tests/unit/test-netlink-dcbnl.c tests/unit/netlink-test.h
tests_unit_test_netlink_devlink_SOURCES = tests/unit/test-netlink-devlink.c tests/unit/netlink-test.h
tests_unit_test_netlink_ethtool_SOURCES = tests/unit/test-netlink-ethtool.c tests/unit/netlink-test.h
