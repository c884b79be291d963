# src/rdma: the rdma subsystem (issue 10): netdev -> RDMA device and port,
# port state, the GID index, rdma_cm defaults in configfs, the env file.
libhalo_la_SOURCES += \
	src/rdma/rdma.h \
	src/rdma/plan.c \
	src/rdma/sysfs.c \
	src/rdma/gid.c \
	src/rdma/items.c \
	src/rdma/cm.c \
	src/rdma/envfile.c

# The env file's template, embedded with the others (src/util/local.mk).
halo_templates += templates/rccl.env

# Unit tests (cmocka, TAP)
rdma_unit_tests = tests/unit/test-rdma-gid tests/unit/test-rdma-env
check_PROGRAMS += $(rdma_unit_tests)
TESTS += $(rdma_unit_tests)
