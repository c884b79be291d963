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

int halo_state_write(struct halo_ctx *ctx, const struct halo_config *cfg,
		     const struct halo_plan *plan, int exit_bits)
{
	const char *path = cfg->state.path ? cfg->state.path : HALO_STATE_DEFAULT_PATH;
	struct json_object *o, *c, *items;
	_cleanup_free_ char *text = NULL;
	const char *s;
	int bits = exit_bits & ~HALO_EXIT_CHANGED;

	o = json_object_new_object();
	if (!o)
		return -ENOMEM;
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
	items = json_object_new_array();
	for (size_t i = 0; i < plan->n; i++)
		json_object_array_add(items, state_item(plan->items[i]));
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
