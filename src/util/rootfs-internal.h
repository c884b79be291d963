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

/* --- rootfs-attr.c ------------------------------------------------------ */

/* What halo_root_write_attr would answer for the kernel attribute PATH,
 * judged on FD, the regular file (ST its status) already opened there:
 * 0, -EMLINK, -ELOOP (see rootfs.h), -EINVAL (no attribute path),
 * -EISDIR, -HALO_ENOTREG. FOLLOWED: symlinks may have been followed to
 * FD; false when it was opened with none on the way (RESOLVE_NO_SYMLINKS
 * or O_NOFOLLOW all along), which then asks nothing more than ST. */
int halo_rootfs_attr_judge(const struct halo_ctx *ctx, const char *path, int fd,
			   const struct stat *st, bool followed);

/* Test hook: force the component walk even where openat2 exists. */
void halo_rootfs_force_walk(bool on);

/* --- rootfs-cache.c: what a run that changes nothing has read ---------- */

enum {
	HALO_RC_FILE = 1u << 0,   /* file_err, data, len */
	HALO_RC_LIST = 1u << 1,   /* list_err, names, types */
	HALO_RC_STAT = 1u << 2,   /* stat_err, st */
	HALO_RC_EXISTS = 1u << 3, /* exists */
};

/* One path of the root as this run found it. */
struct halo_rcentry {
	unsigned have;            /* HALO_RC_* */
	int file_err;             /* halo_read_file's answer: 0 or -errno */
	char *data;               /* in this allocation after path, or its own */
	size_t len;
	int dfd;                  /* the directory, opened this run; -1 */
	bool dfd_listable;        /* opened O_RDONLY, not O_PATH */
	int list_err;             /* halo_root_list_dir's answer */
	char **names;             /* sorted, NULL-terminated */
	unsigned char *types;     /* d_type of each name */
	size_t n_names;
	int stat_err;             /* halo_root_lstat's answer */
	struct stat st;
	int exists;               /* halo_root_exists's answer */
	char path[];
};

/* The entry of PATH, NULL when there is none (or no cache). */
struct halo_rcentry *halo_rootcache_find(const struct halo_ctx *ctx, const char *path);
/* The entry of PATH, made when missing; NULL on ENOMEM or without a cache. */
struct halo_rcentry *halo_rootcache_entry(const struct halo_ctx *ctx, const char *path);
/* The entry of the directory holding PATH, *RET_BASE its last component;
 * NULL when that directory has none, or PATH ends in "/", "." or "..". */
const struct halo_rcentry *halo_rootcache_parent(const struct halo_ctx *ctx, const char *path,
						 const char **ret_base);
/* The d_type of NAME in the listing of E, -ENOENT when it is not there. */
int halo_rcentry_type(const struct halo_rcentry *e, const char *name);
/* Hands directory descriptor FD to E: 0 when taken, -EBUSY when E has one
 * (a LISTABLE one replaces an O_PATH one) or enough are open. */
int halo_rootcache_keep_dir(const struct halo_ctx *ctx, struct halo_rcentry *e, int fd,
			    bool listable);
/* A read of PATH: its answer from the cache (0 or -errno, *RET_BUF a
 * copy), or 1 when it has none. */
int halo_rootcache_get_file(const struct halo_ctx *ctx, const char *path,
			    char **ret_buf, size_t *ret_len);
/* Records the answer ERR (BUF, LEN when 0) of a read of PATH. */
int halo_rootcache_put_file(const struct halo_ctx *ctx, const char *path, int err,
			    const char *buf, size_t len);
/* Forgets everything: the run is about to change the root. */
void halo_rootcache_forget(const struct halo_ctx *ctx);
