/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-config-cidr.c: the strict address/prefix parser. */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <cmocka.h>

#include "config/cidr.h"

static void roundtrip(const char *in, bool require, const char *want)
{
	struct halo_cidr c;
	char buf[64];

	assert_int_equal(halo_cidr_parse(in, require, &c), 0);
	halo_cidr_format(&c, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void good(void **state)
{
	roundtrip("192.168.100.1/30", true, "192.168.100.1/30");
	roundtrip("0.0.0.0/0", true, "0.0.0.0/0");
	roundtrip("255.255.255.255/32", true, "255.255.255.255/32");
	roundtrip("10.0.0.1", false, "10.0.0.1/32");
	roundtrip("fe80::1/64", true, "fe80::1/64");
	roundtrip("FD00:0:0::1/128", true, "fd00::1/128");
	roundtrip("2001:db8::1", false, "2001:db8::1/128");
}

static void bad(void **state)
{
	static const char *const bad_in[] = {
		"192.168.100.1",      /* prefix required */
		"192.168.100.01/30",  /* leading zero (octal elsewhere) */
		"010.0.0.1/8",
		"10.0.0.1/33",
		"10.0.0.1/032",       /* leading zero in the prefix */
		"10.0.0.1/",
		"/24",
		"10.0.0/24",
		"10.0.0.0.0/24",
		"10.0.0.256/24",
		"10.0.0.1 /24",
		" 10.0.0.1/24",
		"10.0.0.1/24 ",
		"10.0.0.1/-1",
		"10.0.0.1/+8",
		"fe80::1/129",
		"fe80::1%eth0/64",
		"fe80:::1/64",
		"",
		"default",
		NULL,
	};
	struct halo_cidr c = { .prefixlen = 77 };

	for (size_t i = 0; bad_in[i]; i++) {
		if (halo_cidr_parse(bad_in[i], true, &c) != -EINVAL)
			fail_msg("accepted \"%s\"", bad_in[i]);
		/* ret untouched on failure */
		assert_int_equal(c.prefixlen, 77);
	}
	assert_int_equal(halo_cidr_parse("10.0.0.1/33", false, &c), -EINVAL);
	assert_int_equal(halo_cidr_parse("10.0.0.01", false, &c), -EINVAL);
}

static void same_and_network(void **state)
{
	struct halo_cidr a, b, n;
	char buf[64];

	assert_int_equal(halo_cidr_parse("192.168.100.1/30", true, &a), 0);
	assert_int_equal(halo_cidr_parse("192.168.100.1/24", true, &b), 0);
	assert_true(halo_cidr_same_addr(&a, &b));
	assert_int_equal(halo_cidr_parse("192.168.100.2/30", true, &b), 0);
	assert_false(halo_cidr_same_addr(&a, &b));
	assert_int_equal(halo_cidr_parse("::ffff:192.168.100.1/128", true, &b), 0);
	assert_false(halo_cidr_same_addr(&a, &b)); /* other family */

	halo_cidr_network(&a, &n);
	halo_cidr_format(&n, buf, sizeof(buf));
	assert_string_equal(buf, "192.168.100.0/30");
	assert_int_equal(halo_cidr_parse("10.1.2.3/13", true, &a), 0);
	halo_cidr_network(&a, &n);
	halo_cidr_format(&n, buf, sizeof(buf));
	assert_string_equal(buf, "10.0.0.0/13");
	assert_int_equal(halo_cidr_parse("2001:db8:ffff::1/33", true, &a), 0);
	halo_cidr_network(&a, &n);
	halo_cidr_format(&n, buf, sizeof(buf));
	assert_string_equal(buf, "2001:db8:8000::/33");
	assert_int_equal(halo_cidr_parse("10.1.2.3/0", true, &a), 0);
	halo_cidr_network(&a, &n);
	halo_cidr_format(&n, buf, sizeof(buf));
	assert_string_equal(buf, "0.0.0.0/0");
}

/* What halo_cidr_special() / halo_cidr_subnet_role() say about IN: a
 * word of the reason, or "" for a host address. */
static void host(const char *in, const char *want)
{
	struct halo_cidr c;
	const char *got;

	assert_int_equal(halo_cidr_parse(in, false, &c), 0);
	got = halo_cidr_special(&c);
	if (!got)
		got = halo_cidr_subnet_role(&c);
	if (!got)
		got = "";
	if (!*want ? *got != '\0' : !strstr(got, want))
		fail_msg("%s: got \"%s\", want \"%s\"", in, got, want);
}

static void host_addresses(void **state)
{
	host("192.168.1.1/24", "");
	host("192.168.1.254/24", "");
	host("192.168.1.0/24", "network address");
	host("192.168.1.255/24", "broadcast address");
	host("192.168.100.0/30", "network address");
	host("192.168.100.3/30", "broadcast address");
	/* RFC 3021: both addresses of a /31 are hosts; a /32 is one. */
	host("192.168.100.0/31", "");
	host("192.168.100.1/31", "");
	host("10.0.0.0/32", "");
	host("10.255.255.255/32", "");
	host("10.0.0.0/8", "network address");
	host("0.0.0.0/0", "unspecified");
	host("0.0.0.0", "unspecified");
	host("0.1.2.3/8", "this network");
	host("255.255.255.255/32", "limited broadcast");
	host("127.0.0.1/8", "loopback");
	host("127.1.2.3/32", "loopback");
	host("224.0.0.1/4", "multicast");
	host("239.255.255.250/32", "multicast");
	host("240.0.0.1/4", "class E");
	host("254.1.1.1/24", "class E");
	host("223.255.255.1/24", "");
	host("169.254.1.1/16", "");
	host("11.0.0.1/1", "");

	host("fd00::1/64", "");
	host("fe80::1/64", "");
	host("2001:db8::/64", "subnet-router anycast");
	host("2001:db8::/126", "subnet-router anycast");
	host("2001:db8::/127", ""); /* RFC 6164 */
	host("2001:db8::/128", "");
	host("2001:db8::ffff/64", ""); /* no broadcast in IPv6 */
	host("::/0", "unspecified");
	host("::", "unspecified");
	host("::1/128", "loopback");
	host("::1", "loopback");
	host("ff02::1/64", "multicast");
	host("ff00::", "multicast");
	host("::ffff:192.168.1.1/128", "IPv4-mapped");
	host("::ffff:0:0/96", "IPv4-mapped");
}

static void format_addr(void **state)
{
	struct halo_cidr c;
	char buf[64];

	assert_int_equal(halo_cidr_parse("192.168.100.1/30", true, &c), 0);
	halo_cidr_format_addr(&c, buf, sizeof(buf));
	assert_string_equal(buf, "192.168.100.1");
	assert_int_equal(halo_cidr_parse("FD00:0::1", false, &c), 0);
	halo_cidr_format_addr(&c, buf, sizeof(buf));
	assert_string_equal(buf, "fd00::1");
}

/* Every octet value in every place, every prefix length, every buffer
 * size: the text of inet_ntop and snprintf. */
static void format_like_libc(void **state)
{
	struct halo_cidr c = { .family = AF_INET };
	char buf[64], want[64], a[INET6_ADDRSTRLEN];

	for (unsigned v = 0; v < 256; v++)
		for (unsigned place = 0; place < 4; place++) {
			memset(c.addr, place == 3 ? 1 : 200, 4);
			c.addr[place] = (uint8_t)v;
			c.prefixlen = (uint8_t)(255 - v);
			assert_non_null(inet_ntop(AF_INET, c.addr, a, sizeof(a)));
			for (size_t len = 0; len <= 24; len++) {
				memset(buf, 'x', sizeof(buf));
				memset(want, 'x', sizeof(want));
				/* Cut short on purpose: the length is looked at. */
				assert_true(snprintf(want, len, "%s/%u", a, c.prefixlen) > 0);
				halo_cidr_format(&c, buf, len);
				assert_memory_equal(buf, want, sizeof(buf));
				assert_true(snprintf(want, len, "%s", a) > 0);
				halo_cidr_format_addr(&c, buf, len);
				assert_memory_equal(buf, want, sizeof(buf));
			}
		}
	/* No family: no address, as inet_ntop fails. */
	c.family = 0;
	c.prefixlen = 7;
	halo_cidr_format(&c, buf, sizeof(buf));
	assert_string_equal(buf, "/7");
	assert_int_equal(halo_cidr_parse("2001:db8::1/48", true, &c), 0);
	halo_cidr_format(&c, buf, 10);
	assert_string_equal(buf, "2001:db8:");
}

static void link_local(void **state)
{
	static const struct { const char *in; bool ll; } t[] = {
		{ "fe80::1/64", true }, { "FEBF:ffff::1/10", true }, { "fe80::/10", true },
		{ "fec0::1/64", false }, { "fe7f::1/64", false }, { "fd00::1/64", false },
		{ "169.254.1.1/16", false }, /* IPv4 link-local is not scoped per link in Linux */
		{ "10.0.0.1/8", false },
	};
	struct halo_cidr c;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_int_equal(halo_cidr_parse(t[i].in, true, &c), 0);
		if (halo_cidr_is_link_local(&c) != t[i].ll)
			fail_msg("%s: want %d", t[i].in, t[i].ll);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good),
		cmocka_unit_test(bad),
		cmocka_unit_test(same_and_network),
		cmocka_unit_test(host_addresses),
		cmocka_unit_test(format_addr),
		cmocka_unit_test(format_like_libc),
		cmocka_unit_test(link_local),
	};

	return cmocka_run_group_tests_name("config-cidr", tests, NULL, NULL);
}
