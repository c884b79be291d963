# src/storage: the model store: libblkid (src/util/blkid.c,
# shared with boot), the .mount unit, its enabling symlink, the mount.
libhalo_la_SOURCES += \
	src/util/blkid.h \
	src/util/blkid.c \
	src/storage/storage.h \
	src/storage/storage.c \
	src/storage/storage-int.h \
	src/storage/escape.h \
	src/storage/escape.c \
	src/storage/mountinfo.h \
	src/storage/mountinfo.c \
	src/storage/unit.c \
	src/storage/wants.c \
	src/storage/items.c

# The mount unit's template, embedded with the others (src/util/local.mk).
halo_templates += templates/model-store.mount

# Unit tests (cmocka, TAP)
storage_unit_tests = \
	tests/unit/test-storage-escape \
	tests/unit/test-storage-mountinfo
check_PROGRAMS += $(storage_unit_tests)
TESTS += $(storage_unit_tests)

# Integration tests: real ext4/xfs images probed by libblkid under --root.
storage_integration_tests = \
	tests/integration/storage-unit.sh \
	tests/integration/storage-bad-input.sh \
	tests/integration/revert-storage.sh
TESTS += $(storage_integration_tests)
EXTRA_DIST += $(storage_integration_tests) tests/integration/storage-lib.sh
