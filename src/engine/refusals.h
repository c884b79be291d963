/* SPDX-License-Identifier: GPL-2.0-or-later */
/* refusals.h: naming the reads the file layer refused (refusals.c). */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "engine/plan.h"
#include "halo.h"
#include "util/errors.h"

/*
 * Every line of ERRS and every item message of PLAN about a read that
 * ctx->refusals holds becomes that refusal's line (one per file). A
 * refusal from FIRST_NEW on that none of them names: BEFORE_CHANGE, a
 * line in ERRS and -1 (stop: exit 1, nothing changed); after the first
 * change, a warning of PLAN and HALO_EXIT_FAILED. 0 when every refusal
 * was named already.
 */
int halo_refusals_name(struct halo_ctx *ctx, struct halo_plan *plan, struct halo_errors *errs,
		       size_t first_new, bool before_change);

/* Drops R's refusal of PATH (a path inside the root), if any: a line the
 * caller adds names that file and why already. R may be NULL. */
void halo_refusals_forget(struct halo_refusals *r, const char *path);
