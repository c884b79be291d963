# src/roce: the roce subsystem: each interface entry's `roce` group as
# roce/<entry>/... items on the host table's link, through the dcbnl,
# devlink and ethtool codecs of src/netlink.
libhalo_la_SOURCES += \
	src/roce/roce.h \
	src/roce/plan.c \
	src/roce/items.c \
	src/roce/items-app.c \
	src/roce/items-dev.c \
	src/roce/items-ecn.c

# Unit tests (cmocka, TAP): the planner and items over a fake NIC.
roce_unit_tests = tests/unit/test-roce-plan
check_PROGRAMS += $(roce_unit_tests)
TESTS += $(roce_unit_tests)
tests_unit_test_roce_plan_SOURCES = tests/unit/test-roce-plan.c tests/unit/netlink-test.h \
	tests/unit/config-test.h tests/unit/engine-test.h

# Integration tests: the simulated NIC (tests/nicsim) and a plain veth.
roce_integration_tests = \
	tests/integration/roce-e810.sh \
	tests/integration/roce-e810-reset.sh \
	tests/integration/roce-e810-planted.sh \
	tests/integration/roce-connectx.sh \
	tests/integration/roce-connectx-driverinit.sh \
	tests/integration/roce-veth.sh \
	tests/integration/roce-bad-input.sh \
	tests/integration/roce-examples.sh \
	tests/integration/roce-dscp-owner.sh \
	tests/integration/roce-e810-bond.sh
TESTS += $(roce_integration_tests)
EXTRA_DIST += $(roce_integration_tests)

# Seed configs: an E810 pair, a ConnectX node. Benchmark: roce --check.
EXTRA_DIST += examples/e810-pair-node1.conf examples/connectx-node.conf \
	bench/roce-check.sh
