/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: commands shown for pasting (src/boot/shellquote.c). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "boot/shellquote.h"
#include "util/strv.h"

#define assert_join(want, ...)                                                 \
	do {                                                                   \
		char *const argv_[] = { __VA_ARGS__, NULL };                   \
		char *got_ = halo_shell_join(argv_);                           \
		assert_non_null(got_);                                         \
		assert_string_equal(got_, want);                               \
		free(got_);                                                    \
	} while (0)

static void test_plain_words(void **state)
{
	assert_join("update-grub", "update-grub");
	assert_join("grub2-mkconfig -o /boot/grub2/grub.cfg", "grub2-mkconfig", "-o",
		    "/boot/grub2/grub.cfg");
	assert_join("grubby --update-kernel=ALL --args=iommu=pt", "grubby",
		    "--update-kernel=ALL", "--args=iommu=pt");
	assert_join("x a,b:c+d@e%f_g.h", "x", "a,b:c+d@e%f_g.h");
}

static void test_quoted(void **state)
{
	/* The bug: one argument with spaces became two when pasted. */
	assert_join("grubby --update-kernel=ALL '--args=iommu=pt pci=realloc'", "grubby",
		    "--update-kernel=ALL", "--args=iommu=pt pci=realloc");
	assert_join("x ''", "x", "");
	assert_join("x 'a\"b'", "x", "a\"b");
	assert_join("x 'it'\\''s'", "x", "it's");
	assert_join("x '$HOME' '`id`' '*' 'a;b' 'a|b' 'a&b' '~' '!x' 'a\\b'", "x", "$HOME",
		    "`id`", "*", "a;b", "a|b", "a&b", "~", "!x", "a\\b");
	assert_join("x 'a\nb' '\t'", "x", "a\nb", "\t");
	/* An '=' in the command name would make it an assignment. */
	assert_join("'a=b' c=d", "a=b", "c=d");
}

static void test_empty_argv(void **state)
{
	char *got = halo_shell_join(NULL);

	assert_string_equal(got, "");
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_words),
		cmocka_unit_test(test_quoted),
		cmocka_unit_test(test_empty_argv),
	};

	return cmocka_run_group_tests_name("boot-shellquote", tests, NULL, NULL);
}
