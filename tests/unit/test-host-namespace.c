/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/host/namespace.c: which --netns names are valid. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "host/host.h"

/* A plain file name under /run/netns: no path, nothing empty. */
static void netns_names(void **state)
{
	assert_true(halo_netns_name_valid("node1"));
	assert_true(halo_netns_name_valid("halo-x-1.2"));
	assert_false(halo_netns_name_valid(""));
	assert_false(halo_netns_name_valid(NULL));
	assert_false(halo_netns_name_valid("."));
	assert_false(halo_netns_name_valid(".."));
	assert_false(halo_netns_name_valid("../x"));
	assert_false(halo_netns_name_valid("a/b"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(netns_names),
	};

	return cmocka_run_group_tests_name("host-namespace", tests, NULL, NULL);
}
