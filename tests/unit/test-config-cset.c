/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-config-cset.c: halo_cset_member finds the member libconfig's own
 * config_setting_get_member finds, for every name a config can hold and
 * for names with libconfig's path separators in them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <libconfig.h>

#include "config/cset.h"

static const char text[] =
	"a = 1;\n"
	"ab = 2;\n"
	"abc = { x = 1; xy = \"s\"; };\n"
	"b-c_d* = [1, 2];\n"
	"Z = (1, \"two\");\n"
	"nested = { a = { b = 1; }; };\n"
	"empty = { };\n";

/* Both lookups of NAME in G agree. */
static void same_member(const struct halo_cset *g, const char *name)
{
	const void *want = config_setting_get_member((config_setting_t *)g, name);

	assert_ptr_equal(halo_cset_member(g, name), want);
}

static void member_as_libconfig(void **state)
{
	static const char *const names[] = {
		"a", "ab", "abc", "abcd", "b-c_d*", "Z", "z", "nested", "x", "", "A",
		"a.b", "ab:", "abc/x", "nested.a", ".a", ":", "b-c_d*.x", "b", "Z/",
	};
	struct halo_ctree *t = NULL;
	struct halo_ctree_error err;
	const struct halo_cset *root, *abc, *nested, *empty;

	assert_int_equal(halo_ctree_parse(text, &t, &err), 0);
	root = halo_ctree_root(t);
	abc = halo_cset_member(root, "abc");
	nested = halo_cset_member(root, "nested");
	assert_non_null(abc);
	assert_non_null(nested);
	empty = halo_cset_member(root, "empty");
	assert_non_null(empty);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		same_member(root, names[i]);
		same_member(abc, names[i]);
		same_member(nested, names[i]);
		same_member(empty, names[i]);
		same_member(halo_cset_elem(root, 0), names[i]); /* not a group */
		same_member(halo_cset_elem(root, 3), names[i]); /* an array */
	}
	/* The lookups found something at all. */
	assert_int_equal(halo_cset_int(halo_cset_member(root, "ab")), 2);
	assert_string_equal(halo_cset_string(halo_cset_member(abc, "xy")), "s");
	assert_null(halo_cset_member(root, "abcd"));
	halo_ctree_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(member_as_libconfig),
	};

	return cmocka_run_group_tests_name("config-cset", tests, NULL, NULL);
}
