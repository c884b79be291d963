# src/util: root-confined files, spawn, lock, strings, diff.
libhalo_la_SOURCES += \
	src/util/rootfs.h \
	src/util/rootfs-internal.h \
	src/util/rootfs-open.c \
	src/util/rootfs.c \
	src/util/rootfs-write.c \
	src/util/strv.h \
	src/util/strv.c \
	src/util/spawn.h \
	src/util/lock.h \
	src/util/diff.h \
	src/util/errors.h \
	src/util/errors.c

check_PROGRAMS += tests/unit/test-util-strv tests/unit/test-util-rootfs
TESTS += tests/unit/test-util-strv tests/unit/test-util-rootfs

tests_unit_test_util_strv_SOURCES = tests/unit/test-util-strv.c
tests_unit_test_util_strv_CFLAGS = $(unit_cflags)
tests_unit_test_util_strv_LDADD = $(unit_ldadd)

tests_unit_test_util_rootfs_SOURCES = tests/unit/test-util-rootfs.c
tests_unit_test_util_rootfs_CFLAGS = $(unit_cflags)
tests_unit_test_util_rootfs_LDADD = $(unit_ldadd)
