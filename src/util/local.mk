# src/util: root-confined files, spawn, lock, strings, diff.
libhalo_la_SOURCES += \
	src/util/rootfs.h \
	src/util/rootfs-internal.h \
	src/util/rootfs-open.c \
	src/util/rootfs.c \
	src/util/rootfs-write.c \
	src/util/rootfs-attr.c \
	src/util/strv.h \
	src/util/strv.c \
	src/util/spawn.h \
	src/util/spawn.c \
	src/util/lock.h \
	src/util/lock.c \
	src/util/diff.h \
	src/util/diff.c \
	src/util/errors.h \
	src/util/errors.c

util_unit_tests = \
	tests/unit/test-util-strv \
	tests/unit/test-util-rootfs \
	tests/unit/test-util-spawn \
	tests/unit/test-util-lock \
	tests/unit/test-util-diff
check_PROGRAMS += $(util_unit_tests)
TESTS += $(util_unit_tests)

tests_unit_test_util_strv_SOURCES = tests/unit/test-util-strv.c
tests_unit_test_util_strv_CFLAGS = $(unit_cflags)
tests_unit_test_util_strv_LDADD = $(unit_ldadd)

tests_unit_test_util_rootfs_SOURCES = tests/unit/test-util-rootfs.c
tests_unit_test_util_rootfs_CFLAGS = $(unit_cflags)
tests_unit_test_util_rootfs_LDADD = $(unit_ldadd)

tests_unit_test_util_spawn_SOURCES = tests/unit/test-util-spawn.c
tests_unit_test_util_spawn_CFLAGS = $(unit_cflags)
tests_unit_test_util_spawn_LDADD = $(unit_ldadd)

tests_unit_test_util_lock_SOURCES = tests/unit/test-util-lock.c
tests_unit_test_util_lock_CFLAGS = $(unit_cflags)
tests_unit_test_util_lock_LDADD = $(unit_ldadd)

tests_unit_test_util_diff_SOURCES = tests/unit/test-util-diff.c
tests_unit_test_util_diff_CFLAGS = $(unit_cflags)
tests_unit_test_util_diff_LDADD = $(unit_ldadd)
