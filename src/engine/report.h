/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report.h: the views of a finished plan. The only code that prints. */
#pragma once

#include <stdio.h>

/* json-c stays inside report_json.c, state.c and item_json.c. */
struct json_object;

#include "config/halo-config.h"
#include "engine/plan.h"
#include "engine/state.h"
#include "halo.h"

#define HALO_JSON_SCHEMA_VERSION 1

/* Text for people: one aligned line per item that is not ok (all with -v),
 * warnings, the diffs with --diff, a summary line last. */
void halo_report_text(FILE *out, const struct halo_ctx *ctx,
		      const struct halo_plan *plan, int exit_bits);

/* The JSON document (schema in docs/json-schema.md): caller puts it. */
struct json_object *halo_report_json(const struct halo_ctx *ctx,
				     const struct halo_config *cfg,
				     const struct halo_plan *plan, int exit_bits);

/* Which document an item object is for: the --json report describes the
 * run (was, changed, diff, every message); the state file describes the
 * host after it ("changed" recorded as "ok", no message on items in sync,
 * no per-run fields). */
enum halo_item_json_view {
	HALO_ITEM_JSON_RUN,
	HALO_ITEM_JSON_HOST,
};

/* ITEM as a JSON object (docs/json-schema.md); the one mapping both
 * documents use. */
struct json_object *halo_item_json(const struct halo_ctx *ctx, const struct halo_item *item,
				   enum halo_item_json_view view);

/* "apply: 14 items, 10 ok, 3 changed, 1 pending-reboot; reboot required".
 * Caller frees; NULL on ENOMEM. */
char *halo_report_summary(const struct halo_ctx *ctx,
			  const struct halo_plan *plan, int exit_bits);

/* The mode as JSON and the summary name it: "apply", "check", "dry-run",
 * "validate", "status". */
const char *halo_mode_name(enum halo_mode mode);

/* Prints halo_report_json() to OUT, one document. 0 or -errno. */
int halo_report_json_print(FILE *out, const struct halo_ctx *ctx,
			   const struct halo_config *cfg,
			   const struct halo_plan *plan, int exit_bits);

/* The one document of a run that ends before (or without) a plan: errors
 * (exit 1) or --validate. CONFIG_PATH as given, NULL before the options
 * are known (then the default config inside ctx->root is shown); CFG NULL
 * when it did not load. MSG NULL: the first error. */
int halo_report_json_result(FILE *out, const struct halo_ctx *ctx,
			    const char *config_path,
			    const struct halo_config *cfg,
			    const struct halo_errors *errs, const char *msg,
			    int exit_code);

/* --status without --json: the last apply's state file in a few lines
 * (where, when, the tool and kernel, the item counts, the exit bits,
 * whether a reboot is pending), then one line per item not ok; -q: the
 * counts line alone. */
void halo_report_status_text(FILE *out, const struct halo_state_summary *s, int verbosity);

/* --status: the summary above (ctx->verbosity), or with ctx->json the
 * state file of CFG (NULL: the default one) as it is. 0, or -errno with
 * a line in ERRS and nothing printed. */
int halo_report_status(FILE *out, struct halo_ctx *ctx, const struct halo_config *cfg,
		       struct halo_errors *errs);
