/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-engine-state-scan.c: the one-pass reading of a state file's
 * records (engine/state-scan.h) against the parsed document's. */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/state-scan.h"
#include "engine/state.h"
#include "util/strv.h"
#include "state-records-test.h"

/* Scans TEXT: the verdict (1 read, 0 left to the parser), and, read,
 * the same records as the parser's. *RET: the parser's records. */
static int scan(const char *text, struct halo_records *ret)
{
	struct halo_records scanned;
	int r = halo_state_scan_records(text, strlen(text), 1, &scanned);

	assert_true(r == 0 || r == 1);
	assert_int_equal(halo_state_records_parse(text, ret), 0);
	if (r == 1)
		assert_true(same_records(&scanned, ret));
	else
		assert_int_equal(scanned.n, 0);
	halo_records_free(&scanned);
	return r;
}

static const char *const ours =
	"{\n"
	"  \"schema_version\": 1,\n"
	"  \"tool\": \"halo-provision\",\n"
	"  \"config\": { \"path\": \"/etc/halo-provision/halo.conf\", \"digest\": \"de9a\" },\n"
	"  \"failed\": false,\n"
	"  \"textfile\": \"/var/lib/prometheus/node-exporter/halo-provision.prom\",\n"
	"  \"exit_bits\": 0,\n"
	"  \"node\": { \"interfaces\": [ { \"mtu\": 9000, \"roce\": { \"pfc\": [ 3 ], \"ecn\": null } } ] },\n"
	"  \"items\": [\n"
	"    { \"key\": \"boot/param/iommu\", \"subsystem\": \"boot\", \"wanted\": \"iommu=pt\" },\n"
	"    { \"key\": \"roce/e810/dscp-prio\", \"memo\": \"3\", \"owned\": [ \"26:3\", \"46:5\" ],\n"
	"      \"rate\": -1.5e-3 },\n"
	"    { \"key\": \"roce/cx/dscp-prio\", \"owned\": [ ], \"memo\": \"5\" },\n"
	"    { \"key\": \"roce/cx/trust\", \"owned\": [ ] },\n"
	"    { \"key\": \"file/etc/x.conf\", \"subsystem\": \"files\", \"path\": \"/etc/x.conf\" }\n"
	"  ]\n"
	"}\n";

/* The file as this tool writes it: read in one pass, to the same records. */
static void test_ours(void **state)
{
	struct halo_records parsed;

	assert_int_equal(scan(ours, &parsed), 1);
	assert_int_equal(parsed.n, 3);
	assert_string_equal(parsed.textfile, "/var/lib/prometheus/node-exporter/halo-provision.prom");
	assert_string_equal(parsed.v[0].key, "roce/e810/dscp-prio");
	assert_string_equal(parsed.v[0].memo, "3");
	assert_int_equal(parsed.v[0].owned.n, 2);
	assert_string_equal(parsed.v[0].owned.v[1], "46:5");
	assert_string_equal(parsed.v[1].key, "roce/cx/dscp-prio");
	assert_string_equal(parsed.v[1].memo, "5");
	assert_int_equal(parsed.v[1].owned.n, 0);
	assert_null(parsed.v[1].path);
	assert_string_equal(parsed.v[2].key, "file/etc/x.conf");
	assert_string_equal(parsed.v[2].path, "/etc/x.conf");
	assert_string_equal(parsed.v[2].subsystem, "files");
	assert_null(parsed.v[2].memo);
	halo_records_free(&parsed);
}

/* Plain JSON in another order or with odd values: still read in one pass,
 * still the parser's records. */
static void test_plain_variants(void **state)
{
	static const char *const texts[] = {
		/* members in any order: the memo is kept before the entries */
		"{\"items\":[{\"owned\":[\"1:1\"],\"memo\":\"m\",\"key\":\"k\"}],\"schema_version\":1}",
		/* the escapes json-c writes */
		"{\"schema_version\":1,\"items\":[{\"key\":\"a\\/b\\\"c\\\\d\",\"memo\":\"x\\ny\\tz\\b\\f\\r\",\"owned\":[\"q\\/r\"]}]}",
		/* what is not a string, an object or an array where one is read */
		("{\"schema_version\":1,\"items\":[7,null,{\"key\":5,\"memo\":\"m\",\"owned\":[\"1:1\"]},"
		 "{\"key\":\"k\",\"memo\":true,\"owned\":{\"a\":1}},{\"key\":\"j\",\"owned\":[1,\"0123456789abcdef\",\"ok\"]}]}"),
		/* an owned file: recorded with both its path and its subsystem only */
		("{\"schema_version\":1,\"items\":[{\"path\":\"/p\",\"key\":\"k\",\"subsystem\":\"files\"},"
		 "{\"key\":\"j\",\"path\":\"/q\"},{\"key\":\"i\",\"path\":7,\"subsystem\":\"boot\"},"
		 "{\"key\":\"k\",\"subsystem\":\"boot\",\"path\":\"/r\",\"memo\":\"m\"}]}"),
		/* a textfile that is no string is none */
		"{\"schema_version\":1,\"textfile\":7,\"items\":[]}",
		/* not ours: another version, no items, items not an array */
		"{\"schema_version\":2,\"items\":[{\"key\":\"k\",\"memo\":\"m\"}]}",
		"{\"schema_version\":-0,\"items\":[]}",
		"{\"schema_version\":1}",
		"{\"schema_version\":1,\"items\":{\"key\":\"k\",\"memo\":\"m\"}}",
		"{\"items\":[{\"key\":\"k\",\"memo\":\"m\"}]}",
		/* a key given twice where nothing is read: json-c keeps the last, unread */
		"{\"schema_version\":1,\"tool\":1,\"tool\":2,\"items\":[{\"key\":\"k\",\"x\":1,\"x\":2,\"memo\":\"m\"}]}",
		" \t\r\n{ } \n",
		"{\"schema_version\":1,\"items\":[],\"\xc3\xa9\":\"\xff\xfe\"}",
	};

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct halo_records parsed;

		print_message("%zu: %s\n", i, texts[i]);
		assert_int_equal(scan(texts[i], &parsed), 1);
		halo_records_free(&parsed);
	}
}

/* More entries than a record holds: the rest is dropped quietly, as by
 * the parser. */
static void test_full_record(void **state)
{
	struct halo_buf b = { 0 };
	struct halo_records parsed;
	char *text;

	halo_buf_puts(&b, "{\"schema_version\":1,\"items\":[{\"key\":\"k\",\"owned\":[");
	for (int i = 0; i < HALO_OWNED_MAX + 10; i++)
		halo_buf_printf(&b, "%s\"%d:1\"", i ? "," : "", i);
	halo_buf_puts(&b, "]}]}");
	text = halo_buf_steal(&b);
	assert_non_null(text);
	assert_int_equal(scan(text, &parsed), 1);
	assert_int_equal(parsed.n, 1);
	assert_int_equal(parsed.v[0].owned.n, HALO_OWNED_MAX);
	halo_records_free(&parsed);
	free(text);
}

/* What json-c reads its own way is left to it: \u escapes, a member read
 * here given twice (json-c keeps the last), a version json-c takes for a
 * number, its leniencies (comments, quotes, trailing commas, text after
 * the document), and what is no JSON at all. */
static void test_left_to_the_parser(void **state)
{
	static const char *const texts[] = {
		"{\"schema_version\":1,\"items\":[{\"key\":\"\\u006b\",\"memo\":\"m\"}]}",
		"{\"schema_version\":1,\"items\":[{\"key\":\"a\",\"key\":\"b\",\"memo\":\"m\"}]}",
		"{\"schema_version\":1,\"items\":[{\"key\":\"a\",\"memo\":\"m\",\"memo\":\"n\"}]}",
		"{\"schema_version\":1,\"items\":[{\"key\":\"a\",\"owned\":[],\"owned\":[\"1:1\"]}]}",
		"{\"schema_version\":1,\"items\":[{\"key\":\"a\",\"subsystem\":\"files\",\"path\":\"/a\",\"path\":\"/b\"}]}",
		"{\"schema_version\":1,\"items\":[{\"key\":\"a\",\"subsystem\":\"x\",\"path\":\"/a\",\"subsystem\":\"files\"}]}",
		"{\"schema_version\":1,\"items\":[],\"items\":[{\"key\":\"k\",\"memo\":\"m\"}]}",
		"{\"schema_version\":1,\"textfile\":\"/a\",\"items\":[],\"textfile\":\"/b\"}",
		"{\"schema_version\":2,\"schema_version\":1,\"items\":[{\"key\":\"k\",\"memo\":\"m\"}]}",
		"{\"schema_version\":\"1\",\"items\":[{\"key\":\"k\",\"memo\":\"m\"}]}",
		"{\"schema_version\":1.0,\"items\":[{\"key\":\"k\",\"memo\":\"m\"}]}",
		"{\"schema_version\":true,\"items\":[{\"key\":\"k\",\"memo\":\"m\"}]}",
		"{\"schema_version\":10000000001,\"items\":[]}",
		"{\"schema_version\":01,\"items\":[]}",
		"{/* c */\"schema_version\":1,\"items\":[]}",
		"{'schema_version':1,\"items\":[]}",
		"{\"schema_version\":1,\"items\":[{\"key\":\"k\",\"memo\":\"m\"},]}",
		"{\"schema_version\":1,\"items\":[]} trailing",
		"{\"schema_version\":1,\"items\":[{\"key\":\"k\",\"memo\":\"m\nn\"}]}",
		"{\"schema_version\":1,\"items\":[{\"key\":\"k\",\"memo\":\"m\"}]",
		"{\"schema_version\":1,\"items\":[{\"key\":\"k\",\"memo\":\"m\"}]}\v",
		"{\"schema_version\":1,\"x\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]],\"items\":[]}",
		"{\"schema_version\":1,\"x\":TRUE,\"items\":[]}",
		"{\"schema_version\":1,\"x\":-,\"items\":[]}",
		"[{\"schema_version\":1,\"items\":[]}]",
		"",
	};

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct halo_records parsed;

		print_message("%zu: %s\n", i, texts[i]);
		assert_int_equal(scan(texts[i], &parsed), 0);
		halo_records_free(&parsed);
	}
}

/* KEY as an item's key and memo, in a file indented by PAD (which ends
 * the text too): the scan's verdict, its records compared with the
 * parser's. */
static int scan_item(const char *key, const char *pad)
{
	struct halo_buf b = { 0 };
	struct halo_records parsed;
	char *text;
	int r;

	halo_buf_printf(&b, "{\n%s\"schema_version\": 1,\n%s\"items\": [\n%s{\n%s\"key\": \"%s\",\n"
			"%s\"memo\": \"%s\"\n%s}\n%s]\n}%s", pad, pad, pad, pad, key, pad, key,
			pad, pad, pad);
	text = halo_buf_steal(&b);
	assert_non_null(text);
	r = scan(text, &parsed);
	if (r == 1)
		assert_int_equal(parsed.n, 1);
	halo_records_free(&parsed);
	free(text);
	return r;
}

/* Strings of every length around two words, with an escape, a byte of
 * the upper half or a raw control byte at every place: the scan tests
 * eight bytes at a time where eight are left and must stop exactly where
 * a byte-by-byte reading would. */
static void test_string_runs(void **state)
{
	/* Read here: escapes, and bytes a word test could mistake for a
	 * quote, a backslash or a control byte. */
	static const char *const read[] = {
		"\\\\", "\\\"", "\\n", "\\/", "\\t", "\xa2", "\xdc", "\xa0", "\x80\xff", "\x21\x23\x5b\x5d",
	};
	/* Left to the parser: what json-c reads its own way. */
	static const char *const left[] = { "\x01", "\x1f", "\t", "\n", "\\u0041", "\\x" };
	char key[64];

	for (size_t len = 0; len <= 20; len++) {
		for (size_t at = 0; at <= len; at++) {
			for (size_t i = 0; i < sizeof(read) / sizeof(read[0]); i++) {
				snprintf(key, sizeof(key), "%.*s%s%.*s", (int)at, "abcdefghijklmnopqrstuvwxyz",
					 read[i], (int)(len - at), "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
				assert_int_equal(scan_item(key, ""), 1);
				assert_int_equal(scan_item(key, "  "), 1);
			}
			for (size_t i = 0; i < sizeof(left) / sizeof(left[0]); i++) {
				snprintf(key, sizeof(key), "%.*s%s%.*s", (int)at, "abcdefghijklmnopqrstuvwxyz",
					 left[i], (int)(len - at), "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
				assert_int_equal(scan_item(key, ""), 0);
			}
		}
	}
}

/* A string cut short by the end of the text, within a word's reach of
 * it or not: the parser's. */
static void test_string_at_end(void **state)
{
	static const char head[] = "{\"schema_version\":1,\"items\":[],\"x\":\"";
	struct halo_records parsed;
	char text[128];

	for (size_t len = 0; len <= 20; len++) {
		snprintf(text, sizeof(text), "%s%.*s", head, (int)len, "abcdefghijklmnopqrstuvwxyz");
		assert_int_equal(scan(text, &parsed), 0);
		halo_records_free(&parsed);
		snprintf(text, sizeof(text), "%s%.*s\\", head, (int)len, "abcdefghijklmnopqrstuvwxyz");
		assert_int_equal(scan(text, &parsed), 0);
		halo_records_free(&parsed);
	}
}

/* Indentation of every depth, with tabs and line ends among the spaces
 * and after the document: the scan skips spaces eight at a time and must
 * stop at the first other byte. */
static void test_whitespace_runs(void **state)
{
	static const char spaces[] = "                                ";
	char pad[64];

	for (int n = 0; n <= 20; n++) {
		snprintf(pad, sizeof(pad), "%.*s", n, spaces);
		assert_int_equal(scan_item("k", pad), 1);
		snprintf(pad, sizeof(pad), "%.*s\t%.*s", n, spaces, n, spaces);
		assert_int_equal(scan_item("k", pad), 1);
		snprintf(pad, sizeof(pad), "%.*s\r\n%.*s", n, spaces, n, spaces);
		assert_int_equal(scan_item("k", pad), 1);
		/* no JSON whitespace: json-c's to judge */
		snprintf(pad, sizeof(pad), "%.*s\v%.*s", n, spaces, n, spaces);
		assert_int_equal(scan_item("k", pad), 0);
		snprintf(pad, sizeof(pad), "%.*s\xa0%.*s", n, spaces, n, spaces);
		assert_int_equal(scan_item("k", pad), 0);
	}
}

/* A NUL ends what json-c reads: the rest is not for the scan either. */
static void test_nul(void **state)
{
	static const char text[] = "{\"schema_version\":1,\"items\":[]}\0{\"x\":1}";
	struct halo_records got;

	assert_int_equal(halo_state_scan_records(text, sizeof(text) - 1, 1, &got), 0);
	assert_int_equal(got.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ours),
		cmocka_unit_test(test_plain_variants),
		cmocka_unit_test(test_full_record),
		cmocka_unit_test(test_left_to_the_parser),
		cmocka_unit_test(test_string_runs),
		cmocka_unit_test(test_string_at_end),
		cmocka_unit_test(test_whitespace_runs),
		cmocka_unit_test(test_nul),
	};

	return cmocka_run_group_tests_name("engine-state-scan", tests, NULL, NULL);
}
