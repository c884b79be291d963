/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rootfs-internal.h: shared by the rootfs*.c files and their unit test. */
#pragma once

#include <stdbool.h>

#include "util/rootfs.h"

/* Checks PATH is absolute, and that its ".." never climb above "/";
 * 0, -EINVAL (relative, empty) or -EXDEV (escapes). */
int halo_rootfs_check_path(const char *path);

/* Splits "/a/b/c" into a malloc'd "/a/b" and a pointer to "c" inside PATH.
 * "/c" gives "/". The last component must be a plain name (-EINVAL for
 * "/", ".", ".."). */
int halo_rootfs_split(const char *path, char **ret_dir, const char **ret_base);

/* Opens the directory holding PATH with the write rule (no symlinks
 * anywhere), as an O_RDONLY descriptor that can be fsync'd; CREATE makes
 * missing directories 0755. *ret_base points into PATH. */
int halo_rootfs_open_parent(const struct halo_ctx *ctx, const char *path,
			    bool create, int *ret_dfd, const char **ret_base);

/* halo_root_openat with the symlink rule chosen by the caller instead of
 * by FLAGS: NOFOLLOW refuses every symlink, otherwise links are followed
 * inside the root. */
int halo_rootfs_open(const struct halo_ctx *ctx, const char *path, int flags,
		     mode_t mode, bool nofollow, int *ret_fd);

/* Test hook: force the component walk even where openat2 exists. */
void halo_rootfs_force_walk(bool on);
