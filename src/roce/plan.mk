# src/roce: the roce planner and its items (issue 9), on the host table and
# the codecs of local.mk.
libhalo_la_SOURCES += \
	src/roce/roce.h \
	src/roce/plan.c \
	src/roce/items.c \
	src/roce/items-app.c \
	src/roce/items-dev.c \
	src/roce/items-ecn.c \
	src/roce/bond.c

# Integration tests: the simulated NIC (tests/nicsim) and a plain veth.
roce_integration_tests = \
	tests/integration/roce-e810.sh \
	tests/integration/roce-connectx.sh \
	tests/integration/roce-veth.sh \
	tests/integration/roce-bad-input.sh \
	tests/integration/roce-examples.sh \
	tests/integration/roce-dscp-owner.sh \
	tests/integration/roce-e810-bond.sh
TESTS += $(roce_integration_tests)
EXTRA_DIST += $(roce_integration_tests)

# Seed configs (issue 9): an E810 pair, a ConnectX node.
EXTRA_DIST += examples/e810-pair-node1.conf examples/connectx-node.conf
