# src/cluster: --cluster, do the nodes' state files or live audits agree
# on every cable and switched segment; node.c writes the facts they hold.
libhalo_la_SOURCES += \
	src/cluster/cluster.h \
	src/cluster/internal.h \
	src/cluster/node.c \
	src/cluster/parse.c \
	src/cluster/items.c \
	src/cluster/check.c \
	src/cluster/segment.c \
	src/cluster/output.c \
	src/cluster/dot.c

cluster_unit_tests = tests/unit/test-cluster
check_PROGRAMS += $(cluster_unit_tests)
TESTS += $(cluster_unit_tests)

cluster_integration_tests = tests/integration/cluster.sh \
	tests/integration/cluster-fabric.sh
TESTS += $(cluster_integration_tests)
EXTRA_DIST += $(cluster_integration_tests) tests/lib/fabric-states.py tests/lib/svg.sh
