/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rootdev.h: does a root= device spec name a real block device?
 *
 * On the host (root "/"), libblkid's usual evaluation (udev symlinks, its
 * cache, probing). Under --root, only the libblkid cache file inside the
 * root (/run/blkid/blkid.tab) is consulted: it is read through the root
 * confined file layer into a private memory file, so libblkid never
 * writes into the tree, and every matching entry is re-probed
 * (blkid_verify) so a stale entry does not count. An entry may name a
 * plain image file (that is how tests and image builds point root= at a
 * file system).
 */
#pragma once

#include "halo.h"

/* True for the specs this resolves: UUID=, LABEL=, PARTUUID=, PARTLABEL=. */
bool halo_rootdev_is_tag(const char *spec);

/* Resolves SPEC to a device path (*ret_dev, caller frees). -ENODEV when
 * nothing matches, -EINVAL for a spec that is not a tag, -errno. */
int halo_rootdev_resolve(struct halo_ctx *ctx, const char *spec,
			 char **ret_dev);
