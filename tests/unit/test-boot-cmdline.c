/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: kernel command line tokenizer and merge (src/boot/cmdline.c). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "boot/cmdline.h"
#include "util/strv.h"

static char *split_join(const char *s, const char *sep)
{
	_cleanup_strv_free_ char **v = NULL;
	struct halo_buf b = { 0 };

	assert_int_equal(halo_cmdline_split(s, &v), 0);
	halo_buf_puts(&b, "");
	for (size_t i = 0; v[i]; i++)
		halo_buf_printf(&b, "%s%s", i ? sep : "", v[i]);
	return halo_buf_steal(&b);
}

#define assert_split(in, want)                                                 \
	do {                                                                   \
		char *got_ = split_join(in, "|");                              \
		assert_string_equal(got_, want);                               \
		free(got_);                                                    \
	} while (0)

static void test_split_spaces(void **state)
{
	assert_split("", "");
	assert_split("   \t\n ", "");
	assert_split("quiet", "quiet");
	assert_split("  ro   quiet\tsplash\n", "ro|quiet|splash");
	assert_split("a\r\nb", "a|b");
}

static void test_split_quotes(void **state)
{
	/* Kernel-style double quotes keep spaces inside one token, verbatim. */
	assert_split("dyndbg=\"file x.c +p\" quiet", "dyndbg=\"file x.c +p\"|quiet");
	assert_split("\"foo=a b\" c", "\"foo=a b\"|c");
	assert_split("x='a b' y", "x='a b'|y");
	/* A double quote inside single quotes does not open anything. */
	assert_split("x='a\"b' y", "x='a\"b'|y");
	/* Unterminated: runs to the end. */
	assert_split("a=\"b c", "a=\"b c");
}

static void test_split_escapes(void **state)
{
	assert_split("a\\ b c", "a\\ b|c");
	assert_split("x=\"a\\\" b\" c", "x=\"a\\\" b\"|c");
	/* In single quotes a backslash is literal and does not escape. */
	assert_split("x='a\\' b", "x='a\\'|b");
	assert_split("trailing\\", "trailing\\");
}

static void test_remove_matches(void **state)
{
	assert_true(halo_cmdline_remove_matches("quiet", "quiet"));
	assert_true(halo_cmdline_remove_matches("pci=realloc", "pci=realloc"));
	assert_false(halo_cmdline_remove_matches("pci=realloc", "pci=nocrs"));
	assert_true(halo_cmdline_remove_matches("pci", "pci=nocrs"));
}

static char *merge(const char *cur, const char *set, const char *rm)
{
	_cleanup_strv_free_ char **c = NULL, **s = NULL, **r = NULL, **out = NULL;

	assert_int_equal(halo_cmdline_split(cur, &c), 0);
	assert_int_equal(halo_cmdline_split(set, &s), 0);
	assert_int_equal(halo_cmdline_split(rm, &r), 0);
	assert_int_equal(halo_cmdline_merge(c, s, r, &out), 0);
	return halo_cmdline_join(out);
}

#define assert_merge(cur, set, rm, want)                                       \
	do {                                                                   \
		char *got_ = merge(cur, set, rm);                              \
		assert_string_equal(got_, want);                               \
		free(got_);                                                    \
	} while (0)

static void test_merge(void **state)
{
	/* Append new ones at the end, in order. */
	assert_merge("ro quiet", "iommu=pt ttm.pages_limit=32505856", "",
		     "ro quiet iommu=pt ttm.pages_limit=32505856");
	/* Replace same-key params in place. */
	assert_merge("ro iommu=soft quiet", "iommu=pt", "", "ro iommu=pt quiet");
	/* Later duplicates of a managed key go (they would win). */
	assert_merge("iommu=soft ro iommu=off", "iommu=pt", "", "iommu=pt ro");
	/* Remove by key and by exact key=value. */
	assert_merge("ro quiet splash pci=nocrs", "", "quiet pci=realloc",
		     "ro splash pci=nocrs");
	assert_merge("ro pci=realloc", "", "pci=realloc", "ro");
	/* A repeated key in SET is one group. */
	assert_merge("console=tty0 ro", "console=tty0 console=ttyS0,115200", "",
		     "console=tty0 console=ttyS0,115200 ro");
	/* Quoted tokens stay intact. */
	assert_merge("dyndbg=\"a b\" ro", "iommu=pt", "ro",
		     "dyndbg=\"a b\" iommu=pt");
	/* Idempotent. */
	assert_merge("ro iommu=pt quiet", "iommu=pt", "splash", "ro iommu=pt quiet");
	assert_merge("", "", "", "");
}

static void test_satisfies(void **state)
{
	_cleanup_strv_free_ char **t = NULL, **set = NULL, **rm = NULL;

	assert_int_equal(halo_cmdline_split("ro iommu=pt console=a console=b", &t), 0);
	assert_int_equal(halo_cmdline_split("iommu=pt console=a console=b", &set), 0);
	assert_int_equal(halo_cmdline_split("quiet", &rm), 0);
	assert_true(halo_cmdline_satisfies(t, set, rm));
	assert_true(halo_cmdline_has_group(t, set, "console"));
	halo_strv_free(rm);
	assert_int_equal(halo_cmdline_split("ro", &rm), 0);
	assert_false(halo_cmdline_satisfies(t, set, rm));
	halo_strv_free(set);
	assert_int_equal(halo_cmdline_split("iommu=pt console=b", &set), 0);
	assert_false(halo_cmdline_has_group(t, set, "console"));
	assert_true(halo_cmdline_has_group(t, set, "iommu"));
}

static void test_size(void **state)
{
	_cleanup_strv_free_ char **t = NULL;

	assert_int_equal(halo_cmdline_size(NULL), 1);
	assert_int_equal(halo_cmdline_split("", &t), 0);
	assert_int_equal(halo_cmdline_size(t), 1);
	halo_strv_free(t);
	/* "ro quiet" and its NUL. */
	assert_int_equal(halo_cmdline_split("  ro\tquiet ", &t), 0);
	assert_int_equal(halo_cmdline_size(t), 9);
	halo_strv_free(t);
	assert_int_equal(halo_cmdline_split("dyndbg=\"a b\" x", &t), 0);
	assert_int_equal(halo_cmdline_size(t), strlen("dyndbg=\"a b\" x") + 1);
	/* The documented limits (cmdline.h). */
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
	assert_int_equal(HALO_CMDLINE_SIZE, 2048);
#endif
}

static void test_grub_var(void **state)
{
	assert_true(halo_cmdline_has_grub_var("$tuned_params"));
	assert_true(halo_cmdline_has_grub_var("$kernelopts"));
	assert_true(halo_cmdline_has_grub_var("${tuned_params}"));
	assert_true(halo_cmdline_has_grub_var("\"$x\""));
	assert_true(halo_cmdline_has_grub_var("root=$root"));
	assert_false(halo_cmdline_has_grub_var("root=UUID=1234"));
	assert_false(halo_cmdline_has_grub_var("quiet"));
	/* Not an expansion: a lone '$', single quotes, a backslash. */
	assert_false(halo_cmdline_has_grub_var("a=$"));
	assert_false(halo_cmdline_has_grub_var("a=$ b"));
	assert_false(halo_cmdline_has_grub_var("'$x'"));
	assert_false(halo_cmdline_has_grub_var("a=\\$x"));
	assert_true(halo_cmdline_has_grub_var("'a'$x"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_spaces),
		cmocka_unit_test(test_split_quotes),
		cmocka_unit_test(test_split_escapes),
		cmocka_unit_test(test_remove_matches),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_satisfies),
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_grub_var),
	};

	return cmocka_run_group_tests_name("boot-cmdline", tests, NULL, NULL);
}
