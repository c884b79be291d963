/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-config-device-spec.c: a device named by tag or path
 * (src/config/device-spec.c), storage[].what typed once at load. */
#include <errno.h>

#include "config-test.h"
#include "config/device-spec.h"

static void tag_of(void **state)
{
	const char *v;

	assert_int_equal(halo_device_tag_of("LABEL=models", &v), HALO_DEVICE_LABEL);
	assert_string_equal(v, "models");
	assert_int_equal(halo_device_tag_of("UUID=3f2a-11", &v), HALO_DEVICE_UUID);
	assert_string_equal(v, "3f2a-11");
	assert_int_equal(halo_device_tag_of("PARTLABEL=m=1", &v), HALO_DEVICE_PARTLABEL);
	assert_string_equal(v, "m=1"); /* only the first "=" */
	assert_int_equal(halo_device_tag_of("PARTUUID=", &v), HALO_DEVICE_PARTUUID);
	assert_string_equal(v, "");
	/* Exact names, any other text is a path. */
	assert_int_equal(halo_device_tag_of("label=models", &v), HALO_DEVICE_PATH);
	assert_int_equal(halo_device_tag_of("LABEL", &v), HALO_DEVICE_PATH);
	assert_int_equal(halo_device_tag_of("/dev/sdb1", &v), HALO_DEVICE_PATH);
	assert_string_equal(v, "/dev/sdb1");
	assert_string_equal(halo_device_tag_name(HALO_DEVICE_PARTUUID), "PARTUUID");
	assert_null(halo_device_tag_name(HALO_DEVICE_PATH));
}

static const char *why_refused(const char *text)
{
	struct halo_device_spec s = { 0 };
	const char *why = NULL;

	assert_int_equal(halo_device_spec_parse(text, 1, &s, &why), -EINVAL);
	assert_null(s.text);
	assert_non_null(why);
	return why;
}

static void parse(void **state)
{
	struct halo_device_spec s = { 0 };
	const char *why = NULL;

	assert_int_equal(halo_device_spec_parse("PARTUUID=0a1b-02", 9, &s, &why), 0);
	assert_int_equal(s.tag, HALO_DEVICE_PARTUUID);
	assert_string_equal(s.value, "0a1b-02");
	assert_string_equal(s.text, "PARTUUID=0a1b-02");
	assert_int_equal(s.line, 9);
	halo_device_spec_clear(&s);
	assert_int_equal(halo_device_spec_parse("/dev/disk/by-id/nvme-x", 1, &s, &why), 0);
	assert_int_equal(s.tag, HALO_DEVICE_PATH);
	assert_string_equal(s.value, "/dev/disk/by-id/nvme-x");
	halo_device_spec_clear(&s);

	assert_string_equal(why_refused("models"),
			    "is not LABEL=, UUID=, PARTUUID=, PARTLABEL= or a /dev/ path");
	assert_string_equal(why_refused("LABEL="), "has an empty or unusable value "
			    "(no whitespace, quotes or control characters)");
	assert_non_null(why_refused("LABEL=a b"));
	assert_non_null(why_refused("UUID=\"x\""));
	assert_non_null(why_refused("/dev/../etc/passwd"));
	assert_string_equal(why_refused("/dev/sd b"),
			    "is not a usable device path (whitespace or a trailing backslash)");
	assert_non_null(why_refused("/dev/sdb\\"));
	assert_non_null(why_refused("/tmp/image"));
}

static void storage_what_typed(void **state)
{
	struct halo_config *c;

	assert_config_ok("storage = ( { what = \"UUID=3f2a\"; where = \"/models\"; },\n"
			 "  { what = \"/dev/nvme1n1p1\"; where = \"/data\"; } );\n", &c);
	assert_int_equal(c->storage[0].what.tag, HALO_DEVICE_UUID);
	assert_string_equal(c->storage[0].what.value, "3f2a");
	assert_int_equal(c->storage[0].what.line, 1);
	assert_int_equal(c->storage[1].what.tag, HALO_DEVICE_PATH);
	assert_string_equal(c->storage[1].what.value, "/dev/nvme1n1p1");
	assert_string_equal(c->storage[1].what.text, "/dev/nvme1n1p1");
	assert_int_equal(c->storage[1].what.line, 2);
	halo_config_free(c);
}

static void storage_what_refused(void **state)
{
	assert_config_errors("storage = (\n  { what = \"LABEL=\"; where = \"/m\"; }\n);\n",
			     "halo.conf:2: storage[0].what: \"LABEL=\" has an empty or unusable "
			     "value (no whitespace, quotes or control characters)");
	assert_config_errors("storage = ( { what = \"label=m\"; where = \"/m\"; } );\n",
			     "halo.conf:1: storage[0].what: \"label=m\" is not LABEL=, UUID=, "
			     "PARTUUID=, PARTLABEL= or a /dev/ path");
	assert_config_errors("storage = ( { where = \"/m\"; } );\n",
			     "halo.conf:1: storage[0]: \"what\" is required");
	assert_config_errors("storage = ( { what = 7; where = \"/m\"; } );\n",
			     "halo.conf:1: storage[0].what: expected a string, got an integer");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tag_of),
		cmocka_unit_test(parse),
		cmocka_unit_test(storage_what_typed),
		cmocka_unit_test(storage_what_refused),
	};

	return cmocka_run_group_tests_name("config-device-spec", tests, NULL, NULL);
}
