/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_ansible.c: the Ansible module's answer (report_ansible.h). Items
 * come from item_json.c, the same mapping as --json; messages that point
 * at a line of config_data name its JSON path instead (config/loose.c).
 */
#include "config.h"

#include <errno.h>
#include <json-c/json.h>
#include <string.h>

#include "engine/report.h"
#include "engine/report_ansible.h"
#include "util/strv.h"

static struct json_object *jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* MSG as the user should read it (a config_data path for a line). */
static struct json_object *jmsg(const struct halo_config *cfg, const char *msg)
{
	_cleanup_free_ char *shown = halo_config_message(cfg, msg);

	return jstr(shown ? shown : msg);
}

static struct json_object *head(bool changed, bool failed, bool reboot, int rc)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "changed", json_object_new_boolean(changed));
	json_object_object_add(o, "failed", json_object_new_boolean(failed));
	json_object_object_add(o, "rc", json_object_new_int(rc));
	json_object_object_add(o, "reboot_required", json_object_new_boolean(reboot));
	return o;
}

/* Ansible's diff list: {before_header, after_header, before, after} for a
 * file whose content this run changes (or would change), and the
 * prepared unified diff for any other item that has one. */
static struct json_object *diff_list(const struct halo_plan *plan)
{
	struct json_object *list = json_object_new_array();

	for (size_t i = 0; list && i < plan->n; i++) {
		const struct halo_item *item = plan->items[i];
		const char *before, *after, *path = item->path;
		struct json_object *d;

		if (item->outcome != HALO_OUTCOME_CHANGED && item->outcome != HALO_OUTCOME_DRIFT &&
		    item->outcome != HALO_OUTCOME_PENDING_REBOOT)
			continue;
		if (path && halo_file_item_contents(item, &before, &after)) {
			if (strcmp(before, after) == 0)
				continue; /* only the mode differs */
			d = json_object_new_object();
			json_object_object_add(d, "before_header", jstr(path));
			json_object_object_add(d, "after_header", jstr(path));
			json_object_object_add(d, "before", jstr(before));
			json_object_object_add(d, "after", jstr(after));
		} else if (item->diff && item->diff[0]) {
			d = json_object_new_object();
			json_object_object_add(d, "prepared", jstr(item->diff));
		} else {
			continue;
		}
		json_object_array_add(list, d);
	}
	return list;
}

/* The first failed item, as "KEY: message". */
static char *first_failure(const struct halo_plan *plan)
{
	for (size_t i = 0; i < plan->n; i++) {
		const struct halo_item *item = plan->items[i];

		if (item->outcome == HALO_OUTCOME_FAILED)
			return halo_strdup_printf("%s: %s", item->key,
						  item->message ? item->message : "failed");
	}
	return NULL;
}

static int put(FILE *out, struct json_object *o)
{
	const char *s;
	int r = 0;

	if (!o)
		return -ENOMEM;
	/* One line: nothing a reader could take for a second document. */
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!s)
		r = -ENOMEM;
	else if (fprintf(out, "%s\n", s) < 0 || fflush(out) != 0)
		r = -EIO;
	json_object_put(o);
	return r;
}

int halo_report_ansible_print(FILE *out, const struct halo_ctx *ctx,
			      const struct halo_config *cfg, const struct halo_plan *plan,
			      int exit_bits, bool diff)
{
	bool failed = exit_bits & HALO_EXIT_FAILED;
	_cleanup_free_ char *summary = halo_report_summary(ctx, plan, exit_bits);
	char digest[65];
	_cleanup_free_ char *failure = failed ? first_failure(plan) : NULL;
	struct json_object *o, *items, *warnings;

	o = head(exit_bits & HALO_EXIT_CHANGED, failed, exit_bits & HALO_EXIT_REBOOT, exit_bits);
	if (!o)
		return -ENOMEM;
	/* A failure without a failed item is a write after the run (the
	 * state file): its warning says what. */
	if (failed && !failure && plan->n_warnings > 0)
		failure = strdup(plan->warnings[plan->n_warnings - 1]);
	json_object_object_add(o, "msg", failure ? jmsg(cfg, failure) : jstr(summary ? summary : ""));
	json_object_object_add(o, "summary", jstr(summary));
	json_object_object_add(o, "mode", jstr(halo_mode_name(ctx->mode)));
	json_object_object_add(o, "revert", json_object_new_boolean(ctx->revert));
	json_object_object_add(o, "config_digest", jstr(cfg ? halo_config_digest(cfg, digest) : NULL));
	items = json_object_new_array();
	for (size_t i = 0; items && i < plan->n; i++)
		json_object_array_add(items, halo_item_json(ctx, plan->items[i], HALO_ITEM_JSON_RUN));
	json_object_object_add(o, "items", items);
	if (diff)
		json_object_object_add(o, "diff", diff_list(plan));
	warnings = json_object_new_array();
	for (size_t i = 0; warnings && i < plan->n_warnings; i++)
		json_object_array_add(warnings, jmsg(cfg, plan->warnings[i]));
	json_object_object_add(o, "warnings", warnings);
	return put(out, o);
}

int halo_report_ansible_error(FILE *out, const struct halo_config *cfg,
			      const struct halo_errors *errs, int exit_code, bool diff)
{
	struct json_object *o = head(false, true, false, exit_code), *list;
	const char *first = errs && errs->n > 0 ? errs->msgs[0] : "out of memory";

	if (!o)
		return -ENOMEM;
	json_object_object_add(o, "msg", jmsg(cfg, first));
	list = json_object_new_array();
	for (size_t i = 0; list && errs && i < errs->n; i++)
		json_object_array_add(list, jmsg(cfg, errs->msgs[i]));
	json_object_object_add(o, "errors", list);
	json_object_object_add(o, "items", json_object_new_array());
	if (diff)
		json_object_object_add(o, "diff", json_object_new_array());
	json_object_object_add(o, "warnings", json_object_new_array());
	return put(out, o);
}
