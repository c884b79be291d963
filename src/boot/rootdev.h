/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rootdev.h: does a root= device spec name a real block device? The
 * libblkid work lives in util/blkid.h (shared with the model store); this
 * is boot's name for it.
 */
#pragma once

#include "halo.h"

/* True for the specs this resolves: UUID=, LABEL=, PARTUUID=, PARTLABEL=. */
bool halo_rootdev_is_tag(const char *spec);

/* Resolves SPEC to a device path (*ret_dev, caller frees). -ENODEV when
 * nothing matches, -EINVAL for a spec that is not a tag, -errno. */
int halo_rootdev_resolve(struct halo_ctx *ctx, const char *spec,
			 char **ret_dev);
