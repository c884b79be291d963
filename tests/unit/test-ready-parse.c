/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the readiness parsers: kernel releases, PCIe link speeds
 * and ceilings, pam_limits memlock lines (src/ready). */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ready/ready.h"

static void test_version(void **state)
{
	unsigned v[3], min[3] = { 6, 18, 4 };
	const char *end;

	(void)state;
	assert_int_equal(halo_kernel_version_parse("6.18.5-200.fc43.x86_64", v, &end), 0);
	assert_int_equal(v[0], 6);
	assert_int_equal(v[1], 18);
	assert_int_equal(v[2], 5);
	assert_string_equal(end, "-200.fc43.x86_64");
	assert_true(halo_kernel_version_cmp(v, min) > 0);
	assert_int_equal(halo_kernel_version_parse("6.18", v, &end), 0);
	assert_int_equal(v[2], 0);
	assert_true(halo_kernel_version_cmp(v, min) < 0);
	/* 6.9 is older than 6.18: numbers, not strings */
	assert_int_equal(halo_kernel_version_parse("6.9.12", v, NULL), 0);
	assert_true(halo_kernel_version_cmp(v, min) < 0);
	assert_int_equal(halo_kernel_version_parse("6.18.4", v, &end), 0);
	assert_int_equal(halo_kernel_version_cmp(v, min), 0);
	assert_string_equal(end, "");
	assert_int_equal(halo_kernel_version_parse("6", v, NULL), -EINVAL);
	assert_int_equal(halo_kernel_version_parse("", v, NULL), -EINVAL);
	assert_int_equal(halo_kernel_version_parse("v6.18", v, NULL), -EINVAL);
	assert_int_equal(halo_kernel_version_parse("6.99999999.1", v, NULL), -EINVAL);
}

static void test_pcie(void **state)
{
	double gts;

	(void)state;
	assert_int_equal(halo_pcie_speed_parse("16.0 GT/s PCIe", &gts), 0);
	assert_true(gts == 16.0);
	assert_int_equal(halo_pcie_speed_parse("2.5 GT/s", &gts), 0);
	assert_int_equal(halo_pcie_speed_parse("Unknown", &gts), -EINVAL);
	assert_int_equal(halo_pcie_speed_parse("0 GT/s", &gts), -EINVAL);
	/* a 100G port behind x4 Gen4: about 63 Gb/s */
	assert_int_equal((int)(halo_pcie_ceiling_gbps(16.0, 4) + 0.5), 63);
	assert_int_equal((int)(halo_pcie_ceiling_gbps(16.0, 16) + 0.5), 252);
	/* Gen2 x8: 8b/10b */
	assert_int_equal((int)(halo_pcie_ceiling_gbps(5.0, 8) + 0.5), 32);
}

static void test_memlock(void **state)
{
	struct halo_memlock m = { 0 };

	(void)state;
	halo_memlock_parse("# comment\n*  soft memlock 8192\n*\thard memlock 8192 # old\n"
			   "@rdma - memlock unlimited\n* soft nofile 4096\n", &m);
	assert_true(m.soft_set && m.hard_set);
	assert_int_equal(m.soft_kib, 8192);
	assert_int_equal(m.hard_kib, 8192);
	assert_true(m.other_domains);
	/* a later file wins; "-" sets both */
	halo_memlock_parse("* - memlock unlimited\n", &m);
	assert_true(m.soft_kib == HALO_MEMLOCK_UNLIMITED);
	assert_true(m.hard_kib == HALO_MEMLOCK_UNLIMITED);
	halo_memlock_parse("* hard memlock -1\n* soft memlock bogus\n* soft memlock 64", &m);
	assert_true(m.hard_kib == HALO_MEMLOCK_UNLIMITED);
	assert_int_equal(m.soft_kib, 64);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_pcie),
		cmocka_unit_test(test_memlock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
