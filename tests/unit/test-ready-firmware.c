/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for src/ready/firmware.c: ice's NVM version as devlink's
 * fw.psid.api prints it ("%x.%02x" of the NVM major and minor, hex) and
 * its order against the E810 minimum, 4.91.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ready/ready.h"

static unsigned nvm(const char *s)
{
	unsigned v = 0xdeadbeef;

	assert_int_equal(halo_nvm_version_parse(s, &v), 0);
	return v;
}

static void nvm_parse(void **state)
{
	unsigned v = 7;

	(void)state;
	assert_int_equal(nvm("4.91"), 0x491);
	assert_int_equal(nvm("4.80"), 0x480);
	assert_int_equal(nvm("0.80"), 0x080);      /* ice.rst's example */
	assert_int_equal(nvm("4.a0"), 0x4a0);      /* %x: hex digits */
	assert_int_equal(nvm("4.05"), 0x405);
	assert_int_equal(nvm("1234.ff"), 0x1234ff);
	assert_int_equal(nvm(HALO_E810_NVM_MIN), 0x491);

	/* Not what ice prints: the minor is always two digits, no text
	 * around, no sign, no upper case. */
	static const char *const bad[] = {
		"", "4", "4.", ".91", "4.9", "4.910", "4.91 ", " 4.91", "4.91.0", "+4.91",
		"4.9g", "4.A0", "12345.00", "4,91", "4.91 0x8001f1a3 1.3534.0",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(halo_nvm_version_parse(bad[i], &v), -EINVAL);
	assert_int_equal(v, 7); /* untouched */
}

static void nvm_order(void **state)
{
	unsigned min = nvm(HALO_E810_NVM_MIN);

	(void)state;
	assert_true(nvm("4.80") < min);
	assert_true(nvm("4.90") < min);
	assert_true(nvm("3.ff") < min);   /* the major decides first */
	assert_true(nvm("4.91") >= min);
	assert_true(nvm("4.a0") > min);   /* above 4.99 in hex order too */
	assert_true(nvm("5.00") > min);
	assert_true(nvm("10.00") > nvm("9.99"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nvm_parse),
		cmocka_unit_test(nvm_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
