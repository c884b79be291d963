/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_json.c: the --json document (docs/json-schema.md). One of the
 * three files that include json-c; item_json.c maps each item. Ansible
 * ignores exit codes when stdout is JSON, so changed/failed/reboot_required
 * are explicit fields.
 */
#include "config.h"

#include <errno.h>

#include <json-c/json.h>

#include "engine/report.h"
#include "engine/subsystem.h"
#include "util/rootfs.h"

static struct json_object *jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL; /* NULL is JSON null */
}

/* The fields every document starts with. config.path is never null: with
 * no path given (a usage error comes before the options are parsed) it is
 * the default config inside the root, the file the run would have read. */
static struct json_object *json_head(const struct halo_ctx *ctx,
				     const char *config_path,
				     const struct halo_config *cfg, int exit_code)
{
	_cleanup_free_ char *default_path = NULL;
	struct json_object *o, *c;
	char digest[65];

	if (cfg && cfg->path)
		config_path = cfg->path;
	if (!config_path) {
		default_path = halo_root_display_path(ctx, HALO_CONFIG_DEFAULT_PATH);
		if (!default_path)
			return NULL;
		config_path = default_path;
	}
	o = json_object_new_object();
	if (!o)
		return NULL;
	json_object_object_add(o, "schema_version",
			       json_object_new_int(HALO_JSON_SCHEMA_VERSION));
	json_object_object_add(o, "tool", json_object_new_string(PACKAGE_NAME));
	json_object_object_add(o, "version", json_object_new_string(PACKAGE_VERSION));
	json_object_object_add(o, "mode", json_object_new_string(halo_mode_name(ctx->mode)));
	/* A revert is an apply (or dry-run) that undoes: said apart. */
	if (ctx->revert)
		json_object_object_add(o, "revert", json_object_new_boolean(true));
	json_object_object_add(o, "root", jstr(ctx->root));
	c = json_object_new_object();
	json_object_object_add(c, "path", jstr(config_path));
	json_object_object_add(c, "digest", jstr(cfg ? halo_config_digest(cfg, digest) : NULL));
	json_object_object_add(o, "config", c);
	json_object_object_add(o, "changed",
			       json_object_new_boolean(exit_code != 1 &&
						       (exit_code & HALO_EXIT_CHANGED)));
	json_object_object_add(o, "failed",
			       json_object_new_boolean(exit_code == 1 ||
						       (exit_code & HALO_EXIT_FAILED)));
	json_object_object_add(o, "reboot_required",
			       json_object_new_boolean(exit_code != 1 &&
						       (exit_code & HALO_EXIT_REBOOT)));
	json_object_object_add(o, "exit_code", json_object_new_int(exit_code));
	return o;
}

static struct json_object *json_stats(const struct halo_ctx *ctx)
{
	struct json_object *s = json_object_new_object();

	json_object_object_add(s, "files_written", json_object_new_int64((int64_t)ctx->files_written));
	json_object_object_add(s, "netlink_requests", json_object_new_int64((int64_t)ctx->netlink_requests));
	json_object_object_add(s, "spawned", json_object_new_int64((int64_t)ctx->spawned));
	return s;
}

struct json_object *halo_report_json(const struct halo_ctx *ctx,
				     const struct halo_config *cfg,
				     const struct halo_plan *plan, int exit_bits)
{
	struct json_object *o, *summary, *items, *warnings, *node;
	_cleanup_free_ char *msg = NULL;

	o = json_head(ctx, NULL, cfg, exit_bits);
	if (!o)
		return NULL;
	msg = halo_report_summary(ctx, plan, exit_bits);
	json_object_object_add(o, "msg", jstr(msg));

	summary = json_object_new_object();
	for (enum halo_outcome k = 0; k < HALO_N_OUTCOMES; k++)
		json_object_object_add(summary, halo_outcome_name(k),
				       json_object_new_int64((int64_t)halo_plan_count(plan, k)));
	json_object_object_add(o, "summary", summary);
	/* A full run is a live audit of the whole node: its facts, as the
	 * state file has them, let --cluster compare nodes as they are. */
	node = cfg && !ctx->revert && halo_run_is_full(ctx) && ctx->registry &&
			       ctx->registry->node_facts ?
		       ctx->registry->node_facts(ctx, cfg, plan) : NULL;
	if (node)
		json_object_object_add(o, "node", node);

	items = json_object_new_array();
	for (size_t i = 0; i < plan->n; i++)
		json_object_array_add(items, halo_item_json(ctx, plan->items[i], HALO_ITEM_JSON_RUN));
	json_object_object_add(o, "items", items);

	warnings = json_object_new_array();
	for (size_t i = 0; i < plan->n_warnings; i++)
		json_object_array_add(warnings, jstr(plan->warnings[i]));
	json_object_object_add(o, "warnings", warnings);
	json_object_object_add(o, "stats", json_stats(ctx));
	return o;
}

static int json_put(FILE *out, struct json_object *o)
{
	const char *s;
	int r = 0;

	if (!o)
		return -ENOMEM;
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!s)
		r = -ENOMEM;
	else if (fprintf(out, "%s\n", s) < 0)
		r = -EIO;
	json_object_put(o);
	return r;
}

int halo_report_json_print(FILE *out, const struct halo_ctx *ctx,
			   const struct halo_config *cfg,
			   const struct halo_plan *plan, int exit_bits)
{
	return json_put(out, halo_report_json(ctx, cfg, plan, exit_bits));
}

int halo_report_json_result(FILE *out, const struct halo_ctx *ctx,
			    const char *config_path,
			    const struct halo_config *cfg,
			    const struct halo_errors *errs, const char *msg,
			    int exit_code)
{
	struct json_object *o, *list;

	o = json_head(ctx, config_path, cfg, exit_code);
	if (!o)
		return -ENOMEM;
	if (!msg && errs && errs->n > 0)
		msg = errs->msgs[0];
	if (!msg && errs && errs->oom)
		msg = "out of memory";
	json_object_object_add(o, "msg", jstr(msg ? msg : ""));
	list = json_object_new_array();
	for (size_t i = 0; errs && i < errs->n; i++)
		json_object_array_add(list, jstr(errs->msgs[i]));
	json_object_object_add(o, "errors", list);
	json_object_object_add(o, "items", json_object_new_array());
	json_object_object_add(o, "warnings", json_object_new_array());
	json_object_object_add(o, "stats", json_stats(ctx));
	return json_put(out, o);
}
