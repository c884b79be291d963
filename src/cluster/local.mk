# src/cluster: --cluster, do the nodes' state files agree on every cable;
# node.c writes the facts into the state file.
libhalo_la_SOURCES += \
	src/cluster/cluster.h \
	src/cluster/node.c \
	src/cluster/check.c \
	src/cluster/output.c

cluster_unit_tests = tests/unit/test-cluster
check_PROGRAMS += $(cluster_unit_tests)
TESTS += $(cluster_unit_tests)

cluster_integration_tests = tests/integration/cluster.sh
TESTS += $(cluster_integration_tests)
EXTRA_DIST += $(cluster_integration_tests)
