/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: GTT arithmetic, meminfo and modprobe.d parsing (src/boot/gtt.c),
 * and when boot planning needs the amdgpu-dkms fact (src/boot/boot.c). */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "boot/boot.h"
#include "boot/gtt.h"

static void test_pages(void **state)
{
	/* The guide's two values agree (docs/hardware.md "GTT and TTM sizing"). */
	assert_int_equal(halo_gtt_pages(126976), 32505856);
	assert_int_equal(halo_gtt_pages(1), 256);
	assert_int_equal(halo_gtt_pages(0), 0);
}

static void test_meminfo(void **state)
{
	uint64_t kib = 0;

	assert_int_equal(halo_meminfo_memtotal_kib("MemTotal:       134217728 kB\n"
						   "MemFree:          1000 kB\n", &kib), 0);
	assert_int_equal(kib, 134217728);
	assert_int_equal(halo_meminfo_memtotal_kib("MemFree: 1 kB\nMemTotal: 42 kB", &kib), 0);
	assert_int_equal(kib, 42);
	assert_int_equal(halo_meminfo_memtotal_kib("", &kib), -EINVAL);
	assert_int_equal(halo_meminfo_memtotal_kib("MemTotal: lots\n", &kib), -EINVAL);
	assert_int_equal(halo_meminfo_memtotal_kib("MemTotal: 12\n", &kib), -EINVAL);
	assert_int_equal(halo_meminfo_memtotal_kib("MemTotal: 0 kB\n", &kib), -EINVAL);
	assert_int_equal(halo_meminfo_memtotal_kib(
				 "MemTotal: 99999999999999999999999 kB\n", &kib), -EINVAL);
}

static void test_ceiling(void **state)
{
	/* 128 GiB: 131072 - 2048 - 1536. */
	assert_int_equal(halo_gtt_ceiling_mib(131072), 127488);
	assert_int_equal(halo_gtt_ceiling_mib(1000), 0);
	/* The guide's 124 GiB is below the ceiling on a 128 GiB box. */
	assert_true(126976 <= halo_gtt_ceiling_mib(131072));
}

static void test_auto(void **state)
{
	/* 128 GiB of meminfo: 128 - 8 GiB. */
	assert_int_equal(halo_gtt_auto_mib(134217728 / 1024, 2048), 122880);
	/* A reserve above 8 GiB counts. */
	assert_int_equal(halo_gtt_auto_mib(131072, 16384), 114688);
	/* Rounded down to whole GiB: 131000 - 8192 = 122808 -> 119 GiB. */
	assert_int_equal(halo_gtt_auto_mib(131000, 2048), 119 * 1024);
	/* Small machine: capped by the ceiling, then rounded. 16 GiB:
	 * 16384 - 8192 = 8192; ceiling 16384 - 256 - 1536 = 14592. */
	assert_int_equal(halo_gtt_auto_mib(16384, 0), 8192);
	/* Ceiling binds: 12 GiB - 8 GiB = 4096 < ceiling 10560. */
	assert_int_equal(halo_gtt_auto_mib(12288, 0), 4096);
	assert_int_equal(halo_gtt_auto_mib(4096, 0), 0);
}

static void test_modprobe(void **state)
{
	char *v = NULL;

	assert_int_equal(halo_modprobe_find_option("# x\noptions ttm pages_limit=100 x=1\n",
						   "ttm", "pages_limit", &v), 2);
	assert_string_equal(v, "100");
	free(v);
	v = NULL;
	assert_int_equal(halo_modprobe_find_option("options amdttm pages_limit=1\n",
						   "ttm", "pages_limit", &v), 0);
	assert_null(v);
	assert_int_equal(halo_modprobe_find_option("options ttm a=1\n\toptions  ttm  pages_limit=7\n",
						   "ttm", "pages_limit", &v), 2);
	assert_string_equal(v, "7");
	free(v);
	assert_int_equal(halo_modprobe_find_option("options ttm pages_limit_x=1\n", "ttm",
						   "pages_limit", &v), 0);
}

static void test_token_pages(void **state)
{
	uint64_t p = 0;

	assert_true(halo_gtt_token_pages("ttm.pages_limit=1024", &p));
	assert_int_equal(p, 1024);
	assert_true(halo_gtt_token_pages("amdttm.pages_limit=7", &p));
	assert_int_equal(p, 7);
	/* amdgpu.gttsize counts MiB. */
	assert_true(halo_gtt_token_pages("amdgpu.gttsize=4096", &p));
	assert_int_equal(p, 4096 * 256);
	p = 99;
	assert_false(halo_gtt_token_pages("ttm.pages_limit", &p));
	assert_false(halo_gtt_token_pages("ttm.pages_limit=", &p));
	assert_false(halo_gtt_token_pages("ttm.pages_limit=12k", &p));
	assert_false(halo_gtt_token_pages("ttm.pages_limit=99999999999999999999999", &p));
	assert_int_equal(p, 99);
}

static void test_needs_amdgpu_dkms(void **state)
{
	struct halo_config cfg = { 0 };

	cfg.boot.present = true;
	cfg.boot.loader = HALO_LOADER_AUTO;
	cfg.boot.gtt_set = true;
	cfg.boot.gtt_params = HALO_GTT_PARAMS_AUTO;
	assert_true(halo_boot_needs_amdgpu_dkms(&cfg));
	/* An explicit prefix, no GTT, no boot section: libkmod is not asked. */
	cfg.boot.gtt_params = HALO_GTT_PARAMS_TTM;
	assert_false(halo_boot_needs_amdgpu_dkms(&cfg));
	cfg.boot.gtt_params = HALO_GTT_PARAMS_AMDTTM;
	assert_false(halo_boot_needs_amdgpu_dkms(&cfg));
	cfg.boot.gtt_params = HALO_GTT_PARAMS_AUTO;
	cfg.boot.gtt_set = false;
	assert_false(halo_boot_needs_amdgpu_dkms(&cfg));
	cfg.boot.gtt_set = true;
	cfg.boot.loader = HALO_LOADER_NONE;
	assert_false(halo_boot_needs_amdgpu_dkms(&cfg));
	cfg.boot.loader = HALO_LOADER_GRUB;
	cfg.boot.present = false;
	assert_false(halo_boot_needs_amdgpu_dkms(&cfg));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pages),
		cmocka_unit_test(test_meminfo),
		cmocka_unit_test(test_ceiling),
		cmocka_unit_test(test_auto),
		cmocka_unit_test(test_modprobe),
		cmocka_unit_test(test_token_pages),
		cmocka_unit_test(test_needs_amdgpu_dkms),
	};

	return cmocka_run_group_tests_name("boot-gtt", tests, NULL, NULL);
}
