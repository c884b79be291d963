/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-config-pci.c: PCI address parsing and formatting, and that the
 * parser takes exactly what the config's syntax check takes. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "config/check.h"
#include "config/pci.h"

static void roundtrip(void **state)
{
	static const char *const in[][2] = {
		{ "0000:c2:00.0", "0000:c2:00.0" },
		{ "0000:C2:00.1", "0000:c2:00.1" },
		{ "abcd:ff:1f.7", "abcd:ff:1f.7" },
		{ "0001:00:02.3", "0001:00:02.3" },
	};
	struct halo_pci_addr a;
	char buf[HALO_PCI_STRLEN];

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		assert_int_equal(halo_pci_parse(in[i][0], &a), 0);
		halo_pci_format(&a, buf, sizeof(buf));
		assert_string_equal(buf, in[i][1]);
	}
	assert_int_equal(halo_pci_parse("0001:c2:1e.5", &a), 0);
	assert_int_equal(a.domain, 1);
	assert_int_equal(a.bus, 0xc2);
	assert_int_equal(a.device, 0x1e);
	assert_int_equal(a.function, 5);
}

static void format_wide_domain(void **state)
{
	struct halo_pci_addr a = { .domain = 0x10000, .bus = 0xe1, .device = 0, .function = 0 };
	char buf[32];

	halo_pci_format(&a, buf, sizeof(buf));
	assert_string_equal(buf, "10000:e1:00.0");
}

/* Byte for byte what snprintf makes of the format, at every buffer size:
 * wide domains, a function or device the parser would refuse. */
static void format_as_snprintf(void **state)
{
	static const struct halo_pci_addr in[] = {
		{ 0, 0, 0, 0 },
		{ 0xffff, 0xff, 0x1f, 7 },
		{ 0x10000, 0xe1, 0, 0 },
		{ 0xffffffff, 0x01, 0xff, 0xff },
		{ 0x1234, 0x5a, 0x0b, 0x10 },
		{ 0xabc, 0x0, 0x3, 0x9 },
	};

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		char want[40], got[40], ref[40];

		snprintf(want, sizeof(want), "%04x:%02x:%02x.%x", in[i].domain, in[i].bus,
			 in[i].device, in[i].function);
		for (size_t len = 0; len <= strlen(want) + 2; len++) {
			memset(got, 'X', sizeof(got));
			memset(ref, 'X', sizeof(ref));
			snprintf(ref, len, "%s", want);
			halo_pci_format(&in[i], got, len);
			assert_memory_equal(got, ref, sizeof(got));
		}
	}
}

static const char *const bad_in[] = {
	"", "c2:00.0", "00:c2:00.0", "0000:c2:00", "0000:c2:00.", "0000:c2:20.0",
	"0000:c2:00.8", "0000:c2:0.0", "0000:c2:000.0", "00000:c2:00.0", "0000-c2-00.0",
	"0000:c2:00.0 ", " 0000:c2:00.0", "0000:g2:00.0", "0000:c2:00:0", "0000:c2.00.0",
	"+000:c2:00.0", "0000:c2:00.00", NULL,
};

static void bad(void **state)
{
	struct halo_pci_addr a = { .domain = 77 };

	for (size_t i = 0; bad_in[i]; i++) {
		if (halo_pci_parse(bad_in[i], &a) != -EINVAL)
			fail_msg("accepted \"%s\"", bad_in[i]);
		assert_int_equal(a.domain, 77); /* untouched on failure */
	}
}

/* The typed field is filled only after the syntax check passed: both must
 * agree on every input, or a config would load with a zeroed address. */
static void agrees_with_check(void **state)
{
	static const char *const good_in[] = {
		"0000:c2:00.0", "FFFF:FF:1F.7", "0000:00:00.0", "1234:5a:0b.6", NULL,
	};
	struct halo_pci_addr a;

	for (size_t i = 0; bad_in[i]; i++)
		assert_non_null(halo_check_pci(bad_in[i]));
	for (size_t i = 0; good_in[i]; i++) {
		assert_null(halo_check_pci(good_in[i]));
		assert_int_equal(halo_pci_parse(good_in[i], &a), 0);
	}
}

static void equal(void **state)
{
	struct halo_pci_addr a, b;

	assert_int_equal(halo_pci_parse("0000:c2:00.0", &a), 0);
	assert_int_equal(halo_pci_parse("0000:C2:00.0", &b), 0);
	assert_true(halo_pci_equal(&a, &b));
	assert_int_equal(halo_pci_parse("0000:c2:00.1", &b), 0);
	assert_false(halo_pci_equal(&a, &b));
	assert_int_equal(halo_pci_parse("0001:c2:00.0", &b), 0);
	assert_false(halo_pci_equal(&a, &b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(roundtrip),
		cmocka_unit_test(format_wide_domain),
		cmocka_unit_test(format_as_snprintf),
		cmocka_unit_test(bad),
		cmocka_unit_test(agrees_with_check),
		cmocka_unit_test(equal),
	};

	return cmocka_run_group_tests_name("config-pci", tests, NULL, NULL);
}
