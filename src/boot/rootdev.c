/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rootdev.c: boot's root= resolution, through util/blkid.h. */
#include "config.h"

#include "boot/rootdev.h"
#include "util/blkid.h"

bool halo_rootdev_is_tag(const char *spec)
{
	return halo_blkid_is_tag(spec);
}

int halo_rootdev_resolve(struct halo_ctx *ctx, const char *spec,
			 char **ret_dev)
{
	return halo_blkid_resolve(ctx, spec, ret_dev);
}
