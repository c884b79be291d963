/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * item_json.c: one item as a JSON object, the one mapping that the --json
 * report and the state file share (docs/json-schema.md). One of the three
 * files that include json-c.
 */
#include "config.h"

#include <json-c/json.h>

#include "config/halo-config.h"
#include "engine/report.h"
#include "engine/subsystem.h"

static struct json_object *jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL; /* NULL is JSON null */
}

struct json_object *halo_item_json(const struct halo_ctx *ctx, const struct halo_item *item,
				   enum halo_item_json_view view)
{
	struct json_object *o = json_object_new_object();
	bool run = view == HALO_ITEM_JSON_RUN;
	enum halo_outcome outcome = item->outcome;

	/* The host after the run: what this run changed is now simply ok,
	 * and an item in sync carries no message (an apply that changes
	 * nothing rewrites nothing). */
	if (!run && outcome == HALO_OUTCOME_CHANGED)
		outcome = HALO_OUTCOME_OK;
	json_object_object_add(o, "key", jstr(item->key));
	json_object_object_add(o, "subsystem", jstr(halo_subsys_name(ctx, item->subsys)));
	if (item->iface)
		json_object_object_add(o, "interface", jstr(item->iface->name));
	if (item->path)
		json_object_object_add(o, "path", jstr(item->path));
	json_object_object_add(o, "wanted", jstr(item->wanted));
	json_object_object_add(o, "observed", jstr(item->observed));
	if (run)
		json_object_object_add(o, "was", jstr(item->changed ? item->was : NULL));
	json_object_object_add(o, "outcome", jstr(halo_outcome_name(outcome)));
	if (run)
		json_object_object_add(o, "changed", json_object_new_boolean(item->changed));
	json_object_object_add(o, "message",
			       jstr(run || outcome != HALO_OUTCOME_OK ? item->message : NULL));
	if (run)
		json_object_object_add(o, "note", jstr(item->note));
	if (run)
		json_object_object_add(o, "diff",
				       jstr(item->diff && item->diff[0] ? item->diff : NULL));
	return o;
}
