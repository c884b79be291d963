/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for modules/options.c: option strings as the kernel reads them. */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "modules/internal.h"
#include "util/strv.h"

static void test_parse_words(void **state)
{
	struct halo_modopt *o;
	size_t n;

	assert_int_equal(halo_modopts_parse("  prof_sel=2\tdebug-mask=0x3 \n flag  ", &o, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(o[0].key, "prof_sel");
	assert_string_equal(o[0].value, "2");
	assert_string_equal(o[1].key, "debug_mask"); /* '-' is '_' to the kernel */
	assert_string_equal(o[1].value, "0x3");
	assert_string_equal(o[2].key, "flag");
	assert_null(o[2].value); /* a bare flag */
	halo_modopts_free(o, n);
}

static void test_parse_quotes(void **state)
{
	struct halo_modopt *o;
	size_t n;

	assert_int_equal(halo_modopts_parse("name=\"a b=c\" x=\"\" y=1=2", &o, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(o[0].value, "a b=c");
	assert_string_equal(o[1].value, "");
	assert_string_equal(o[2].value, "1=2"); /* only the first '=' splits */
	halo_modopts_free(o, n);

	assert_int_equal(halo_modopts_parse("a=\"open", &o, &n), -EINVAL);
	assert_int_equal(halo_modopts_parse("=1", &o, &n), -EINVAL);
	assert_int_equal(halo_modopts_parse("", &o, &n), 0);
	assert_int_equal(n, 0);
	halo_modopts_free(o, n);
	assert_int_equal(halo_modopts_parse(NULL, &o, &n), 0);
	assert_int_equal(n, 0);
	halo_modopts_free(o, n);
}

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
		cmocka_unit_test(test_parse_words),
		cmocka_unit_test(test_parse_quotes),
		cmocka_unit_test(test_matches_bool),
		cmocka_unit_test(test_matches_int),
		cmocka_unit_test(test_matches_other),
		cmocka_unit_test(test_normalize),
	};

	return cmocka_run_group_tests_name("modules-options", tests, NULL, NULL);
}
