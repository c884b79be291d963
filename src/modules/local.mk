# src/modules: kernel modules through libkmod.
libhalo_la_SOURCES += \
	src/modules/modules.h \
	src/modules/internal.h \
	src/modules/modules.c \
	src/modules/kmod-dl.h \
	src/modules/kmod-dl.c \
	src/modules/kmod.c \
	src/modules/kmod-cmdline.c \
	src/modules/view.h \
	src/modules/view.c \
	src/modules/view-modules.c \
	src/modules/depindex.c \
	src/modules/modindex.c \
	src/modules/native.c \
	src/modules/elfsection.c \
	src/modules/unpack.c \
	src/modules/packcheck.c \
	src/modules/parmrec.c \
	src/modules/unpack-zstd.c \
	src/modules/unpack-xz.c \
	src/modules/modinfo.c \
	src/modules/blacklist.c \
	src/modules/items.c \
	src/modules/sysmodule.c \
	src/modules/options.c \
	src/modules/parmtype.c \
	src/modules/persist.c \
	src/modules/dkms.c

# The finit_module trap (tests only): never linked into anything, only
# LD_PRELOADed by the tests that re-execute under it. No sanitizer flags:
# it is preloaded into sanitized binaries and must not bring a runtime.
check_LTLIBRARIES += tests/preload/halo-kmod-trap.la
tests_preload_halo_kmod_trap_la_SOURCES = tests/preload/halo-kmod-trap.c
tests_preload_halo_kmod_trap_la_CFLAGS = -std=gnu11 -fvisibility=hidden $(WARN_CFLAGS)
tests_preload_halo_kmod_trap_la_LDFLAGS = -module -avoid-version -rpath /nowhere -shared
tests_preload_halo_kmod_trap_la_LIBADD = -ldl

# A "libkmod.so.2" without libkmod's functions (modules-dlopen.sh).
check_LTLIBRARIES += tests/preload/halo-kmod-stub.la
tests_preload_halo_kmod_stub_la_SOURCES = tests/preload/halo-kmod-stub.c
tests_preload_halo_kmod_stub_la_CFLAGS = -std=gnu11 $(WARN_CFLAGS)
tests_preload_halo_kmod_stub_la_LDFLAGS = -module -avoid-version -rpath /nowhere -shared

EXTRA_DIST += tests/fixtures/modules/mkfixture.sh

# Integration: a real libkmod on fixture trees, halo-provision under the trap.
modules_integration_tests = \
	tests/integration/modules-load.sh \
	tests/integration/modules-fail.sh \
	tests/integration/modules-validate.sh \
	tests/integration/modules-options.sh \
	tests/integration/modules-confine.sh \
	tests/integration/modules-corrupt.sh \
	tests/integration/modules-dlopen.sh \
	tests/integration/modules-view.sh
TESTS += $(modules_integration_tests)
EXTRA_DIST += $(modules_integration_tests) tests/integration/modules-lib.sh

# Unit tests.
check_PROGRAMS += \
	tests/unit/test-modules-options \
	tests/unit/test-modules-parmtype \
	tests/unit/test-modules-blacklist \
	tests/unit/test-modules-persist \
	tests/unit/test-modules-kmod \
	tests/unit/test-modules-native \
	tests/unit/test-modules-parmrec \
	tests/unit/test-modules-unpack
TESTS += \
	tests/unit/test-modules-options \
	tests/unit/test-modules-parmtype \
	tests/unit/test-modules-blacklist \
	tests/unit/test-modules-persist \
	tests/unit/test-modules-kmod \
	tests/unit/test-modules-native \
	tests/unit/test-modules-parmrec \
	tests/unit/test-modules-unpack
tests_unit_test_modules_unpack_CFLAGS = $(unit_cflags) \
	-DHALO_TOP_SRCDIR=\"$(abs_top_srcdir)\"
tests_unit_test_modules_native_CFLAGS = $(unit_cflags) \
	-DHALO_TOP_SRCDIR=\"$(abs_top_srcdir)\"
tests_unit_test_modules_kmod_CFLAGS = $(unit_cflags) \
	-DHALO_TOP_SRCDIR=\"$(abs_top_srcdir)\"
EXTRA_DIST += bench/modules-check.sh bench/startup.sh tests/unit/modules-fixture.h
