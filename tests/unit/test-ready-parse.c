/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the readiness parsers: PCIe link speeds and ceilings,
 * pam_limits memlock lines (src/ready). */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ready/ready.h"

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
		cmocka_unit_test(test_pcie),
		cmocka_unit_test(test_memlock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
