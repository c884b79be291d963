/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-config-report.c: the key paths of the config's messages, built by
 * hand, against what snprintf makes of the same formats at every buffer
 * size (truncation included). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "config/report.h"

/* halo_pkey(PATH, KEY, IDX) into every buffer size from 0 to past its
 * length: the bytes snprintf would have written, no more. */
static void key_is(const char *path, const char *key, long idx, const char *want)
{
	char got[64], ref[64];

	for (size_t len = 0; len <= strlen(want) + 2; len++) {
		memset(got, 'X', sizeof(got));
		memset(ref, 'X', sizeof(ref));
		if (key)
			snprintf(ref, len, "%s%s%s", path, *path ? "." : "", key);
		else
			snprintf(ref, len, "%s[%ld]", path, idx);
		assert_ptr_equal(halo_pkey(got, len, path, key, idx), got);
		assert_memory_equal(got, ref, sizeof(got));
	}
	halo_pkey(got, sizeof(got), path, key, idx);
	assert_string_equal(got, want);
}

static void pkey(void **state)
{
	key_is("", "interfaces", 0, "interfaces");
	key_is("interfaces[0]", "roce", 0, "interfaces[0].roce");
	key_is("interfaces[0].roce", "dscp_prio", 7, "interfaces[0].roce.dscp_prio");
	key_is("interfaces", NULL, 0, "interfaces[0]");
	key_is("interfaces[3].routes", NULL, 12, "interfaces[3].routes[12]");
	key_is("", NULL, 5, "[5]");
	key_is("x", NULL, -1, "x[-1]");
	key_is("x", NULL, 2147483647L, "x[2147483647]");
	key_is("x", NULL, -2147483647L - 1, "x[-2147483648]");
	key_is("x", "", 0, "x.");
}

static void pkey_extremes(void **state)
{
	char got[32], ref[32];

	/* The widest index a long holds, both signs. */
	halo_pkey(got, sizeof(got), "", NULL, (long)(~0UL >> 1));
	snprintf(ref, sizeof(ref), "[%ld]", (long)(~0UL >> 1));
	assert_string_equal(got, ref);
	halo_pkey(got, sizeof(got), "", NULL, -(long)(~0UL >> 1) - 1);
	snprintf(ref, sizeof(ref), "[%ld]", -(long)(~0UL >> 1) - 1);
	assert_string_equal(got, ref);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pkey),
		cmocka_unit_test(pkey_extremes),
	};

	return cmocka_run_group_tests_name("config-report", tests, NULL, NULL);
}
