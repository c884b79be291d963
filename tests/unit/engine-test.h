/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine-test.h: a scratch --root for the engine's unit tests. */
#pragma once

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "halo.h"
#include "subsystems.h"
#include "util/rootfs.h"

/* Makes /tmp/test-TAG.XXXXXX in DIR (64 bytes) and points CTX at it as an
 * --root run over every subsystem. 0 or -1. */
static inline int scratch_root_open(struct halo_ctx *ctx, char *dir, const char *tag)
{
	snprintf(dir, 64, "/tmp/test-%s.XXXXXX", tag);
	if (!mkdtemp(dir))
		return -1;
	ctx->root = dir;
	ctx->under_root = true;
	ctx->registry = &halo_registry;
	ctx->only = halo_registry_default_mask(&halo_registry);
	return halo_root_open(dir, &ctx->root_fd) < 0 ? -1 : 0;
}

/* Closes the root and removes the tree. 0 or -1. */
static inline int scratch_root_remove(struct halo_ctx *ctx)
{
	char cmd[128];

	close(ctx->root_fd);
	ctx->root_fd = -1;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", ctx->root);
	return system(cmd) == 0 ? 0 : -1;
}

/* The engine's steps over a plan made beforehand: observe (an INVALID
 * observation: -EINVAL), apply phase by phase in apply mode, verify.
 * The exit bits. What a run (engine/run.c) does around them, planning,
 * the lock, the outputs, is not the subject of the tests that use it. */
static inline int engine_steps(struct halo_ctx *ctx, struct halo_plan *plan,
			       struct halo_errors *errs)
{
	halo_engine_filter(ctx, plan);
	if (halo_engine_observe(ctx, plan, 0, errs) < 0)
		return -EINVAL;
	if (ctx->mode == HALO_MODE_APPLY)
		for (int p = HALO_PHASE_MODULES; p <= HALO_PHASE_BOOT; p++)
			halo_engine_apply_phase(ctx, plan, (enum halo_phase)p);
	return halo_engine_finish(ctx, plan);
}
