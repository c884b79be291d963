/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for modules/options.c: option values as the kernel reads them. */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "modules/internal.h"
#include "util/strv.h"

static void test_matches_bool(void **state)
{
	/* param_get_bool shows Y/N; kstrtobool reads many spellings. */
	assert_true(halo_modopt_matches("bool", "1", "Y"));
	assert_true(halo_modopt_matches("bool", "y", "Y"));
	assert_true(halo_modopt_matches("bool", "on", "Y"));
	assert_true(halo_modopt_matches("bool", NULL, "Y")); /* bare flag */
	assert_true(halo_modopt_matches("bool", "0", "N"));
	assert_true(halo_modopt_matches("bool", "off", "N"));
	assert_false(halo_modopt_matches("bool", "1", "N"));
	assert_false(halo_modopt_matches("bool", "maybe", "N"));
	assert_true(halo_modopt_matches("invbool", "0", "N"));
}

static void test_matches_int(void **state)
{
	assert_true(halo_modopt_matches("uint", "16", "16"));
	assert_true(halo_modopt_matches("uint", "0x10", "16"));
	assert_true(halo_modopt_matches("hexint", "16", "0x10"));
	assert_true(halo_modopt_matches("int", "-1", "-1"));
	assert_false(halo_modopt_matches("int", "-1", "1"));
	assert_true(halo_modopt_matches("ulong", "18446744073709551615", "18446744073709551615"));
	assert_false(halo_modopt_matches("uint", "2", "1"));
	assert_false(halo_modopt_matches("uint", "2x", "2"));
	assert_false(halo_modopt_matches("uint", "", "0"));
	assert_false(halo_modopt_matches("uint", NULL, "0"));
}

static void test_matches_other(void **state)
{
	assert_true(halo_modopt_matches("charp", "abc", "abc"));
	assert_false(halo_modopt_matches("charp", "abc", "ABC"));
	assert_true(halo_modopt_matches("", "x", "x")); /* untyped: exact */
	assert_true(halo_modopt_matches(NULL, "x", "x"));
	assert_false(halo_modopt_matches("charp", "x", NULL));
	assert_true(halo_modopt_matches("array of int", "1,2", "1,2"));
}

static void test_normalize(void **state)
{
	char s[] = "ice-helper_x-";
	char *d;

	halo_name_normalize(s);
	assert_string_equal(s, "ice_helper_x_");
	d = halo_modname_dup("mlx5-core");
	assert_string_equal(d, "mlx5_core");
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matches_bool),
		cmocka_unit_test(test_matches_int),
		cmocka_unit_test(test_matches_other),
		cmocka_unit_test(test_normalize),
	};

	return cmocka_run_group_tests_name("modules-options", tests, NULL, NULL);
}
