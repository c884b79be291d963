/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-config-hwaddr.c: MAC address parsing and formatting. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "config/hwaddr.h"

static void roundtrip(void **state)
{
	static const char *const in[][2] = {
		{ "aa:bb:cc:dd:ee:ff", "aa:bb:cc:dd:ee:ff" },
		{ "0C:42:A1:00:00:01", "0c:42:a1:00:00:01" },
		{ "02:00:00:00:00:00", "02:00:00:00:00:00" },
		{ "fE:Ff:00:11:22:33", "fe:ff:00:11:22:33" },
	};
	struct halo_mac m;
	char buf[HALO_MAC_STRLEN];

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		assert_int_equal(halo_mac_parse(in[i][0], &m), 0);
		halo_mac_format(&m, buf, sizeof(buf));
		assert_string_equal(buf, in[i][1]);
	}
	assert_int_equal(halo_mac_parse("0c:42:a1:00:00:01", &m), 0);
	assert_int_equal(m.b[0], 0x0c);
	assert_int_equal(m.b[2], 0xa1);
	assert_int_equal(m.b[5], 0x01);
}

static void bad(void **state)
{
	static const char *const in[] = {
		"", "aa:bb:cc:dd:ee", "aa:bb:cc:dd:ee:ff:", "aa:bb:cc:dd:ee:ff:00",
		"aa-bb-cc-dd-ee-ff", "aabb.ccdd.eeff", "a:b:c:d:e:f", "aa:bb:cc:dd:ee:f",
		"aa:bb:cc:dd:ee:fff", "aa:bb:cc:dd:ee:gg", " aa:bb:cc:dd:ee:ff",
		"aa:bb:cc:dd:ee:ff ", "aa::bb:cc:dd:ee:ff", "+a:bb:cc:dd:ee:ff",
		/* IPoIB's 20 bytes are not a MAC */
		"80:00:00:48:fe:80:00:00:00:00:00:00:0c:42:a1:03:00:00:00:01",
		NULL,
	};
	struct halo_mac m = { .b = { 7, 7, 7, 7, 7, 7 } };

	for (size_t i = 0; in[i]; i++) {
		if (halo_mac_parse(in[i], &m) != -EINVAL)
			fail_msg("accepted \"%s\"", in[i]);
		assert_int_equal(m.b[0], 7); /* untouched on failure */
	}
}

static void predicates(void **state)
{
	struct halo_mac a, b;
	static const uint8_t bytes[20] = { 0x0c, 0x42, 0xa1, 0, 0, 1 };

	assert_int_equal(halo_mac_parse("0c:42:a1:00:00:01", &a), 0);
	assert_int_equal(halo_mac_parse("0C:42:A1:00:00:01", &b), 0);
	assert_true(halo_mac_equal(&a, &b));
	assert_false(halo_mac_is_multicast(&a));
	assert_false(halo_mac_is_zero(&a));
	assert_true(halo_mac_equal_bytes(&a, bytes, 6));
	assert_false(halo_mac_equal_bytes(&a, bytes, 20));
	assert_false(halo_mac_equal_bytes(&a, bytes, 5));
	assert_int_equal(halo_mac_parse("0c:42:a1:00:00:02", &b), 0);
	assert_false(halo_mac_equal(&a, &b));
	assert_int_equal(halo_mac_parse("01:00:5e:00:00:01", &b), 0);
	assert_true(halo_mac_is_multicast(&b));
	assert_int_equal(halo_mac_parse("ff:ff:ff:ff:ff:ff", &b), 0);
	assert_true(halo_mac_is_multicast(&b));
	assert_int_equal(halo_mac_parse("00:00:00:00:00:00", &b), 0);
	assert_true(halo_mac_is_zero(&b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(roundtrip),
		cmocka_unit_test(bad),
		cmocka_unit_test(predicates),
	};

	return cmocka_run_group_tests_name("config-hwaddr", tests, NULL, NULL);
}
