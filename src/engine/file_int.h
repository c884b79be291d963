/* SPDX-License-Identifier: GPL-2.0-or-later */
/* file_int.h: what file_item.c shares with file_revert.c (private). */
#pragma once

#include <sys/stat.h>

#include "engine/item.h"
#include "halo.h"

/* Walks PATH from the root: a symlink in any existing component is
 * HALO_SYNC_INVALID (message on ITEM), as is a non-directory parent or a
 * non-regular target. 1 if the file exists (*RET_ST filled), 0 if not,
 * HALO_SYNC_INVALID or -errno. */
int halo_file_check_path(struct halo_ctx *ctx, struct halo_item *item,
			 const char *path, struct stat *ret_st);
