/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the state file, the reboot flag and the Prometheus
 * textfile (state.c, reboot.c, prometheus.c) on a scratch root. */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "subsystems.h"
#include <json-c/json.h>

#include "engine-test.h"
#include "engine/state.h"
#include "util/rootfs.h"

struct fixture {
	char dir[64];
	struct halo_ctx ctx;
	struct halo_plan plan;
	struct halo_config cfg;
};

static int nop_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	return HALO_SYNC_OK;
}

static const struct halo_item_ops ops = { .observe = nop_observe };

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	if (scratch_root_open(&fx->ctx, fx->dir, "state") < 0)
		return -1;
	fx->ctx.mode = HALO_MODE_APPLY;
	fx->ctx.kernel_release = "6.1.0-test";
	fx->cfg.path = (char *)"/etc/halo-provision/halo.conf";
	fx->cfg.text = (char *)"abc";
	fx->cfg.text_len = 3;
	halo_plan_init(&fx->plan);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	halo_plan_free(&fx->plan);
	assert_int_equal(scratch_root_remove(&fx->ctx), 0);
	free(fx);
	return 0;
}

static char *slurp(struct fixture *fx, const char *path)
{
	char name[256];
	char *buf = NULL;
	size_t len = 0;
	FILE *f, *m;
	int c;

	snprintf(name, sizeof(name), "%s%s", fx->dir, path);
	f = fopen(name, "r");
	if (!f)
		return NULL;
	m = open_memstream(&buf, &len);
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(m);
	fclose(f);
	return buf;
}

static struct halo_item *add(struct fixture *fx, const char *key,
			     enum halo_outcome outcome, bool changed, const char *msg)
{
	struct halo_item *it;

	assert_int_equal(halo_plan_add(&fx->plan, key, HALO_SUB_LINKS, HALO_PHASE_LINKS,
				       &ops, NULL, &it), 0);
	it->outcome = outcome;
	it->changed = changed;
	halo_item_set_wanted(it, "9000");
	halo_item_set_observed(it, "9000");
	if (msg)
		halo_item_set_message(it, "%s", msg);
	return it;
}

static void test_state_is_the_host_not_the_run(void **state)
{
	struct fixture *fx = *state;
	struct json_object *o, *v, *it;
	char *first, *second;

	/* First run: changed things, one reboot pending. */
	add(fx, "link/a/mtu", HALO_OUTCOME_CHANGED, true, "a note of this run");
	add(fx, "boot/x", HALO_OUTCOME_PENDING_REBOOT, true, "reboot to activate");
	assert_int_equal(halo_state_write(&fx->ctx, &fx->cfg, &fx->plan,
					  HALO_EXIT_CHANGED | HALO_EXIT_REBOOT), 1);
	first = slurp(fx, HALO_STATE_DEFAULT_PATH);
	assert_non_null(first);
	assert_null(strstr(first, "time"));

	o = json_tokener_parse(first);
	assert_non_null(o);
	json_object_object_get_ex(o, "schema_version", &v);
	assert_int_equal(json_object_get_int(v), 1);
	json_object_object_get_ex(o, "version", &v);
	assert_string_equal(json_object_get_string(v), PACKAGE_VERSION);
	json_object_object_get_ex(o, "reboot_required", &v);
	assert_true(json_object_get_boolean(v));
	json_object_object_get_ex(o, "exit_bits", &v);
	assert_int_equal(json_object_get_int(v), HALO_EXIT_REBOOT);
	json_object_object_get_ex(o, "config", &v);
	json_object_object_get_ex(v, "digest", &v);
	assert_string_equal(json_object_get_string(v),
			    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	json_object_object_get_ex(o, "items", &v);
	assert_int_equal(json_object_array_length(v), 2);
	it = json_object_array_get_idx(v, 0);
	json_object_object_get_ex(it, "outcome", &v);
	assert_string_equal(json_object_get_string(v), "ok");
	json_object_object_get_ex(it, "message", &v);
	assert_null(v);
	json_object_put(o);

	/* Second run changed nothing: the same file, not rewritten. */
	fx->plan.items[0]->outcome = HALO_OUTCOME_OK;
	fx->plan.items[0]->changed = false;
	halo_item_set_message(fx->plan.items[0], NULL);
	fx->plan.items[1]->changed = false;
	fx->ctx.files_written = 0;
	assert_int_equal(halo_state_write(&fx->ctx, &fx->cfg, &fx->plan, HALO_EXIT_REBOOT), 0);
	assert_int_equal(fx->ctx.files_written, 0);
	second = slurp(fx, HALO_STATE_DEFAULT_PATH);
	assert_string_equal(first, second);
	free(first);
	free(second);
}

static void test_state_configured_path(void **state)
{
	struct fixture *fx = *state;
	struct json_object *o, *v;
	char *text;

	fx->cfg.state.path = (char *)"/srv/state/halo.json";
	assert_int_equal(halo_state_write(&fx->ctx, &fx->cfg, &fx->plan, 0), 1);
	text = slurp(fx, "/srv/state/halo.json");
	assert_non_null(text);
	o = json_tokener_parse(text);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "items", &v));
	assert_int_equal(json_object_array_length(v), 0);
	json_object_put(o);
	free(text);
}

/* --only: the other subsystems' items stay as the last apply left them. */
static void test_state_only_keeps_others(void **state)
{
	struct fixture *fx = *state;
	struct json_object *o, *v, *items;
	struct halo_item *boot, *link;
	char *text;

	fx->ctx.registry = &halo_registry;
	fx->ctx.only = halo_registry_default_mask(&halo_registry);
	link = add(fx, "link/a/mtu", HALO_OUTCOME_FAILED, false, "EPERM");
	assert_int_equal(halo_plan_add(&fx->plan, "boot/param/iommu", HALO_SUB_BOOT,
				       HALO_PHASE_BOOT, &ops, NULL, &boot), 0);
	boot->outcome = HALO_OUTCOME_OK;
	halo_item_set_wanted(boot, "iommu=pt");
	assert_int_equal(halo_state_write(&fx->ctx, &fx->cfg, &fx->plan, HALO_EXIT_FAILED), 1);
	(void)link;

	/* An --only boot run: its plan has only the boot item, now pending. */
	halo_plan_free(&fx->plan);
	fx->ctx.only = HALO_SUB_BOOT;
	assert_int_equal(halo_plan_add(&fx->plan, "boot/param/iommu", HALO_SUB_BOOT,
				       HALO_PHASE_BOOT, &ops, NULL, &boot), 0);
	boot->outcome = HALO_OUTCOME_PENDING_REBOOT;
	halo_item_set_wanted(boot, "iommu=pt");
	assert_int_equal(halo_state_write(&fx->ctx, &fx->cfg, &fx->plan, HALO_EXIT_REBOOT), 1);

	text = slurp(fx, HALO_STATE_DEFAULT_PATH);
	o = json_tokener_parse(text);
	assert_non_null(o);
	json_object_object_get_ex(o, "exit_bits", &v);
	/* The kept failed link item still counts. */
	assert_int_equal(json_object_get_int(v), HALO_EXIT_REBOOT | HALO_EXIT_FAILED);
	json_object_object_get_ex(o, "items", &items);
	assert_int_equal(json_object_array_length(items), 2);
	json_object_object_get_ex(json_object_array_get_idx(items, 0), "outcome", &v);
	assert_string_equal(json_object_get_string(v), "pending-reboot");
	json_object_object_get_ex(json_object_array_get_idx(items, 1), "key", &v);
	assert_string_equal(json_object_get_string(v), "link/a/mtu");
	json_object_object_get_ex(json_object_array_get_idx(items, 1), "message", &v);
	assert_string_equal(json_object_get_string(v), "EPERM");
	json_object_put(o);
	free(text);

	/* The same --only run again: byte-identical, not rewritten. */
	assert_int_equal(halo_state_write(&fx->ctx, &fx->cfg, &fx->plan, HALO_EXIT_REBOOT), 0);
}

/* What halo_state_records_read returns for the last state file. */
static int records_read(struct fixture *fx)
{
	struct halo_records records;
	int r = halo_state_records_read(&fx->ctx, &fx->cfg, &records);

	halo_records_free(&records);
	return r;
}

/* The record the last state file holds for KEY, as the planners see it. */
static struct halo_owned recorded(struct fixture *fx, const char *key)
{
	const char *const keys[] = { key, NULL };
	struct halo_records records;
	struct halo_plan plan;
	struct halo_owned got;

	assert_true(halo_state_records_read(&fx->ctx, &fx->cfg, &records) >= 0);
	halo_plan_init(&plan);
	plan.records = &records;
	assert_int_equal(halo_plan_recorded(&plan, keys, &got), 0);
	halo_records_free(&records);
	return got;
}

/* An owning item's record goes to the state file as "owned", sorted, and
 * the next run reads it back per item key; an older file without the
 * member, or another item's, gives nothing. */
static void test_state_owned_record(void **state)
{
	struct fixture *fx = *state;
	struct halo_owned rec = { 0 }, got, none = { 0 };
	struct halo_item *it;
	struct json_object *o, *v, *a;
	char *text, *again;

	got = recorded(fx, "roce/a/dscp-prio");
	assert_int_equal(got.n, 0); /* no file yet */

	assert_int_equal(halo_owned_add(&rec, "48:6"), 0);
	assert_int_equal(halo_owned_add(&rec, "26:3"), 0);
	assert_int_equal(halo_owned_add(&rec, "26:3"), 0); /* once */
	assert_int_equal(halo_owned_add(&rec, "0123456789abcdef"), -ENAMETOOLONG);
	assert_int_equal(rec.n, 2);
	it = add(fx, "roce/a/dscp-prio", HALO_OUTCOME_CHANGED, false, NULL);
	assert_int_equal(halo_item_keep_owned(it, &rec), 0);
	/* An empty record, and a plain item: no member. */
	it = add(fx, "roce/a/trust", HALO_OUTCOME_OK, false, NULL);
	assert_int_equal(halo_item_keep_owned(it, &none), 0);
	add(fx, "link/a/mtu", HALO_OUTCOME_OK, false, NULL);
	assert_int_equal(halo_state_write(&fx->ctx, &fx->cfg, &fx->plan, 0), 1);
	text = slurp(fx, HALO_STATE_DEFAULT_PATH);
	assert_non_null(text);
	o = json_tokener_parse(text);
	assert_non_null(o);
	json_object_object_get_ex(o, "items", &v);
	json_object_object_get_ex(json_object_array_get_idx(v, 0), "owned", &a);
	assert_string_equal(json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN),
			    "[\"26:3\",\"48:6\"]");
	assert_false(json_object_object_get_ex(json_object_array_get_idx(v, 1), "owned", &a));
	assert_false(json_object_object_get_ex(json_object_array_get_idx(v, 2), "owned", &a));
	json_object_put(o);

	got = recorded(fx, "roce/a/dscp-prio");
	assert_int_equal(got.n, 2);
	assert_true(halo_owned_has(&got, "26:3") && halo_owned_has(&got, "48:6"));
	halo_owned_remove(&got, "26:3");
	assert_int_equal(got.n, 1);
	assert_string_equal(got.v[0], "48:6");
	got = recorded(fx, "roce/a/trust");
	assert_int_equal(got.n, 0);

	/* The same content again: the file is left byte-identical. */
	assert_int_equal(halo_state_write(&fx->ctx, &fx->cfg, &fx->plan, 0), 0);
	again = slurp(fx, HALO_STATE_DEFAULT_PATH);
	assert_string_equal(text, again);
	free(again);
	free(text);

	/* An older version's file (no "owned"): no record, no error. */
	assert_int_equal(halo_write_file_atomic(&fx->ctx, HALO_STATE_DEFAULT_PATH,
		"{ \"schema_version\": 1, \"items\": [ { \"key\": \"roce/a/dscp-prio\" } ] }\n",
		strlen("{ \"schema_version\": 1, \"items\": [ { \"key\": \"roce/a/dscp-prio\" } ] }\n"),
		0644), 1);
	got = recorded(fx, "roce/a/dscp-prio");
	assert_int_equal(got.n, 0);
	assert_int_equal(records_read(fx), 0);
	/* Not JSON at all: the same, but said (1: not a file of ours). */
	assert_int_equal(halo_write_file_atomic(&fx->ctx, HALO_STATE_DEFAULT_PATH, "{ owned", 7,
						0644), 1);
	assert_int_equal(records_read(fx), 1);
	got = recorded(fx, "roce/a/dscp-prio");
	assert_int_equal(got.n, 0);
}

static void test_reboot_required(void **state)
{
	struct fixture *fx = *state;
	char path[128], *text;
	FILE *f;

	assert_int_equal(halo_reboot_required_write(&fx->ctx), 1);
	text = slurp(fx, "/run/reboot-required");
	assert_string_equal(text, "*** System restart required ***\n");
	free(text);
	text = slurp(fx, "/run/reboot-required.pkgs");
	assert_string_equal(text, "halo-provision\n");
	free(text);
	assert_int_equal(halo_reboot_required_write(&fx->ctx), 0);

	/* Another package listed itself, without a final newline. */
	snprintf(path, sizeof(path), "%s/run/reboot-required.pkgs", fx->dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("linux-image-6.1.0", f);
	fclose(f);
	assert_int_equal(halo_reboot_required_write(&fx->ctx), 1);
	text = slurp(fx, "/run/reboot-required.pkgs");
	assert_string_equal(text, "linux-image-6.1.0\nhalo-provision\n");
	free(text);
	assert_int_equal(halo_reboot_required_write(&fx->ctx), 0);
}

static void test_prometheus(void **state)
{
	struct fixture *fx = *state;
	char *text;

	add(fx, "link/a/mtu", HALO_OUTCOME_CHANGED, true, NULL);
	add(fx, "file/etc/\"odd\\name", HALO_OUTCOME_DRIFT, false, NULL);
	text = halo_prometheus_render(&fx->ctx, &fx->plan, HALO_EXIT_CHANGED, 1700000000.5);
	assert_non_null(strstr(text, "# TYPE halo_item_in_sync gauge\n"));
	assert_non_null(strstr(text, "halo_item_in_sync{key=\"link/a/mtu\",subsystem=\"links\"} 1\n"));
	assert_non_null(strstr(text, "halo_item_in_sync{key=\"file/etc/\\\"odd\\\\name\",subsystem=\"links\"} 0\n"));
	assert_non_null(strstr(text, "halo_last_run_timestamp_seconds 1700000000.500\n"));
	assert_non_null(strstr(text, "halo_exit_code 2\n"));
	assert_non_null(strstr(text, "halo_items{outcome=\"drift\"} 1\n"));
	free(text);

	/* Unset or "": nothing written. */
	assert_int_equal(halo_prometheus_write(&fx->ctx, &fx->cfg, &fx->plan, 2), 0);
	fx->cfg.state.prometheus = (char *)"/var/lib/node_exporter/halo.prom";
	assert_int_equal(halo_prometheus_write(&fx->ctx, &fx->cfg, &fx->plan, 2), 1);
	text = slurp(fx, "/var/lib/node_exporter/halo.prom");
	assert_non_null(text);
	assert_non_null(strstr(text, "halo_exit_code 2\n"));
	free(text);
}

/* An unsupported knob that is not required is reported, not failed: it is
 * in sync. A required one is failed (the engine makes it so), and an
 * unsupported outcome on a required item is never shown as in sync. */
static void test_prometheus_unsupported(void **state)
{
	struct fixture *fx = *state;
	struct halo_item *it;
	char *text;

	add(fx, "roce/a/ecn", HALO_OUTCOME_UNSUPPORTED, false, "no ECN knob");
	it = add(fx, "roce/a/pfc", HALO_OUTCOME_UNSUPPORTED, false, "no PFC knob");
	it->required = true;
	add(fx, "roce/a/tos", HALO_OUTCOME_FAILED, false, "required, unsupported");
	text = halo_prometheus_render(&fx->ctx, &fx->plan, HALO_EXIT_FAILED, 1700000000.0);
	assert_non_null(strstr(text, "halo_item_in_sync{key=\"roce/a/ecn\",subsystem=\"links\"} 1\n"));
	assert_non_null(strstr(text, "halo_item_in_sync{key=\"roce/a/pfc\",subsystem=\"links\"} 0\n"));
	assert_non_null(strstr(text, "halo_item_in_sync{key=\"roce/a/tos\",subsystem=\"links\"} 0\n"));
	free(text);
}

/* The run-level series: the build, the mode (only here, so the per-item
 * series keep the same labels in apply and check), the warnings. */
static void test_prometheus_run_series(void **state)
{
	struct fixture *fx = *state;
	char *text;

	add(fx, "link/a/mtu", HALO_OUTCOME_OK, false, NULL);
	assert_int_equal(halo_plan_warn(&fx->plan, "one"), 0);
	assert_int_equal(halo_plan_warn(&fx->plan, "two"), 0);
	text = halo_prometheus_render(&fx->ctx, &fx->plan, 0, 1700000000.0);
	assert_non_null(strstr(text, "# TYPE halo_build_info gauge\n"
				     "halo_build_info{version=\"" PACKAGE_VERSION "\"} 1\n"));
	assert_non_null(strstr(text, "# TYPE halo_last_run_info gauge\n"
				     "halo_last_run_info{mode=\"apply\"} 1\n"));
	assert_non_null(strstr(text, "# TYPE halo_warnings gauge\nhalo_warnings 2\n"));
	assert_null(strstr(text, "halo_item_in_sync{mode"));
	free(text);

	fx->ctx.mode = HALO_MODE_CHECK;
	text = halo_prometheus_render(&fx->ctx, &fx->plan, 0, 1700000000.0);
	assert_non_null(strstr(text, "halo_last_run_info{mode=\"check\"} 1\n"));
	assert_non_null(strstr(text, "halo_item_in_sync{key=\"link/a/mtu\",subsystem=\"links\"} 1\n"));
	free(text);
}

/* Every series has HELP and TYPE before its first sample, once. */
static void test_prometheus_help_type(void **state)
{
	struct fixture *fx = *state;
	char *text, *line, *save = NULL;
	char seen[16][64];
	size_t n = 0;

	add(fx, "link/a/mtu", HALO_OUTCOME_OK, false, NULL);
	text = halo_prometheus_render(&fx->ctx, &fx->plan, 0, 1700000000.0);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[64];
		bool known = false;

		if (strncmp(line, "# HELP ", 7) == 0) {
			assert_true(n < 16);
			assert_int_equal(sscanf(line + 7, "%63s", seen[n]), 1);
			for (size_t i = 0; i < n; i++)
				assert_string_not_equal(seen[i], seen[n]);
			n++;
			continue;
		}
		if (strncmp(line, "# TYPE ", 7) == 0) {
			assert_true(n > 0);
			assert_int_equal(strncmp(line + 7, seen[n - 1], strlen(seen[n - 1])), 0);
			continue;
		}
		assert_int_equal(sscanf(line, "%63[a-z_]", name), 1);
		for (size_t i = 0; i < n; i++)
			known |= strcmp(seen[i], name) == 0;
		assert_true(known);
	}
	assert_true(n >= 7);
	free(text);
}

/* A run that ends with exit 1 writes nothing: the previous series stay,
 * so alerts do not resolve, and staleness shows the broken run. The
 * textfile is rewritten by every other run but is not counted in
 * files_written (a converged apply still reports 0 files written). */
static void test_prometheus_write_rules(void **state)
{
	struct fixture *fx = *state;
	char *text;

	add(fx, "link/a/mtu", HALO_OUTCOME_OK, false, NULL);
	fx->cfg.state.prometheus = (char *)"/var/lib/prometheus/node-exporter/halo-provision.prom";
	assert_int_equal(halo_prometheus_write(&fx->ctx, &fx->cfg, &fx->plan, 0), 1);
	assert_int_equal(fx->ctx.files_written, 0);
	assert_int_equal(halo_prometheus_write(&fx->ctx, &fx->cfg, &fx->plan, HALO_EXIT_USAGE), 0);
	text = slurp(fx, "/var/lib/prometheus/node-exporter/halo-provision.prom");
	assert_non_null(text);
	assert_non_null(strstr(text, "halo_exit_code 0\n"));
	free(text);
	/* Same plan, later time: rewritten (the timestamp is the liveness).
	 * The timestamp has millisecond resolution: let the clock move on. */
	nanosleep(&(struct timespec){ .tv_nsec = 2 * 1000 * 1000 }, NULL);
	assert_int_equal(halo_prometheus_write(&fx->ctx, &fx->cfg, &fx->plan, 0), 1);
	assert_int_equal(fx->ctx.files_written, 0);
}

/* --revert removes an output only when it is recognisably this tool's:
 * what the writers write is, anything else at the path is not. */
static void test_outputs_are_ours(void **state)
{
	struct fixture *fx = *state;
	char foreign[64];
	char *text;

	add(fx, "link/a/mtu", HALO_OUTCOME_OK, false, NULL);
	assert_int_equal(halo_state_write(&fx->ctx, &fx->cfg, &fx->plan, 0), 1);
	text = slurp(fx, HALO_STATE_DEFAULT_PATH);
	assert_non_null(text);
	assert_true(halo_state_is_ours(text, strlen(text)));
	/* Cut short: no JSON, so no one's in particular. */
	assert_false(halo_state_is_ours(text, strlen(text) / 2));
	free(text);
	assert_false(halo_state_is_ours("Welcome\n", 8));
	assert_false(halo_state_is_ours("{ \"tool\": \"other\" }", 19));
	assert_false(halo_state_is_ours("[ \"halo-provision\" ]", 20));
	assert_false(halo_state_is_ours("{ \"tool\": \"halo-provision\" }\0x", 30));
	assert_true(halo_state_is_ours("{ \"tool\": \"halo-provision\" }", 28));

	text = halo_prometheus_render(&fx->ctx, &fx->plan, HALO_EXIT_CHANGED, 1700000000.5);
	assert_true(halo_prometheus_is_ours(text, strlen(text), foreign, sizeof(foreign)));
	free(text);
	assert_false(halo_prometheus_is_ours("# HELP node_other x\nnode_other 1\n", 33, foreign,
					     sizeof(foreign)));
	assert_string_equal(foreign, "node_other");
	assert_false(halo_prometheus_is_ours("halo_exit_code 0\nhalo_exit_code_x 1", 35, foreign,
					     sizeof(foreign)));
	assert_string_equal(foreign, "halo_exit_code_x");
	assert_false(halo_prometheus_is_ours("halo_exit_code 0\n# a note\n", 26, foreign,
					     sizeof(foreign)));
	assert_string_equal(foreign, "# a note");
	assert_false(halo_prometheus_is_ours("", 0, foreign, sizeof(foreign)));
	assert_string_equal(foreign, "");
	assert_false(halo_prometheus_is_ours("halo_exit_code\0 0\n", 18, foreign, sizeof(foreign)));
	assert_true(halo_prometheus_is_ours("halo_exit_code 0", 16, foreign, sizeof(foreign)));
	/* A long foreign name is cut to fit. */
	assert_false(halo_prometheus_is_ours("x234567890 1\n", 13, foreign, 5));
	assert_string_equal(foreign, "x234");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_state_is_the_host_not_the_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_state_configured_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_state_only_keeps_others, setup, teardown),
		cmocka_unit_test_setup_teardown(test_state_owned_record, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reboot_required, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prometheus, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prometheus_unsupported, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prometheus_run_series, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prometheus_help_type, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prometheus_write_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_outputs_are_ours, setup, teardown),
	};

	return cmocka_run_group_tests_name("engine-state", tests, NULL, NULL);
}
