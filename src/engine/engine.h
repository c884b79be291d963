/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine.h: runs check, dry-run and apply over a plan. */
#pragma once

#include "engine/plan.h"
#include "halo.h"
#include "util/errors.h"

/*
 * Observes every item; an observation of HALO_SYNC_INVALID stops the run
 * before anything changes (its message goes to ERRS; returns -EINVAL).
 * In apply mode applies the differing items phase by phase and observes
 * them again. Sets every item's outcome and returns the exit bitmask
 * (HALO_EXIT_CHANGED | HALO_EXIT_FAILED | HALO_EXIT_REBOOT) for the mode.
 */
int halo_engine_run(struct halo_ctx *ctx, struct halo_plan *plan,
		    struct halo_errors *errs);

/* The exit bits that the outcomes of PLAN give in ctx->mode. */
int halo_plan_exit_bits(const struct halo_ctx *ctx, const struct halo_plan *plan);
