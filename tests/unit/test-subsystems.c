/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the subsystem table (src/subsystems.c), the one place a
 * subsystem is declared: --help, bash completion, the man page and the
 * JSON schema must name exactly its subsystems, in its order.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "cli.h"
#include "subsystems.h"
#include "util/strv.h"

/* The file REL of the source tree, whole. */
static char *source_file(const char *rel)
{
	const char *top = getenv("top_srcdir");
	char path[4096], *text = NULL;
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", top ? top : ".", rel);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(getdelim(&text, &len, '\0', f) > 0, 1);
	fclose(f);
	return text;
}

/* The table's names joined by SEP. */
static char *names(const char *sep)
{
	struct halo_buf b = { 0 };

	for (size_t i = 0; i < halo_registry.n; i++)
		halo_buf_printf(&b, "%s%s", i ? sep : "", halo_registry.subsystems[i].name);
	return halo_buf_steal(&b);
}

static void table_is_sound(void **state)
{
	unsigned seen = 0;

	(void)state;
	assert_true(halo_registry.n > 0);
	for (size_t i = 0; i < halo_registry.n; i++) {
		const struct halo_subsystem *s = &halo_registry.subsystems[i];

		assert_non_null(s->plan);
		assert_non_null(s->summary);
		/* One bit each, in bit order (--only's order). */
		assert_int_equal(s->bit & (s->bit - 1), 0);
		assert_true(s->bit > seen);
		seen |= s->bit;
		assert_int_equal(halo_subsys_from_name(&halo_registry, s->name), s->bit);
	}
	assert_int_equal(halo_subsys_from_name(&halo_registry, "link"), 0);
	assert_int_equal(halo_subsys_from_name(&halo_registry, "Boot"), 0);
	assert_int_equal(halo_subsys_from_name(&halo_registry, ""), 0);
}

/* --help lists every subsystem with its summary, in the table's order. */
static void help_lists_the_table(void **state)
{
	char *text = NULL, *p;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	(void)state;
	assert_non_null(out);
	halo_cli_usage(out);
	fclose(out);
	p = text;
	for (size_t i = 0; i < halo_registry.n; i++) {
		char line[256];

		snprintf(line, sizeof(line), " %-9s %s\n", halo_registry.subsystems[i].name,
			 halo_registry.subsystems[i].summary);
		p = strstr(p, line);
		assert_non_null(p);
	}
	free(text);
}

/* Completion offers exactly the table's names. */
static void completion_lists_the_table(void **state)
{
	char *text = source_file("completion/halo-provision.bash");
	char *want = names(" ");
	char *line = strstr(text, "_halo_provision_subsystems='");

	(void)state;
	assert_non_null(line);
	line += strlen("_halo_provision_subsystems='");
	line[strcspn(line, "'")] = '\0';
	assert_string_equal(line, want);
	free(want);
	free(text);
}

/* The man page's --only paragraph names every subsystem, in order. */
static void man_page_lists_the_table(void **state)
{
	char *text = source_file("man/halo-provision.8");
	char *p = strstr(text, ".BI \\-\\-only "), *end;

	(void)state;
	assert_non_null(p);
	end = strstr(p + 1, "\n.TP\n");
	assert_non_null(end);
	*end = '\0';
	for (size_t i = 0; i < halo_registry.n; i++) {
		char b[64], br[64];
		char *at_b, *at_br;

		snprintf(b, sizeof(b), "\n.B %s\n", halo_registry.subsystems[i].name);
		snprintf(br, sizeof(br), "\n.BR %s ,\n", halo_registry.subsystems[i].name);
		at_b = strstr(p, b);
		at_br = strstr(p, br);
		assert_true(at_b || at_br);
		p = !at_b ? at_br : !at_br ? at_b : at_b < at_br ? at_b : at_br;
		p++;
	}
	free(text);
}

/* The JSON schema's subsystem enum is the table. */
static void schema_enum_is_the_table(void **state)
{
	char *text = source_file("docs/halo-provision.schema.json");
	struct json_object *o = json_tokener_parse(text), *defs, *sub, *e;

	(void)state;
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "$defs", &defs));
	assert_true(json_object_object_get_ex(defs, "subsystem", &sub));
	assert_true(json_object_object_get_ex(sub, "enum", &e));
	assert_int_equal(json_object_array_length(e), halo_registry.n);
	for (size_t i = 0; i < halo_registry.n; i++)
		assert_string_equal(json_object_get_string(json_object_array_get_idx(e, i)),
				    halo_registry.subsystems[i].name);
	json_object_put(o);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_is_sound),
		cmocka_unit_test(help_lists_the_table),
		cmocka_unit_test(completion_lists_the_table),
		cmocka_unit_test(man_page_lists_the_table),
		cmocka_unit_test(schema_enum_is_the_table),
	};

	return cmocka_run_group_tests_name("subsystems", tests, NULL, NULL);
}
