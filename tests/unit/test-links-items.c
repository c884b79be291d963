/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the pure helpers of src/links/items*.c (the items themselves
 * run against the kernel in tests/integration/links-*.sh). */
#include "config.h"

#include <arpa/inet.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>

#include "links/items.h"

static struct halo_cidr cidr(const char *s)
{
	struct halo_cidr c;

	assert_int_equal(halo_cidr_parse(s, false, &c), 0);
	return c;
}

static void link_local(void **state)
{
	struct halo_cidr a = cidr("fe80::1/64"), b = cidr("febf::1/64"),
			 c = cidr("fec0::1/64"), d = cidr("2001:db8::1/64"),
			 e = cidr("169.254.1.1/16");

	assert_true(halo_cidr_is_link_local(&a));
	assert_true(halo_cidr_is_link_local(&b));  /* fe80::/10 */
	assert_false(halo_cidr_is_link_local(&c));
	assert_false(halo_cidr_is_link_local(&d));
	assert_false(halo_cidr_is_link_local(&e)); /* only IPv6 is spared */
}

static void route_dst(void **state)
{
	struct halo_cidr def = { .family = AF_INET6 };
	struct halo_cidr net = cidr("10.0.2.0/24");
	char buf[64];

	halo_route_dst_format(&def, buf, sizeof(buf));
	assert_string_equal(buf, "default");
	halo_route_dst_format(&net, buf, sizeof(buf));
	assert_string_equal(buf, "10.0.2.0/24");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(link_local),
		cmocka_unit_test(route_dst),
	};

	return cmocka_run_group_tests_name("links-items", tests, NULL, NULL);
}
