/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-config-kernel-version.c: kernel release numbers and their order
 * (src/config/kernel-version.c), and ready.kernel_min read through them. */
#include <errno.h>

#include "config-test.h"
#include "config/kernel-version.h"

static void parse_and_order(void **state)
{
	unsigned v[3], min[3] = { 6, 18, 4 };
	const char *end;

	assert_int_equal(halo_kernel_version_parse("6.18.5-200.fc43.x86_64", v, &end), 0);
	assert_int_equal(v[0], 6);
	assert_int_equal(v[1], 18);
	assert_int_equal(v[2], 5);
	assert_string_equal(end, "-200.fc43.x86_64");
	assert_true(halo_kernel_version_cmp(v, min) > 0);
	assert_int_equal(halo_kernel_version_parse("6.18", v, &end), 0);
	assert_int_equal(v[2], 0);
	assert_true(halo_kernel_version_cmp(v, min) < 0);
	/* 6.9 is older than 6.18: numbers, not strings */
	assert_int_equal(halo_kernel_version_parse("6.9.12", v, NULL), 0);
	assert_true(halo_kernel_version_cmp(v, min) < 0);
	assert_int_equal(halo_kernel_version_parse("6.18.4", v, &end), 0);
	assert_int_equal(halo_kernel_version_cmp(v, min), 0);
	assert_string_equal(end, "");
	/* A fourth number is not read: it is left for the caller to see. */
	assert_int_equal(halo_kernel_version_parse("6.18.4.1", v, &end), 0);
	assert_string_equal(end, ".1");
}

static void parse_refused(void **state)
{
	unsigned v[3] = { 7, 7, 7 };

	assert_int_equal(halo_kernel_version_parse("6", v, NULL), -EINVAL);
	assert_int_equal(halo_kernel_version_parse("", v, NULL), -EINVAL);
	assert_int_equal(halo_kernel_version_parse("v6.18", v, NULL), -EINVAL);
	assert_int_equal(halo_kernel_version_parse("6.", v, NULL), -EINVAL);
	assert_int_equal(halo_kernel_version_parse(".18", v, NULL), -EINVAL);
	assert_int_equal(halo_kernel_version_parse("6.99999999.1", v, NULL), -EINVAL);
	/* Nothing written on failure. */
	assert_int_equal(v[0], 7);
	assert_int_equal(v[2], 7);
}

static void kernel_min_typed(void **state)
{
	struct halo_config *c;

	assert_config_ok("ready = { kernel_min = \"6.12\"; };\n", &c);
	assert_int_equal(c->ready.kernel_min[0], 6);
	assert_int_equal(c->ready.kernel_min[1], 12);
	assert_int_equal(c->ready.kernel_min[2], 0);
	halo_config_free(c);
	/* The default when the key is absent. */
	assert_config_ok("ready = { uma_max_mib = 512; };\n", &c);
	assert_int_equal(c->ready.kernel_min[0], 6);
	assert_int_equal(c->ready.kernel_min[1], 18);
	assert_int_equal(c->ready.kernel_min[2], 4);
	halo_config_free(c);
}

static void kernel_min_refused(void **state)
{
	assert_config_errors("ready = {\n  kernel_min = \"six\";\n};\n",
			     "halo.conf:2: ready.kernel_min: \"six\" is not a kernel version (\"6.18.4\")");
	assert_config_errors("ready = { kernel_min = \"6\"; };\n",
			     "halo.conf:1: ready.kernel_min: \"6\" is not a kernel version (\"6.18.4\")");
	/* A release string is not a minimum: what would -rc1 compare as? */
	assert_config_errors("ready = { kernel_min = \"6.18.4-rc1\"; };\n",
			     "halo.conf:1: ready.kernel_min: \"6.18.4-rc1\" is not a kernel version (\"6.18.4\")");
	assert_config_errors("ready = { kernel_min = \"6.18.4.1\"; };\n",
			     "halo.conf:1: ready.kernel_min: \"6.18.4.1\" is not a kernel version (\"6.18.4\")");
	assert_config_errors("ready = { kernel_min = 6; };\n",
			     "halo.conf:1: ready.kernel_min: expected a string, got an integer");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_and_order),
		cmocka_unit_test(parse_refused),
		cmocka_unit_test(kernel_min_typed),
		cmocka_unit_test(kernel_min_refused),
	};

	return cmocka_run_group_tests_name("config-kernel-version", tests, NULL, NULL);
}
