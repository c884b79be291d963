/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state.c: the verification state file. One of the two files that include
 * json-c. It describes the host after the run, not the run itself, so that
 * an apply that changes nothing rewrites nothing: no timestamp, "changed"
 * recorded as "ok", no +2 bit, no messages on items in sync.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <json-c/json.h>

#include "engine/report.h"
#include "engine/state.h"
#include "util/rootfs.h"

#define STATE_SCHEMA_VERSION 1

static struct json_object *jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static struct json_object *state_item(const struct halo_item *item)
{
	struct json_object *o = json_object_new_object();
	enum halo_outcome outcome = item->outcome;

	if (outcome == HALO_OUTCOME_CHANGED)
		outcome = HALO_OUTCOME_OK;
	json_object_object_add(o, "key", jstr(item->key));
	json_object_object_add(o, "subsystem", jstr(halo_subsys_name(item->subsys)));
	json_object_object_add(o, "wanted", jstr(item->wanted));
	json_object_object_add(o, "observed", jstr(item->observed));
	json_object_object_add(o, "outcome", jstr(halo_outcome_name(outcome)));
	json_object_object_add(o, "message",
			       jstr(outcome == HALO_OUTCOME_OK ? NULL : item->message));
	return o;
}

/* With --only, the items of the other subsystems stay as the last apply
 * recorded them, so the file keeps describing the whole host. Appends them
 * to ITEMS and returns the exit bits they carry. An unreadable or foreign
 * file is simply replaced. */
static int keep_other_items(struct halo_ctx *ctx, const char *path,
			    struct json_object *items)
{
	_cleanup_free_ char *old = NULL;
	struct json_object *prev, *v, *list;
	size_t len;
	int bits = 0;

	if ((ctx->only & HALO_SUB_ALL) == HALO_SUB_ALL ||
	    halo_read_file(ctx, path, &old, &len) < 0)
		return 0;
	prev = json_tokener_parse(old);
	if (!prev)
		return 0;
	if (json_object_object_get_ex(prev, "schema_version", &v) &&
	    json_object_get_int(v) == STATE_SCHEMA_VERSION &&
	    json_object_object_get_ex(prev, "items", &list) &&
	    json_object_is_type(list, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(list); i++) {
			struct json_object *it = json_object_array_get_idx(list, i);
			enum halo_subsys sub = 0;
			const char *outcome = "";

			if (json_object_object_get_ex(it, "subsystem", &v) &&
			    json_object_is_type(v, json_type_string))
				sub = halo_subsys_from_name(json_object_get_string(v));
			if (!sub || (sub & ctx->only))
				continue;
			if (json_object_object_get_ex(it, "outcome", &v) &&
			    json_object_is_type(v, json_type_string))
				outcome = json_object_get_string(v);
			if (strcmp(outcome, "pending-reboot") == 0)
				bits |= HALO_EXIT_REBOOT;
			else if (strcmp(outcome, "failed") == 0)
				bits |= HALO_EXIT_FAILED;
			json_object_array_add(items, json_object_get(it));
		}
	}
	json_object_put(prev);
	return bits;
}

int halo_state_write(struct halo_ctx *ctx, const struct halo_config *cfg,
		     const struct halo_plan *plan, int exit_bits)
{
	const char *path = cfg->state.path ? cfg->state.path : HALO_STATE_DEFAULT_PATH;
	struct json_object *o, *c, *items;
	_cleanup_free_ char *text = NULL;
	const char *s;
	int bits = exit_bits & ~HALO_EXIT_CHANGED;

	items = json_object_new_array();
	if (!items)
		return -ENOMEM;
	for (size_t i = 0; i < plan->n; i++)
		json_object_array_add(items, state_item(plan->items[i]));
	bits |= keep_other_items(ctx, path, items);

	o = json_object_new_object();
	if (!o) {
		json_object_put(items);
		return -ENOMEM;
	}
	json_object_object_add(o, "schema_version", json_object_new_int(STATE_SCHEMA_VERSION));
	json_object_object_add(o, "tool", json_object_new_string(PACKAGE_NAME));
	json_object_object_add(o, "version", json_object_new_string(PACKAGE_VERSION));
	c = json_object_new_object();
	json_object_object_add(c, "path", jstr(cfg->path));
	json_object_object_add(c, "digest", jstr(cfg->digest));
	json_object_object_add(o, "config", c);
	json_object_object_add(o, "kernel_release", jstr(ctx->kernel_release));
	json_object_object_add(o, "failed", json_object_new_boolean(bits & HALO_EXIT_FAILED));
	json_object_object_add(o, "reboot_required",
			       json_object_new_boolean(bits & HALO_EXIT_REBOOT));
	json_object_object_add(o, "exit_bits", json_object_new_int(bits));
	json_object_object_add(o, "items", items);

	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (s && asprintf(&text, "%s\n", s) < 0)
		text = NULL;
	json_object_put(o);
	if (!text)
		return -ENOMEM;
	return halo_write_file_atomic(ctx, path, text, strlen(text), 0644);
}
