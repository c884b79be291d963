/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report.h: the views of a finished plan. The only code that prints. */
#pragma once

#include <stdio.h>

#include <json-c/json.h>

#include "config/config.h"
#include "engine/plan.h"
#include "halo.h"

#define HALO_JSON_SCHEMA_VERSION 1

/* Text for people: one aligned line per item that is not ok (all with -v),
 * warnings, the diffs with --diff, a summary line last. */
void halo_report_text(FILE *out, const struct halo_ctx *ctx,
		      const struct halo_plan *plan, int exit_bits);

/* The JSON document (schema in README.md): caller puts it. */
struct json_object *halo_report_json(const struct halo_ctx *ctx,
				     const struct halo_config *cfg,
				     const struct halo_plan *plan, int exit_bits);
