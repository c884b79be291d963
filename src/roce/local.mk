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
	src/roce/ethtool.c \
	src/roce/request.h \
	src/roce/request.c

# Unit tests (cmocka, TAP)
roce_unit_tests = tests/unit/test-roce-dcbnl tests/unit/test-roce-devlink \
	tests/unit/test-roce-ethtool tests/unit/test-roce-plan
check_PROGRAMS += $(roce_unit_tests)
TESTS += $(roce_unit_tests)
tests_unit_test_roce_dcbnl_SOURCES = tests/unit/test-roce-dcbnl.c tests/unit/roce-test.h
tests_unit_test_roce_devlink_SOURCES = tests/unit/test-roce-devlink.c tests/unit/roce-test.h
tests_unit_test_roce_ethtool_SOURCES = tests/unit/test-roce-ethtool.c tests/unit/roce-test.h
tests_unit_test_roce_plan_SOURCES = tests/unit/test-roce-plan.c tests/unit/roce-test.h \
	tests/unit/config-test.h tests/unit/engine-test.h
EXTRA_DIST += bench/roce-check.sh
