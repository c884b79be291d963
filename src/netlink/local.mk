# src/netlink: the run's netlink transport, rtnetlink (parsers, snapshots,
# changes), and the dcbnl, devlink and ethtool codecs, all over one
# attribute reader and request builder.
libhalo_la_SOURCES += \
	src/netlink/context.h \
	src/netlink/context.c \
	src/netlink/transport.h \
	src/netlink/transport.c \
	src/netlink/rtnl.h \
	src/netlink/rtnl-int.h \
	src/netlink/rtnl-parse.c \
	src/netlink/rtnl-snapshot.c \
	src/netlink/rtnl-change.c \
	src/netlink/attrs.h \
	src/netlink/attrs.c \
	src/netlink/request.h \
	src/netlink/request.c \
	src/netlink/dcbnl.h \
	src/netlink/dcbnl.c \
	src/netlink/devlink.h \
	src/netlink/devlink.c \
	src/netlink/devlink-reload.c \
	src/netlink/ethtool.h \
	src/netlink/ethtool.c

# Unit tests (cmocka, TAP): messages against the kernel UAPI layouts, and
# a fake kernel at the transport's seam (netlink-test.h, rtnl-test.h).
netlink_unit_tests = tests/unit/test-netlink-transport \
	tests/unit/test-netlink-dcbnl tests/unit/test-netlink-devlink \
	tests/unit/test-netlink-ethtool tests/unit/test-netlink-rtnl-parse \
	tests/unit/test-netlink-rtnl-change tests/unit/test-netlink-rtnl-snapshot
check_PROGRAMS += $(netlink_unit_tests)
TESTS += $(netlink_unit_tests)
tests_unit_test_netlink_rtnl_parse_SOURCES = tests/unit/test-netlink-rtnl-parse.c tests/unit/rtnl-test.h
tests_unit_test_netlink_rtnl_change_SOURCES = tests/unit/test-netlink-rtnl-change.c tests/unit/rtnl-test.h
tests_unit_test_netlink_rtnl_snapshot_SOURCES = tests/unit/test-netlink-rtnl-snapshot.c tests/unit/rtnl-test.h
tests_unit_test_netlink_dcbnl_SOURCES = tests/unit/test-netlink-dcbnl.c tests/unit/netlink-test.h
tests_unit_test_netlink_devlink_SOURCES = tests/unit/test-netlink-devlink.c tests/unit/netlink-test.h
tests_unit_test_netlink_ethtool_SOURCES = tests/unit/test-netlink-ethtool.c tests/unit/netlink-test.h
