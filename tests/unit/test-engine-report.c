/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the text and JSON reports (report_text.c, report_json.c). */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "subsystems.h"
#include <json-c/json.h>

#include "engine/report.h"

static int nop_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	return HALO_SYNC_OK;
}

static const struct halo_item_ops ops = { .observe = nop_observe };

static struct halo_item *add(struct halo_plan *plan, const char *key,
			     enum halo_outcome outcome, const char *wanted,
			     const char *observed)
{
	struct halo_item *it;

	assert_int_equal(halo_plan_add(plan, key, HALO_SUB_BOOT, HALO_PHASE_BOOT,
				       &ops, NULL, &it), 0);
	it->outcome = outcome;
	if (wanted)
		assert_int_equal(halo_item_set_wanted(it, "%s", wanted), 0);
	if (observed)
		assert_int_equal(halo_item_set_observed(it, "%s", observed), 0);
	return it;
}

/* An apply with one item of every kind; returns its exit bits. */
static int sample(struct halo_plan *plan)
{
	struct halo_item *it;

	halo_plan_init(plan);
	add(plan, "boot/param/pci", HALO_OUTCOME_OK, "pci=realloc", "pci=realloc");
	it = add(plan, "boot/param/iommu", HALO_OUTCOME_CHANGED, "iommu=pt", "iommu=pt");
	it->changed = true;
	it = add(plan, "boot/param/ttm.pages_limit", HALO_OUTCOME_PENDING_REBOOT,
		 "ttm.pages_limit=32505856", "ttm.pages_limit=32505856");
	it->changed = true;
	it->was = strdup("ttm.pages_limit=100");
	it = add(plan, "file/etc/default/grub", HALO_OUTCOME_FAILED, "mode 0644, 10 bytes",
		 "mode 0644, 9 bytes");
	halo_item_set_message(it, "writing /etc/default/grub: Read-only file system");
	it->diff = strdup("--- a/etc/default/grub\n+++ b/etc/default/grub\n@@ -1 +1 @@\n-a\n+b\n");
	halo_plan_warn(plan, "GTT above ROCm's ceiling");
	return HALO_EXIT_CHANGED | HALO_EXIT_FAILED | HALO_EXIT_REBOOT;
}

/* Not inlined: gcc's -Wdangling-pointer would take the returned text
 * for the address of BUF itself, which open_memstream was given. */
static __attribute__((noinline)) char *text_of(struct halo_ctx *ctx, struct halo_plan *plan,
					       int bits)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	halo_report_text(f, ctx, plan, bits);
	fclose(f);
	return buf;
}

static void test_summary(void **state)
{
	struct halo_ctx ctx = { .mode = HALO_MODE_APPLY };
	struct halo_plan plan;
	char *s;

	int bits = sample(&plan);

	s = halo_report_summary(&ctx, &plan, bits);
	assert_string_equal(s, "apply: 4 items, 1 ok, 1 changed, 1 pending-reboot, 1 failed; reboot required");
	free(s);
	halo_plan_free(&plan);

	halo_plan_init(&plan);
	ctx.mode = HALO_MODE_CHECK;
	s = halo_report_summary(&ctx, &plan, 0);
	assert_string_equal(s, "check: 0 items");
	free(s);
	add(&plan, "a", HALO_OUTCOME_DRIFT, "1", "2");
	ctx.mode = HALO_MODE_DRY_RUN;
	s = halo_report_summary(&ctx, &plan, HALO_EXIT_CHANGED | HALO_EXIT_REBOOT);
	assert_string_equal(s, "dry-run: 1 item, 1 drift; reboot would be required");
	free(s);
	halo_plan_free(&plan);
}

static void test_text_lines(void **state)
{
	struct halo_ctx ctx = { .mode = HALO_MODE_APPLY };
	struct halo_plan plan;
	int bits = sample(&plan);
	char *out = text_of(&ctx, &plan, bits);

	assert_string_equal(out,
		"changed         boot/param/iommu            iommu=pt (was: absent)\n"
		"pending-reboot  boot/param/ttm.pages_limit  ttm.pages_limit=32505856 (was: ttm.pages_limit=100)\n"
		"failed          file/etc/default/grub       mode 0644, 10 bytes (observed: mode 0644, 9 bytes); writing /etc/default/grub: Read-only file system\n"
		"warning: GTT above ROCm's ceiling\n"
		"apply: 4 items, 1 ok, 1 changed, 1 pending-reboot, 1 failed; reboot required\n");
	free(out);

	/* --diff adds the diffs after the lines, before the summary. */
	ctx.diff = true;
	out = text_of(&ctx, &plan, bits);
	assert_non_null(strstr(out, "warning: GTT above ROCm's ceiling\n--- a/etc/default/grub\n"));
	assert_non_null(strstr(out, "+b\napply: 4 items"));
	free(out);

	/* -v shows the ok item too; -q only failures and the summary. */
	ctx.diff = false;
	ctx.verbosity = 1;
	out = text_of(&ctx, &plan, bits);
	assert_non_null(strstr(out, "ok              boot/param/pci              pci=realloc\n"));
	free(out);
	ctx.verbosity = -1;
	out = text_of(&ctx, &plan, bits);
	assert_string_equal(out,
		"failed          file/etc/default/grub  mode 0644, 10 bytes (observed: mode 0644, 9 bytes); writing /etc/default/grub: Read-only file system\n"
		"apply: 4 items, 1 ok, 1 changed, 1 pending-reboot, 1 failed; reboot required\n");
	free(out);
	halo_plan_free(&plan);
}

static void test_text_drift(void **state)
{
	struct halo_ctx ctx = { .mode = HALO_MODE_CHECK };
	struct halo_plan plan;
	char *out;

	halo_plan_init(&plan);
	add(&plan, "link/rdma0/mtu", HALO_OUTCOME_DRIFT, "9000", "1500");
	add(&plan, "roce/rdma0/ecn", HALO_OUTCOME_UNSUPPORTED, "3", NULL)->message =
		strdup("the driver has no ECN knob");
	out = text_of(&ctx, &plan, HALO_EXIT_CHANGED);
	assert_string_equal(out,
		"drift           link/rdma0/mtu  9000 (observed: 1500)\n"
		"unsupported     roce/rdma0/ecn  3; the driver has no ECN knob\n"
		"check: 2 items, 1 drift, 1 unsupported\n");
	free(out);
	halo_plan_free(&plan);
}

/* The longest line of TEXT, in bytes. */
static size_t longest_line(const char *text)
{
	size_t max = 0;

	for (const char *s = text; *s;) {
		size_t n = strcspn(s, "\n");

		max = n > max ? n : max;
		s += n + (s[n] == '\n');
	}
	return max;
}

/* A boot item's observed value is a whole kernel command line (300 and
 * more bytes): lines stay within 120 columns by cutting the value, then
 * leaving it out, then cutting the message; -v shows everything. */
static void test_text_width(void **state)
{
	struct halo_ctx ctx = { .mode = HALO_MODE_CHECK };
	struct halo_plan plan;
	char observed[1024], *out;
	struct halo_item *it;

	snprintf(observed, sizeof(observed), "/boot/grub/grub.cfg: BOOT_IMAGE=/vmlinuz-6.12.9-amd64 "
		 "root=UUID=0d1c2b3a-4f5e-6d7c-8b9a-0a1b2c3d4e5f ro console=tty1 console=ttyS0,115200n8 "
		 "quiet splash iommu=pt amd_iommu=on pcie_aspm=off pci=realloc "
		 "ttm.pages_limit=32505856 ttm.page_pool_size=32505856 amd_pstate=active "
		 "amdgpu.cwsr_enable=0 transparent_hugepage=always systemd.unified_cgroup_hierarchy=1 "
		 "a_parameter_that_is_far_too_long_to_fit_on_any_line_of_the_report_without_a_blank_in_it_at_all_xxxxxxxxxxxxxxxxxxxxxxxxxxx");
	halo_plan_init(&plan);
	it = add(&plan, "boot/regenerate", HALO_OUTCOME_DRIFT, "update-grub", observed);
	assert_true(strlen(observed) > 300);

	/* The host's value is cut to fit. */
	out = text_of(&ctx, &plan, HALO_EXIT_CHANGED);
	assert_string_equal(out, "drift           boot/regenerate  update-grub (observed: /boot/grub/grub.cfg: BOOT_IMAGE=/vmlinuz-6...) (-v: in full)\n"
				 "check: 1 item, 1 drift\n");
	assert_true(longest_line(out) <= 120);
	free(out);

	/* With a message: the host's value gives way as far as it can (40
	 * bytes), then is left to -v; the message stays whole when it fits. */
	assert_int_equal(halo_item_set_message(it, "run it in the image"), 0);
	out = text_of(&ctx, &plan, HALO_EXIT_CHANGED);
	assert_string_equal(out, "drift           boot/regenerate  update-grub; run it in the image (-v: in full)\n"
				 "check: 1 item, 1 drift\n");
	free(out);

	/* A message too long for the line is cut last, at a blank. */
	assert_int_equal(halo_item_set_message(it, "regenerate, then reboot (not yet in /boot/loader/entries/"
					       "0123456789abcdef0123456789abcdef-6.12.9-200.fc43.x86_64.conf)"), 0);
	out = text_of(&ctx, &plan, HALO_EXIT_CHANGED);
	assert_string_equal(out, "drift           boot/regenerate  update-grub; regenerate, then reboot (not yet in /boot/loader/entri... (-v: in full)\n"
				 "check: 1 item, 1 drift\n");
	assert_true(longest_line(out) <= 120);
	free(out);

	/* A failed item's host value is cut, never left out, and its
	 * message stays whole. */
	it->outcome = HALO_OUTCOME_FAILED;
	out = text_of(&ctx, &plan, HALO_EXIT_FAILED);
	assert_non_null(strstr(out, "(observed: /boot/grub/grub.cfg: BOOT_IMAGE=/vmli...); regenerate, then reboot "
				    "(not yet in /boot/loader/entries/0123456789abcdef0123456789abcdef-6.12.9-200.fc43.x86_64.conf) "
				    "(-v: in full)\n"));
	free(out);
	it->outcome = HALO_OUTCOME_DRIFT;

	/* A wanted value that is a command to paste is cut too, to keep
	 * the line within 120 columns, but only at a blank: what is shown
	 * ends where one of the command's words does. */
	free(it->wanted);
	it->wanted = strdup("grubby --update-kernel=ALL '--args=iommu=pt ttm.pages_limit=31457280 "
			    "amdgpu.gttsize=122880 pcie_aspm=off pci=realloc' --remove-args='rhgb quiet'");
	assert_non_null(it->wanted);
	assert_int_equal(halo_item_set_message(it, "run it in the image"), 0);
	it->wanted_command = true;
	out = text_of(&ctx, &plan, HALO_EXIT_CHANGED);
	assert_true(strcspn(out, "\n") <= 120);
	{
		const char *shown = strstr(out, "grubby "), *dots;
		size_t len;

		assert_non_null(shown);
		dots = strstr(shown, "...");
		assert_non_null(dots);
		len = strlen(shown) - strlen(dots);
		assert_true(len > 0 && len < strlen(it->wanted));
		assert_memory_equal(shown, it->wanted, len);
		assert_int_equal(it->wanted[len], ' ');
	}
	assert_non_null(strstr(out, "; run it in the image (-v: in full)\n"));
	free(out);

	/* -v: every value whole, on the item's one line. */
	ctx.verbosity = 1;
	out = text_of(&ctx, &plan, HALO_EXIT_CHANGED);
	assert_non_null(strstr(out, observed));
	assert_null(strstr(out, "(-v: in full)"));
	assert_string_equal(strchr(out, '\n'), "\ncheck: 1 item, 1 drift\n");
	free(out);
	halo_plan_free(&plan);

	/* Values that fit are never cut, however long the key; keys align
	 * on a column of at most 28, a longer one pushes its line alone. */
	halo_plan_init(&plan);
	ctx.verbosity = 0;
	add(&plan, "file/etc/systemd/system/halo-provision-audit.timer.d/zz-halo-provision-shortened.conf",
	    HALO_OUTCOME_DRIFT, "mode 0644, 100 bytes", "mode 0600, 90 bytes");
	add(&plan, "boot/param/iommu", HALO_OUTCOME_DRIFT, "iommu=pt", NULL);
	out = text_of(&ctx, &plan, HALO_EXIT_CHANGED);
	assert_non_null(strstr(out, "-shortened.conf  mode 0644, 100 bytes (observed: mode 0600, 90 bytes)\n"));
	assert_non_null(strstr(out, "\ndrift           boot/param/iommu              iommu=pt (observed: absent)\n"));
	free(out);
	halo_plan_free(&plan);

	/* A long key leaves a note too little room even at its floor: the
	 * note goes to -v when the line then fits; a line too long either
	 * way keeps its note at the floor. Short values always stay. */
	halo_plan_init(&plan);
	it = add(&plan, "file/etc/security/limits.d/90-halo-provision.conf",
		 HALO_OUTCOME_DRIFT, "mode 0644, 381 bytes", NULL);
	assert_int_equal(halo_item_set_note(it, "pam_limits reads it at the next login of each user"), 0);
	it = add(&plan, "file/etc/systemd/system.conf.d/90-halo-provision.conf",
		 HALO_OUTCOME_DRIFT, "mode 0644, 350 bytes", NULL);
	assert_int_equal(halo_item_set_note(it, "the system manager reads it when it starts"), 0);
	out = text_of(&ctx, &plan, HALO_EXIT_CHANGED);
	assert_string_equal(out,
		"drift           file/etc/security/limits.d/90-halo-provision.conf  "
		"mode 0644, 381 bytes (observed: absent) (-v: in full)\n"
		"drift           file/etc/systemd/system.conf.d/90-halo-provision.conf  "
		"mode 0644, 350 bytes (observed: absent); the system manager... (-v: in full)\n"
		"check: 2 items, 2 drift\n");
	assert_true(strcspn(out, "\n") <= 120);
	free(out);

	/* Failed, the same item keeps its host value and its note whole. */
	it->outcome = HALO_OUTCOME_FAILED;
	out = text_of(&ctx, &plan, HALO_EXIT_FAILED);
	assert_non_null(strstr(out, "90-halo-provision.conf  mode 0644, 350 bytes (observed: absent); "
				    "the system manager reads it when it starts\n"));
	free(out);
	halo_plan_free(&plan);
}

/* One item in both documents, field order and all: the report and the
 * state file must keep their exact bytes (docs/json-schema.md). */
static void test_item_json_views(void **state)
{
	struct halo_ctx ctx = { .registry = &halo_registry };
	struct halo_plan plan;
	struct halo_item *it;
	struct json_object *o;

	halo_plan_init(&plan);
	it = add(&plan, "file/etc/x", HALO_OUTCOME_CHANGED, "mode 0644, 2 bytes", "mode 0644, 2 bytes");
	it->changed = true;
	it->was = strdup("absent");
	it->diff = strdup("+a\n");
	assert_int_equal(halo_item_set_message(it, "message"), 0);
	assert_int_equal(halo_item_set_note(it, "note"), 0);

	o = halo_item_json(&ctx, it, HALO_ITEM_JSON_RUN);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
		"{\"key\":\"file\\/etc\\/x\",\"subsystem\":\"boot\","
		"\"wanted\":\"mode 0644, 2 bytes\",\"observed\":\"mode 0644, 2 bytes\","
		"\"was\":\"absent\",\"outcome\":\"changed\",\"changed\":true,"
		"\"message\":\"message\",\"note\":\"note\",\"diff\":\"+a\\n\"}");
	json_object_put(o);
	/* The host after the run: changed is ok, and ok has no message. */
	o = halo_item_json(&ctx, it, HALO_ITEM_JSON_HOST);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
		"{\"key\":\"file\\/etc\\/x\",\"subsystem\":\"boot\","
		"\"wanted\":\"mode 0644, 2 bytes\",\"observed\":\"mode 0644, 2 bytes\","
		"\"outcome\":\"ok\",\"message\":null}");
	json_object_put(o);

	/* Not changed: no "was" in the report even if the engine kept one;
	 * an empty diff is null; a drift keeps its message in the state. */
	it->changed = false;
	it->outcome = HALO_OUTCOME_DRIFT;
	it->diff[0] = '\0';
	o = halo_item_json(&ctx, it, HALO_ITEM_JSON_RUN);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
		"{\"key\":\"file\\/etc\\/x\",\"subsystem\":\"boot\","
		"\"wanted\":\"mode 0644, 2 bytes\",\"observed\":\"mode 0644, 2 bytes\","
		"\"was\":null,\"outcome\":\"drift\",\"changed\":false,"
		"\"message\":\"message\",\"note\":\"note\",\"diff\":null}");
	json_object_put(o);
	o = halo_item_json(&ctx, it, HALO_ITEM_JSON_HOST);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
		"{\"key\":\"file\\/etc\\/x\",\"subsystem\":\"boot\","
		"\"wanted\":\"mode 0644, 2 bytes\",\"observed\":\"mode 0644, 2 bytes\","
		"\"outcome\":\"drift\",\"message\":\"message\"}");
	json_object_put(o);
	halo_plan_free(&plan);
}

static void test_json(void **state)
{
	struct halo_ctx ctx = { .mode = HALO_MODE_APPLY, .root = "/tmp/r", .files_written = 3,
				.registry = &halo_registry };
	struct halo_config cfg = { .path = (char *)"/tmp/r/etc/halo.conf" };
	struct json_object *o, *v, *items, *it;
	struct halo_plan plan;
	int bits = sample(&plan);

	cfg.text = (char *)"abc";
	cfg.text_len = 3;
	o = halo_report_json(&ctx, &cfg, &plan, bits);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "schema_version", &v));
	assert_int_equal(json_object_get_int(v), 1);
	json_object_object_get_ex(o, "tool", &v);
	assert_string_equal(json_object_get_string(v), "halo-provision");
	json_object_object_get_ex(o, "version", &v);
	assert_string_equal(json_object_get_string(v), PACKAGE_VERSION);
	json_object_object_get_ex(o, "mode", &v);
	assert_string_equal(json_object_get_string(v), "apply");
	json_object_object_get_ex(o, "root", &v);
	assert_string_equal(json_object_get_string(v), "/tmp/r");
	json_object_object_get_ex(o, "changed", &v);
	assert_true(json_object_get_boolean(v));
	json_object_object_get_ex(o, "failed", &v);
	assert_true(json_object_get_boolean(v));
	json_object_object_get_ex(o, "reboot_required", &v);
	assert_true(json_object_get_boolean(v));
	json_object_object_get_ex(o, "exit_code", &v);
	assert_int_equal(json_object_get_int(v), 14);
	json_object_object_get_ex(o, "msg", &v);
	assert_string_equal(json_object_get_string(v),
			    "apply: 4 items, 1 ok, 1 changed, 1 pending-reboot, 1 failed; reboot required");
	assert_true(json_object_object_get_ex(o, "config", &v));
	assert_true(json_object_object_get_ex(v, "digest", &v));
	assert_string_equal(json_object_get_string(v),
			    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	assert_true(json_object_object_get_ex(o, "summary", &v));
	assert_true(json_object_object_get_ex(v, "pending-reboot", &v));
	assert_int_equal(json_object_get_int(v), 1);
	assert_true(json_object_object_get_ex(o, "stats", &v));
	assert_true(json_object_object_get_ex(v, "files_written", &v));
	assert_int_equal(json_object_get_int(v), 3);
	assert_true(json_object_object_get_ex(o, "warnings", &v));
	assert_int_equal(json_object_array_length(v), 1);

	assert_true(json_object_object_get_ex(o, "items", &items));
	assert_int_equal(json_object_array_length(items), 4);
	it = json_object_array_get_idx(items, 3);
	json_object_object_get_ex(it, "key", &v);
	assert_string_equal(json_object_get_string(v), "file/etc/default/grub");
	json_object_object_get_ex(it, "outcome", &v);
	assert_string_equal(json_object_get_string(v), "failed");
	json_object_object_get_ex(it, "subsystem", &v);
	assert_string_equal(json_object_get_string(v), "boot");
	json_object_object_get_ex(it, "diff", &v);
	assert_non_null(strstr(json_object_get_string(v), "+b\n"));
	it = json_object_array_get_idx(items, 0);
	assert_true(json_object_object_get_ex(it, "message", &v));
	assert_null(v); /* JSON null */
	json_object_put(o);
	halo_plan_free(&plan);
}

static void test_json_errors(void **state)
{
	struct halo_ctx ctx = { .mode = HALO_MODE_CHECK, .root = "/" };
	struct halo_errors errs = { 0 };
	struct json_object *o, *v;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	halo_errors_add(&errs, "halo.conf:3: unknown key 'bogus'");
	halo_errors_add(&errs, "halo.conf:9: mtu out of range");
	assert_int_equal(halo_report_json_result(f, &ctx, "halo.conf", NULL, &errs, NULL, 1), 0);
	fclose(f);
	o = json_tokener_parse(buf);
	assert_non_null(o);
	json_object_object_get_ex(o, "failed", &v);
	assert_true(json_object_get_boolean(v));
	json_object_object_get_ex(o, "changed", &v);
	assert_false(json_object_get_boolean(v));
	json_object_object_get_ex(o, "exit_code", &v);
	assert_int_equal(json_object_get_int(v), 1);
	json_object_object_get_ex(o, "msg", &v);
	assert_string_equal(json_object_get_string(v), "halo.conf:3: unknown key 'bogus'");
	json_object_object_get_ex(o, "errors", &v);
	assert_int_equal(json_object_array_length(v), 2);
	json_object_object_get_ex(o, "mode", &v);
	assert_string_equal(json_object_get_string(v), "check");
	json_object_put(o);
	free(buf);
	halo_errors_free(&errs);
}

/* config.path of the document JSON of RESULT (caller frees). */
static char *result_config_path(const struct halo_ctx *ctx, const char *config_path)
{
	struct json_object *o, *c, *v;
	char *buf = NULL, *path;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(halo_report_json_result(f, ctx, config_path, NULL, NULL,
						 "unknown option '--bogus'", 1), 0);
	fclose(f);
	o = json_tokener_parse(buf);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "config", &c));
	assert_true(json_object_object_get_ex(c, "path", &v));
	assert_true(json_object_is_type(v, json_type_string));
	path = strdup(json_object_get_string(v));
	json_object_put(o);
	free(buf);
	return path;
}

/* A usage error comes before the options are parsed: no config path yet.
 * The document still names the file the run would have read, the default
 * one inside the root (the schema has no null path). */
static void test_json_default_config_path(void **state)
{
	struct halo_ctx ctx = { .mode = HALO_MODE_APPLY, .root = "/" };
	char *path;

	path = result_config_path(&ctx, NULL);
	assert_string_equal(path, "/etc/halo-provision/halo.conf");
	free(path);
	ctx.root = "/tmp/r/";
	path = result_config_path(&ctx, NULL);
	assert_string_equal(path, "/tmp/r/etc/halo-provision/halo.conf");
	free(path);
	ctx.root = NULL;
	path = result_config_path(&ctx, NULL);
	assert_string_equal(path, "/etc/halo-provision/halo.conf");
	free(path);
	/* A path the CLI got is shown as given. */
	ctx.root = "/tmp/r";
	path = result_config_path(&ctx, "my.conf");
	assert_string_equal(path, "my.conf");
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_text_lines),
		cmocka_unit_test(test_text_drift),
		cmocka_unit_test(test_text_width),
		cmocka_unit_test(test_item_json_views),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_errors),
		cmocka_unit_test(test_json_default_config_path),
	};

	return cmocka_run_group_tests_name("engine-report", tests, NULL, NULL);
}
