/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for modules/blacklist.c and modules/depindex.c (pure). */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "modules/internal.h"
#include "util/strv.h"

static void test_modprobe(void **state)
{
	_cleanup_strv_free_ char **v = NULL;

	assert_int_equal(halo_blacklist_from_modprobe(
		"# blacklist commented\n"
		"blacklist mlx5-ib\n"
		"\tblacklist\tnouveau extra words\n"
		"options ice x=1\n"
		"blacklist \\\n   irdma\n"
		"blacklistx bad\n"
		"blacklist\n"
		"blacklist a]b\n"
		"blacklist mlx5_ib\n"
		"blacklist last", &v), 0);
	assert_int_equal(halo_strv_len(v), 4);
	assert_string_equal(v[0], "mlx5_ib"); /* '-' read as '_' */
	assert_string_equal(v[1], "nouveau");
	assert_string_equal(v[2], "irdma");   /* continued line */
	assert_string_equal(v[3], "last");    /* no final newline */
}

static void test_cmdline(void **state)
{
	_cleanup_strv_free_ char **v = NULL;

	assert_int_equal(halo_blacklist_from_cmdline(
		"BOOT_IMAGE=/vmlinuz ro modprobe.blacklist=ice,,nouveau quiet "
		"\"modprobe.blacklist=a b\" xmodprobe.blacklist=no modprobe.blacklist\n", &v), 0);
	assert_int_equal(halo_strv_len(v), 3);
	assert_string_equal(v[0], "ice");
	assert_string_equal(v[1], "nouveau");
	assert_string_equal(v[2], "a b");
}

/* A one-node index: "ice" -> "kernel/ice.ko: kernel/dep.ko". */
static const unsigned char idx[] = {
	0xB0, 0x07, 0xF4, 0x57, 0x00, 0x02, 0x00, 0x01,
	0xC0, 0x00, 0x00, 0x0C, /* root: prefix + values at 12 */
	'i', 'c', 'e', 0,
	0, 0, 0, 1, /* one value */
	0, 0, 0, 0, /* its priority */
	'k', 'e', 'r', 'n', 'e', 'l', '/', 'i', 'c', 'e', '.', 'k', 'o', ':', ' ',
	'k', 'e', 'r', 'n', 'e', 'l', '/', 'd', 'e', 'p', '.', 'k', 'o', 0,
};

static void test_depindex(void **state)
{
	char *v = NULL;

	assert_int_equal(halo_depindex_lookup(idx, sizeof(idx), "ice", &v), 0);
	assert_string_equal(v, "kernel/ice.ko: kernel/dep.ko");
	free(v);
	assert_int_equal(halo_depindex_lookup(idx, sizeof(idx), "ic", &v), -ENOENT);
	assert_int_equal(halo_depindex_lookup(idx, sizeof(idx), "icex", &v), -ENOENT);
	assert_int_equal(halo_depindex_lookup(idx, sizeof(idx), "mlx", &v), -ENOENT);
	/* Every truncation is malformed or absent, never read past the end. */
	for (size_t n = 0; n < sizeof(idx); n++) {
		int r = halo_depindex_lookup(idx, n, "ice", &v);

		assert_true(r == -EBADMSG || r == -ENOENT);
	}
	assert_int_equal(halo_depindex_lookup("not an index", 12, "ice", &v), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modprobe),
		cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_depindex),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
