/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blkid.h: the one place halo-provision uses libblkid (boot's root= check,
 * the model store). Errors come back as -errno.
 *
 * On the host (root "/"), libblkid's usual evaluation (udev symlinks, its
 * cache, probing). Under --root, only the libblkid cache file inside the
 * root (/run/blkid/blkid.tab) is consulted: it is read through the root
 * confined file layer and parsed here (libblkid's reader checks each name
 * on the host and writes the cache back). Every matching entry's device
 * is opened inside the root and probed through that descriptor (never by
 * blkid_verify, which opens host paths), so a stale entry does not count.
 * An entry not found inside the root is -ENODEV: no name is ever opened
 * on the host.
 * A /dev path under --root is opened inside the root (read-only) and
 * probed through that descriptor. Only a block device or a regular file
 * is ever probed: anything else (a FIFO would block) is -ENOTBLK.
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

#include "halo.h"

/* The library, opened when a device is first probed: every function below
 * returns -ELIBACC when it cannot be opened (or lacks a function). */
#define HALO_BLKID_SONAME "libblkid.so.1"

/* Why the last -ELIBACC: dlerror's line ("libblkid.so.1: cannot open
 * shared object file: ..."). */
const char *halo_blkid_why(void);

/* The root's libblkid cache, as named in messages. */
#define HALO_BLKID_CACHE "/run/blkid/blkid.tab"

/* Resolves TAG=VALUE (TAG one of "UUID", "LABEL", "PARTUUID",
 * "PARTLABEL", as libblkid names them) to a device path (*ret_dev, caller
 * frees). -ENODEV when nothing matches, -EINVAL for another TAG or an
 * empty VALUE; under a root, -ENOTBLK with *ret_dev the name when nothing
 * matched and the cache named something that is no block device or file
 * (never probed). */
int halo_blkid_resolve(struct halo_ctx *ctx, const char *tag, const char *value,
		       char **ret_dev);

/* What a device (a tag and its value, or a /dev path) names now. */
struct halo_blkid_found {
	char *dev;  /* the device (for a tag: as the cache or udev names it) */
	char *type; /* file system type; NULL: no file system signature */
	dev_t rdev; /* the block device's numbers; 0 for a regular file */
};

/* Finds TAG=VALUE (as for halo_blkid_resolve), or with TAG NULL the
 * device path VALUE, and probes its superblock. -ENODEV when the tag
 * resolves to nothing or the path does not exist; -ENOTBLK when it names
 * something that is no block device or file (not probed); -EIO when
 * probing fails; -EINVAL for another TAG, an empty VALUE or a relative
 * path. RET is set only on success. */
int halo_blkid_find(struct halo_ctx *ctx, const char *tag, const char *value,
		    struct halo_blkid_found *ret);
void halo_blkid_found_free(struct halo_blkid_found *f);
