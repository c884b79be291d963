/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of util/template.c over the real embedded templates/. */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/plan.h"
#include "util/template.h"

static void test_substitution(void **state)
{
	char *out = NULL;

	assert_int_equal(halo_template_render("modules-load.conf",
					      (const char *const[]){ "MODULES", "ice\nirdma", NULL },
					      &out), 0);
	assert_string_equal(out, HALO_MANAGED_HEADER
			    "# Kernel modules loaded at boot (systemd-modules-load).\n"
			    "ice\nirdma\n");
	free(out);
}

static void test_errors(void **state)
{
	char *out = (char *)1;

	assert_int_equal(halo_template_render("no-such-template", NULL, &out), -ENOENT);
	/* A placeholder without a value is an error, never an empty string. */
	assert_int_equal(halo_template_render("modules-load.conf",
					      (const char *const[]){ "OTHER", "x", NULL }, &out),
			 -EINVAL);
	assert_ptr_equal(out, (char *)1);
}

/* Every template is an owned file: it carries the managed header where
 * --revert looks for it (an XML file's comes after its declaration). */
static void test_every_template_is_marked(void **state)
{
	size_t n = 0;

	for (const struct halo_template *t = halo_templates; t->name; t++, n++) {
		if (!halo_is_managed(t->text, strlen(t->text)))
			fail_msg("template %s has no managed header", t->name);
	}
	assert_true(n >= 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_substitution),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_every_template_is_marked),
	};
	return cmocka_run_group_tests_name("util-template", tests, NULL, NULL);
}
