/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the memlock drop-ins (src/files/memlock.c), read back by
 * ready/memlock's pam_limits parser. */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/plan.h"
#include "files/access.h"
#include "ready/ready.h"

static void limits_unlimited(void **state)
{
	struct halo_access_config a = { .present = true, .memlock_set = true,
					.memlock_unlimited = true };
	struct halo_memlock m = { 0 };
	char *out = NULL;

	(void)state;
	assert_int_equal(halo_memlock_render_limits(&a, &out), 0);
	assert_true(strncmp(out, HALO_MANAGED_HEADER, strlen(HALO_MANAGED_HEADER)) == 0);
	assert_non_null(strstr(out, "\n*\tsoft\tmemlock\tunlimited\n"));
	assert_non_null(strstr(out, "\n*\thard\tmemlock\tunlimited\n"));
	halo_memlock_parse(out, &m);
	assert_true(m.soft_set && m.hard_set && !m.other_domains);
	assert_true(m.soft_kib == HALO_MEMLOCK_UNLIMITED && m.hard_kib == HALO_MEMLOCK_UNLIMITED);
	free(out);
}

static void limits_kib(void **state)
{
	struct halo_access_config a = { .present = true, .memlock_set = true,
					.memlock_kib = 134217728 };
	struct halo_memlock m = { 0 };
	char *out = NULL;

	(void)state;
	assert_int_equal(halo_memlock_render_limits(&a, &out), 0);
	assert_non_null(strstr(out, "\n*\thard\tmemlock\t134217728\n"));
	halo_memlock_parse(out, &m);
	assert_true(m.soft_set && m.hard_set);
	assert_true(m.soft_kib == 134217728 && m.hard_kib == 134217728);
	free(out);
}

static void systemd_values(void **state)
{
	struct halo_access_config inf = { .present = true, .memlock_set = true,
					  .memlock_unlimited = true };
	struct halo_access_config kib = { .present = true, .memlock_set = true,
					  .memlock_kib = 8192 };
	struct halo_access_config unset = { .present = true };
	char *out = NULL;

	(void)state;
	assert_int_equal(halo_memlock_render_systemd(&inf, &out), 0);
	assert_true(strncmp(out, HALO_MANAGED_HEADER, strlen(HALO_MANAGED_HEADER)) == 0);
	assert_non_null(strstr(out, "\n[Manager]\nDefaultLimitMEMLOCK=infinity\n"));
	free(out);
	/* systemd counts bytes: KiB carry the K suffix. */
	assert_int_equal(halo_memlock_render_systemd(&kib, &out), 0);
	assert_non_null(strstr(out, "\nDefaultLimitMEMLOCK=8192K\n"));
	free(out);
	out = NULL;
	assert_int_equal(halo_memlock_render_systemd(&unset, &out), -EINVAL);
	assert_int_equal(halo_memlock_render_limits(&unset, &out), -EINVAL);
	assert_null(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(limits_unlimited),
		cmocka_unit_test(limits_kib),
		cmocka_unit_test(systemd_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
