/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine-test.h: a scratch --root for the engine's unit tests. */
#pragma once

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "halo.h"
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
	ctx->only = HALO_SUB_ALL;
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
