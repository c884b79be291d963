/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-ansible-config.c: Ansible's config_data (a JSON object) goes through
 * the config file's own schema walk: loose values ("9000", "yes", ""),
 * the file's messages with the JSON path for the line, and every input
 * JSON can hold that a config file cannot. */
#include <json-c/json.h>
#include "config-test.h"

/* Loads JSON as config_data; returns the errors joined by '\n'. */
static char *data_errors(const char *json, struct halo_config **ret)
{
	struct json_object *o = json_tokener_parse(json);
	struct halo_errors errs = { 0 };
	struct halo_config *c = NULL;
	int r;

	assert_non_null(o);
	r = halo_config_load_json("config_data", o, &c, &errs);
	json_object_put(o);
	return joined_load_errors(r, &errs, c, ret);
}

#define assert_data_errors(json, want)                                         \
	do {                                                                   \
		char *got_ = data_errors(json, NULL);                          \
		assert_non_null(got_);                                         \
		assert_string_equal(got_, want);                               \
		free(got_);                                                    \
	} while (0)

static struct halo_config *data_ok(const char *json)
{
	struct halo_config *c = NULL;
	char *got = data_errors(json, &c);

	assert_non_null(got);
	assert_string_equal(got, "");
	free(got);
	assert_non_null(c);
	return c;
}

/* The message of a config file's error without its "FILE:LINE: ". */
static char *file_message(const char *text)
{
	char *all = load_errors(text, NULL), *colon, *msg;

	assert_non_null(all);
	colon = strchr(all, ':');
	assert_non_null(colon);
	colon = strchr(colon + 1, ':');
	assert_non_null(colon);
	msg = strdup(colon + 2);
	free(all);
	return msg;
}

static void integer_as_number_or_string(void **state)
{
	struct halo_config *a = data_ok("{\"interfaces\": [{\"name\": \"rdma0\", \"mtu\": 9000,"
					" \"roce\": {\"tos\": 106, \"pfc\": [3], \"dscp_prio\": [[26, 3]]}}]}");
	struct halo_config *b = data_ok("{\"interfaces\": [{\"name\": \"rdma0\", \"mtu\": \"9000\","
					" \"roce\": {\"tos\": \"106\", \"pfc\": [\"3\"], \"dscp_prio\": [[\"26\", 3]]}}]}");

	(void)state;
	assert_int_equal(a->interfaces[0].mtu, 9000);
	assert_int_equal(b->interfaces[0].mtu, 9000);
	assert_int_equal(a->interfaces[0].roce.tos, 106);
	assert_int_equal(b->interfaces[0].roce.tos, 106);
	halo_config_free(a);
	halo_config_free(b);
}

static void booleans(void **state)
{
	static const char *const yes[] = { "true", "\"yes\"", "\"True\"", "\"true\"", "\"YES\"" };
	static const char *const no[] = { "false", "\"no\"", "\"False\"", "\"NO\"" };
	char json[256];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(yes) + ARRAY_SIZE(no); i++) {
		bool want = i < ARRAY_SIZE(yes);
		struct halo_config *c;

		snprintf(json, sizeof(json),
			 "{\"interfaces\": [{\"name\": \"a\", \"exclusive_addresses\": %s}]}",
			 want ? yes[i] : no[i - ARRAY_SIZE(yes)]);
		c = data_ok(json);
		assert_int_equal(c->interfaces[0].exclusive_addresses, want);
		halo_config_free(c);
	}
	assert_data_errors("{\"interfaces\": [{\"name\": \"a\", \"exclusive_addresses\": \"maybe\"}]}",
			   "config_data: interfaces[0].exclusive_addresses: expected a boolean, "
			   "got the string \"maybe\"");
	assert_data_errors("{\"interfaces\": [{\"name\": \"a\", \"exclusive_addresses\": 1}]}",
			   "config_data: interfaces[0].exclusive_addresses: expected a boolean, "
			   "got an integer");
}

static void empty_is_unset(void **state)
{
	struct halo_config *c = data_ok("{\"version\": \"\", \"boot\": {\"gtt_mib\": \"\", \"iommu\": null},"
					" \"interfaces\": [{\"name\": \"a\", \"mtu\": \"\"}]}");

	(void)state;
	assert_true(c->boot.present);
	assert_false(c->boot.gtt_set);
	assert_int_equal(c->interfaces[0].mtu, 0);
	halo_config_free(c);
}

/* Keys that take a keyword or a number take the number as a string. */
static void keyword_or_number(void **state)
{
	struct halo_config *c = data_ok("{\"boot\": {\"gtt_mib\": \"126976\"},"
					" \"access\": {\"memlock\": \"65536\"}}");
	struct halo_config *d = data_ok("{\"boot\": {\"gtt_mib\": \"auto\"},"
					" \"access\": {\"memlock\": \"unlimited\"}}");

	(void)state;
	assert_true(c->boot.gtt_set && !c->boot.gtt_auto);
	assert_int_equal(c->boot.gtt_mib, 126976);
	assert_int_equal(c->access.memlock_kib, 65536);
	assert_true(d->boot.gtt_auto);
	assert_true(d->access.memlock_unlimited);
	halo_config_free(c);
	halo_config_free(d);
	assert_data_errors("{\"boot\": {\"gtt_mib\": \"12k\"}}",
			   "config_data: boot.gtt_mib: \"12k\" is neither an integer (MiB) nor \"auto\"");
}

/* Every message is the config file's, with the path for the line. */
static void same_messages_as_the_file(void **state)
{
	static const struct {
		const char *json, *text, *path;
	} cases[] = {
		{ "{\"interfaces\": [{\"name\": \"a\", \"mtu\": 70000}]}",
		  "interfaces = ( { name = \"a\"; mtu = 70000; } );", NULL },
		{ "{\"interfaces\": [{\"name\": \"a\", \"mtu\": \"70000\"}]}",
		  "interfaces = ( { name = \"a\"; mtu = 70000; } );", NULL },
		{ "{\"boot\": {\"loader\": \"grubb\"}}", "boot = { loader = \"grubb\"; };", NULL },
		{ "{\"interfacs\": []}", "interfacs = ();", NULL },
		{ "{\"version\": 2}", "version = 2;", NULL },
		{ "{\"interfaces\": [{\"name\": \"a\", \"mtu\": 9000.0}]}",
		  "interfaces = ( { name = \"a\"; mtu = 9000.0; } );", NULL },
		{ "{\"interfaces\": [{\"mtu\": 9000}]}", "interfaces = ( { mtu = 9000; } );",
		  "interfaces[0]" },
		{ "{\"interfaces\": [{\"name\": \"a\", \"roce\": {\"tos\": 106, \"pfc\": [4]}}]}",
		  "interfaces = ( { name = \"a\"; roce = { tos = 106; pfc = [ 4 ]; }; } );",
		  "interfaces[0].roce.tos" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		_cleanup_free_ char *msg = file_message(cases[i].text);
		_cleanup_free_ char *want = NULL;
		char *got = data_errors(cases[i].json, NULL);

		/* A message that does not start with its key gets the path. */
		if (cases[i].path && strncmp(msg, cases[i].path, strlen(cases[i].path)) != 0)
			want = halo_strdup_printf("config_data: %s: %s", cases[i].path, msg);
		else
			want = halo_strdup_printf("config_data: %s", msg);
		assert_non_null(got);
		assert_string_equal(got, want);
		free(got);
	}
}

/* "line N" inside a message names the path of that line. */
static void line_references(void **state)
{
	(void)state;
	assert_data_errors("{\"modules\": {\"load\": [\"ice\", \"irdma\", \"ice\"]}}",
			   "config_data: modules.load[2]: \"ice\" is listed twice (first at modules.load[0])");
}

static void json_only_inputs(void **state)
{
	(void)state;
	assert_data_errors("{\"boot\": {\"bad key\": 1}}",
			   "config_data: boot: \"bad key\" is not a valid key name");
	assert_data_errors("{\"modules\": {\"load\": [\"ice\", null]}}",
			   "config_data: modules.load[1]: null is not a value (leave the element out)");
	assert_data_errors("{\"boot\": {\"gtt_mib\": 99999999999999999999}}",
			   "config_data: boot.gtt_mib: the integer does not fit in 64 bits");
	assert_data_errors("{\"boot\": {\"extra\": [\"a\\u0000b\"]}}",
			   "config_data: boot.extra[0]: NUL byte in the string");
	assert_data_errors("{\"interfaces\": [{\"name\": \"a\", \"mtu\": \"9 000\"}]}",
			   "config_data: interfaces[0].mtu: expected an integer, got the string \"9 000\"");
	assert_data_errors("{\"interfaces\": [{\"name\": \"a\", \"mtu\": \"0x2328\"}]}",
			   "config_data: interfaces[0].mtu: expected an integer, got the string \"0x2328\"");
	/* Quotes and escapes reach the schema walk unchanged. */
	assert_data_errors("{\"modules\": {\"load\": [\"a\\\"b\\n\"]}}",
			   "config_data: modules.load[0]: \"a\\\"b\\x0a\" is not a module name"
			   " (only letters, digits, '_' and '-')");
}

/* A config file is not loose: "9000" stays an error there. */
static void file_stays_strict(void **state)
{
	(void)state;
	assert_config_errors("interfaces = ( { name = \"a\"; mtu = \"9000\"; } );",
			     "halo.conf:1: interfaces[0].mtu: expected an integer, got a string");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(integer_as_number_or_string),
		cmocka_unit_test(booleans),
		cmocka_unit_test(empty_is_unset),
		cmocka_unit_test(keyword_or_number),
		cmocka_unit_test(same_messages_as_the_file),
		cmocka_unit_test(line_references),
		cmocka_unit_test(json_only_inputs),
		cmocka_unit_test(file_stays_strict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
