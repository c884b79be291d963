/* SPDX-License-Identifier: GPL-2.0-or-later */
/* netns.c: --netns NAME, the way `ip netns exec` finds a namespace. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "net/nl.h"

bool halo_netns_name_valid(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	return n > 0 && n < 256 && !strchr(name, '/') && strcmp(name, ".") != 0 &&
	       strcmp(name, "..") != 0;
}

int halo_netns_enter(const struct halo_ctx *ctx)
{
	char path[300];
	_cleanup_close_ int fd = -1;

	if (!ctx->netns)
		return 0;
	if (!halo_netns_name_valid(ctx->netns))
		return -EINVAL;
	/* A host path on purpose: namespaces belong to the running kernel,
	 * whatever tree --root points at. */
	snprintf(path, sizeof(path), "/run/netns/%s", ctx->netns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* Entering the namespace we are already in is harmless, so repeated
	 * calls (links, then RoCE) need no bookkeeping. */
	if (setns(fd, CLONE_NEWNET) < 0)
		return -errno;
	return 0;
}
