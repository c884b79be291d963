# src/rdma: the rdma subsystem: netdev -> RDMA device and port,
# port state, the GID index, rdma_cm defaults in configfs, the env file.
libhalo_la_SOURCES += \
	src/rdma/rdma.h \
	src/rdma/plan.c \
	src/rdma/sysfs.c \
	src/rdma/gid.c \
	src/rdma/seen.c \
	src/rdma/items.c \
	src/rdma/cm.c \
	src/rdma/envfile.c

# The env file's template, embedded with the others (src/util/local.mk).
halo_templates += templates/rccl.env

# Unit tests (cmocka, TAP)
rdma_unit_tests = tests/unit/test-rdma-gid tests/unit/test-rdma-env tests/unit/test-rdma-seen
tests_unit_test_rdma_env_SOURCES = tests/unit/test-rdma-env.c tests/unit/render-test.h
tests_unit_test_rdma_seen_SOURCES = tests/unit/test-rdma-seen.c tests/unit/engine-test.h \
	tests/unit/root-test.h
check_PROGRAMS += $(rdma_unit_tests)
TESTS += $(rdma_unit_tests)

# Integration tests: fixture sysfs/configfs under --root, veths in a
# network namespace.
rdma_integration_tests = \
	tests/integration/rdma-gid.sh \
	tests/integration/rdma-configfs.sh \
	tests/integration/rdma-envfile.sh \
	tests/integration/rdma-seed.sh \
	tests/integration/rdma-e810-iwarp.sh
TESTS += $(rdma_integration_tests)
EXTRA_DIST += $(rdma_integration_tests) tests/integration/rdma-lib.sh \
	tests/fixtures/rdma/e810-node1.conf tests/fixtures/rdma/e810-node1.env \
	tests/fixtures/rdma/e810-node2.conf tests/fixtures/rdma/e810-node2.env \
	tests/fixtures/rdma/connectx.conf tests/fixtures/rdma/connectx.env
