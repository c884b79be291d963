# src/roce: the RoCE QoS subsystem (issue 9): dcbnl, devlink and ethtool
# codecs over the netlink transport.
libhalo_la_SOURCES += \
	src/roce/attrs.h \
	src/roce/attrs.c \
	src/roce/dcbnl.h \
	src/roce/dcbnl.c \
	src/roce/devlink.h \
	src/roce/devlink.c \
	src/roce/ethtool.h \
	src/roce/ethtool.c

# Unit tests (cmocka, TAP)
roce_unit_tests = tests/unit/test-roce-dcbnl tests/unit/test-roce-devlink \
	tests/unit/test-roce-ethtool
check_PROGRAMS += $(roce_unit_tests)
TESTS += $(roce_unit_tests)
