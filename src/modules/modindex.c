/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * modindex.c: the root's modules.dep.bin, mapped once a run. The amdgpu
 * build probe (dkms.c) and the native module reader (native.c) both look
 * names up in it; mapping it once spares the second open, map, page fault
 * and unmapping. A run that has written a file or spawned a program since
 * (depmod may have run) maps it anew.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "modules/internal.h"
#include "util/rootfs.h"
#include "util/strv.h"

struct halo_modindex {
	const void *map;
	size_t len;
	int err;             /* why it could not be mapped, or 0 */
	unsigned long stamp; /* files_written + spawned when it was mapped */
};

int halo_modindex_get(struct halo_ctx *ctx, const void **ret_map, size_t *ret_len)
{
	struct halo_modindex *ix = ctx->modindex;
	unsigned long stamp = ctx->files_written + ctx->spawned;
	_cleanup_free_ char *path = NULL;

	if (ix && ix->stamp != stamp) {
		halo_modindex_release(ctx);
		ix = NULL;
	}
	if (!ix) {
		path = halo_strdup_printf("/lib/modules/%s/modules.dep.bin", ctx->kernel_release);
		ix = calloc(1, sizeof(*ix));
		if (!path || !ix) {
			free(ix);
			return -ENOMEM;
		}
		/* Mapped: a lookup touches a few pages of it, not all. */
		ix->err = halo_root_map_file(ctx, path, &ix->map, &ix->len);
		if (ix->err == -ENOMEM) {
			free(ix);
			return -ENOMEM; /* not kept: a later call may succeed */
		}
		ix->stamp = stamp;
		ctx->modindex = ix;
	}
	*ret_map = ix->map;
	*ret_len = ix->len;
	return ix->err;
}

void halo_modindex_release(struct halo_ctx *ctx)
{
	struct halo_modindex *ix = ctx->modindex;

	if (!ix)
		return;
	if (ix->err == 0)
		halo_root_unmap_file(ix->map, ix->len);
	free(ix);
	ctx->modindex = NULL;
}
