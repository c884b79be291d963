/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine.h: runs check, dry-run and apply over a plan. */
#pragma once

#include "engine/plan.h"
#include "halo.h"
#include "util/errors.h"

/* The steps the run (run.h) takes over a plan. */
/* Drops the items of subsystems --only did not select. */
void halo_engine_filter(const struct halo_ctx *ctx, struct halo_plan *plan);
/* Observes items FROM..n and sets their first outcome. With ERRS, an
 * INVALID observation is added there and the result is -EINVAL (nothing
 * may change); without (after a phase has applied), it is a failed item. */
int halo_engine_observe(struct halo_ctx *ctx, struct halo_plan *plan,
			size_t from, struct halo_errors *errs);
/* Whether an item of PHASE drifts: applying it would change the host. */
bool halo_engine_phase_drifts(const struct halo_plan *plan, enum halo_phase phase);
/* Removes the temp files a run killed between temp file and rename left
 * beside the file of every item FROM..n that writes one whole
 * (item->path), also when that file is right and will not be written.
 * A change like any other: only once the run has passed every check
 * before the first change (apply mode). A removal that fails fails its
 * item. */
void halo_engine_clean_temps(struct halo_ctx *ctx, struct halo_plan *plan, size_t from);
/* Applies the drifting items of PHASE (apply mode). */
void halo_engine_apply_phase(struct halo_ctx *ctx, struct halo_plan *plan,
			     enum halo_phase phase);
/* Verifies what was applied (apply mode); returns the exit bits. */
int halo_engine_finish(struct halo_ctx *ctx, struct halo_plan *plan);

/* The exit bits that the outcomes of PLAN give in ctx->mode. */
int halo_plan_exit_bits(const struct halo_ctx *ctx, const struct halo_plan *plan);
