/* SPDX-License-Identifier: GPL-2.0-or-later */
/* root-test.h: a scratch --root for the unit tests, and a shell in it to
 * lay out what each test puts there. */
#pragma once

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

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

/* Runs SCRIPT in a shell whose working directory is ROOT; the test fails
 * unless it exits 0. */
static inline void sh(const char *root, const char *script)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), "cd '%s' && %s", root, script);
	assert_int_equal(system(cmd), 0);
}

/* A cmocka fixture that is a scratch root and nothing more. */
struct root_fixture {
	char root[64];
	struct halo_ctx ctx;
};

/* Setup: a root_fixture in *STATE, its root tagged TAG and laid out by
 * the shell SCRIPT (NULL: empty). 0 or -1. */
static inline int root_fixture_setup(void **state, const char *tag, const char *script)
{
	struct root_fixture *fx = calloc(1, sizeof(*fx));

	if (!fx || scratch_root_open(&fx->ctx, fx->root, tag) < 0) {
		free(fx);
		return -1;
	}
	*state = fx;
	if (script)
		sh(fx->root, script);
	return 0;
}

/* Teardown of root_fixture_setup. 0 or -1. */
static inline int root_fixture_teardown(void **state)
{
	struct root_fixture *fx = *state;
	int r = scratch_root_remove(&fx->ctx);

	free(fx);
	return r;
}
