/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.h: the one phased driver. Every mode that looks at the host (apply,
 * check, dry-run, and --revert with or without --dry-run) runs through
 * halo_run, over the subsystems of ctx->registry:
 *
 *   lock → records of the last state file → facts (prepare hooks)
 *   → plan the early subsystems, observe them
 *   → resolve the host table, plan the subsystems that need it
 *     (--revert: the plan turned into its undo)
 *   → prove the outputs writable → observe the rest
 *   → apply: phase by phase (after the modules phase, plan again on the
 *     host it brought) → verify → outputs
 *
 * Anything that makes the config impossible stops the run before the
 * first change.
 */
#pragma once

#include "config/halo-config.h"
#include "engine/plan.h"
#include "halo.h"
#include "util/errors.h"

/*
 * Runs ctx->mode for CFG into PLAN. Returns the exit bits of a finished
 * run (>= 0): PLAN holds what to report, and ERRS the lines of outputs
 * that could not be written or parts that could not be planned after a
 * change (to be shown; the bits already say failed). A run stopped before
 * any change returns -EINVAL (usage, config or validation: exit 1) or
 * -EBUSY (the host stopped it: the lock is held, an output cannot be
 * written; exit 4), with the reasons in ERRS.
 */
int halo_run(struct halo_ctx *ctx, const struct halo_config *cfg, struct halo_plan *plan,
	     struct halo_errors *errs);
