/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine-test.h: the engine's steps for its unit tests, over a scratch
 * --root (root-test.h). */
#pragma once

#include <errno.h>

#include "engine/engine.h"
#include "halo.h"
#include "root-test.h"

/* The engine's steps over a plan made beforehand: observe (an INVALID
 * observation: -EINVAL), apply phase by phase in apply mode, verify.
 * Leftover temp files are cleaned before the first apply, as the run
 * does once its checks have passed. The exit bits. What a run (engine/run.c) does around them, planning,
 * the lock, the outputs, is not the subject of the tests that use it. */
static inline int engine_steps(struct halo_ctx *ctx, struct halo_plan *plan,
			       struct halo_errors *errs)
{
	halo_engine_filter(ctx, plan);
	if (halo_engine_observe(ctx, plan, 0, errs) < 0)
		return -EINVAL;
	if (ctx->mode == HALO_MODE_APPLY) {
		halo_engine_clean_temps(ctx, plan, 0);
		for (int p = HALO_PHASE_MODULES; p <= HALO_PHASE_BOOT; p++)
			halo_engine_apply_phase(ctx, plan, (enum halo_phase)p);
	}
	return halo_engine_finish(ctx, plan);
}
