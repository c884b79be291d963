/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for modules/parmtype.c: values as the kernel's setters take them. */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "modules/internal.h"

static int check(const char *type, const char *value)
{
	const char *expected = NULL;
	int r = halo_modopt_check(type, value, &expected);

	assert_non_null(expected);
	return r;
}

static void test_unsigned(void **state)
{
	/* kstrtouint, base 0: decimal, 0x hex, leading 0 octal, '+', one '\n'. */
	assert_int_equal(check("uint", "2"), 0);
	assert_int_equal(check("uint", "0x1F"), 0);
	assert_int_equal(check("uint", "017"), 0);
	assert_int_equal(check("uint", "+5"), 0);
	assert_int_equal(check("uint", "5\n"), 0);
	assert_int_equal(check("uint", "4294967295"), 0);
	assert_int_equal(check("uint", "4294967296"), -EINVAL);
	assert_int_equal(check("uint", "abc"), -EINVAL);
	assert_int_equal(check("uint", "-1"), -EINVAL);
	assert_int_equal(check("uint", ""), -EINVAL);
	assert_int_equal(check("uint", "08"), -EINVAL); /* octal */
	assert_int_equal(check("uint", "0x"), -EINVAL);
	assert_int_equal(check("uint", " 1"), -EINVAL);
	assert_int_equal(check("uint", "1 "), -EINVAL);
	assert_int_equal(check("uint", "1\n\n"), -EINVAL);
	assert_int_equal(check("uint", NULL), -EINVAL); /* no value */
	assert_int_equal(check("hexint", "0xffffffff"), 0);
	assert_int_equal(check("hexint", "0x100000000"), -EINVAL);
	assert_int_equal(check("byte", "255"), 0); /* unsigned char */
	assert_int_equal(check("byte", "256"), -EINVAL);
	assert_int_equal(check("byte", "-1"), -EINVAL);
	assert_int_equal(check("ushort", "65535"), 0);
	assert_int_equal(check("ushort", "65536"), -EINVAL);
	assert_int_equal(check("ulong", "18446744073709551615"), 0);
	assert_int_equal(check("ullong", "18446744073709551616"), -EINVAL);
}

static void test_signed(void **state)
{
	assert_int_equal(check("int", "-1"), 0);
	assert_int_equal(check("int", "-2147483648"), 0);
	assert_int_equal(check("int", "-2147483649"), -EINVAL);
	assert_int_equal(check("int", "2147483647"), 0);
	assert_int_equal(check("int", "2147483648"), -EINVAL);
	assert_int_equal(check("int", "-0x10"), 0);
	assert_int_equal(check("int", "-+1"), -EINVAL);
	assert_int_equal(check("int", "--1"), -EINVAL);
	assert_int_equal(check("int", "-"), -EINVAL);
	assert_int_equal(check("short", "-32768"), 0);
	assert_int_equal(check("short", "32768"), -EINVAL);
	assert_int_equal(check("long", "-9223372036854775808"), 0);
	assert_int_equal(check("long", "9223372036854775808"), -EINVAL);
	assert_int_equal(check("int", NULL), -EINVAL);
}

static void test_bool(void **state)
{
	static const char *const good[] = { "y", "Y", "n", "N", "1", "0", "on", "ON",
					    "off", "Off", "true", "false", "yes",
					    "t", "enable", "disable", NULL };
	static const char *const bad[] = { "maybe", "", "2", "o", "ok", "-1",
					   "x", NULL };

	for (size_t i = 0; good[i]; i++) {
		assert_int_equal(check("bool", good[i]), 0);
		assert_int_equal(check("invbool", good[i]), 0);
	}
	for (size_t i = 0; bad[i]; i++) {
		assert_int_equal(check("bool", bad[i]), -EINVAL);
		assert_int_equal(check("invbool", bad[i]), -EINVAL);
	}
	/* A bare bool means "set" (KERNEL_PARAM_OPS_FL_NOARG); invbool's
	 * ops lack the flag, so the kernel refuses it bare. */
	assert_int_equal(check("bool", NULL), 0);
	assert_int_equal(check("bint", NULL), 0);
	assert_int_equal(check("invbool", NULL), -EINVAL);
}

static void test_strings(void **state)
{
	char big[1100];

	assert_int_equal(check("charp", "anything at all"), 0);
	assert_int_equal(check("charp", ""), 0);
	assert_int_equal(check("charp", NULL), -EINVAL);
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(check("charp", big), -EINVAL); /* > 1024: ENOSPC */
	big[1024] = '\0';
	assert_int_equal(check("charp", big), 0);
	assert_int_equal(check("string", "x"), 0);
	assert_int_equal(check("string", NULL), -EINVAL);
}

static void test_arrays(void **state)
{
	assert_int_equal(check("array of int", "1,-2,0x3"), 0);
	assert_int_equal(check("array of int", "7"), 0);
	assert_int_equal(check("array of int", "1,x"), -EINVAL);
	assert_int_equal(check("array of int", "1,"), -EINVAL); /* empty element */
	assert_int_equal(check("array of int", ""), -EINVAL);
	assert_int_equal(check("array of int", NULL), -EINVAL);
	assert_int_equal(check("array of bool", "y,n,1"), 0);
	assert_int_equal(check("array of bool", "y,maybe"), -EINVAL);
	assert_int_equal(check("array of byte", "255,256"), -EINVAL);
	assert_int_equal(check("array of charp", "a,b,"), 0);
}

static void test_untyped(void **state)
{
	/* module_param_cb without a type, or ops of the module's own:
	 * the kernel's rules are not known, so nothing is refused. */
	assert_int_equal(check("", "whatever"), 0);
	assert_int_equal(check("", NULL), 0);
	assert_int_equal(check("mytype", "x"), 0);
	assert_int_equal(check("mytype", NULL), 0);
	assert_int_equal(check("array of mytype", "a,b"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unsigned),
		cmocka_unit_test(test_signed),
		cmocka_unit_test(test_bool),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_arrays),
		cmocka_unit_test(test_untyped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
