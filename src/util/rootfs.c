/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rootfs.c: looking up, creating and removing inside the root. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/rootfs-internal.h"
#include "util/strv.h"

/* lstat of PATH, uncached: its directory opened (or kept from earlier in
 * the run), then fstatat of the name. */
static int lstat_walked(const struct halo_ctx *ctx, const char *path, struct stat *ret_st)
{
	_cleanup_free_ char *dir = NULL;
	_cleanup_close_ int dfd = -1;
	struct halo_rcentry *e;
	const char *base;
	int r;

	if (halo_rootfs_split(path, &dir, &base) < 0) {
		/* "/", "/x/..", "/x/.": never a symlink, so a plain open. */
		_cleanup_close_ int fd = -1;

		r = halo_root_openat(ctx, path, O_PATH, 0, &fd);
		if (r < 0)
			return r;
		return fstat(fd, ret_st) < 0 ? -errno : 0;
	}
	e = halo_rootcache_find(ctx, dir);
	if (e && (e->have & HALO_RC_LIST) && e->list_err == 0 &&
	    halo_rcentry_type(e, base) == -ENOENT)
		return -ENOENT;
	if (e && e->dfd >= 0)
		return fstatat(e->dfd, base, ret_st, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
	r = halo_root_openat(ctx, dir, O_PATH | O_DIRECTORY, 0, &dfd);
	if (r < 0)
		return r;
	if (fstatat(dfd, base, ret_st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	/* The directory stays open for the next name in it. */
	e = halo_rootcache_entry(ctx, dir);
	if (e && halo_rootcache_keep_dir(ctx, e, dfd, false) == 0)
		dfd = -1;
	return 0;
}

int halo_root_lstat(const struct halo_ctx *ctx, const char *path,
		    struct stat *ret_st)
{
	struct halo_rcentry *e;
	struct stat st;
	int r;

	r = halo_rootfs_check_path(path);
	if (r < 0)
		return r;
	e = halo_rootcache_find(ctx, path);
	if (e && (e->have & HALO_RC_STAT)) {
		if (e->stat_err == 0)
			*ret_st = e->st;
		return e->stat_err;
	}
	r = lstat_walked(ctx, path, &st);
	if (r != -ENOMEM && r != -EINTR && (e = halo_rootcache_entry(ctx, path))) {
		e->stat_err = r;
		e->st = st;
		e->have |= HALO_RC_STAT;
	}
	if (r == 0)
		*ret_st = st;
	return r;
}

int halo_root_lstat_plain(const struct halo_ctx *ctx, const char *path,
			  struct stat *ret_st)
{
	_cleanup_close_ int fd = -1;
	int r;

	/* O_PATH opens nothing but the name: no FIFO waits, no device
	 * wakes. */
	r = halo_rootfs_open(ctx, path, O_PATH | O_NOFOLLOW, 0, true, &fd);
	if (r < 0)
		return r;
	return fstat(fd, ret_st) < 0 ? -errno : 0;
}

int halo_root_exists(const struct halo_ctx *ctx, const char *path)
{
	_cleanup_close_ int fd = -1;
	const struct halo_rcentry *dir;
	struct halo_rcentry *e;
	const char *base;
	int r;

	r = halo_rootfs_check_path(path);
	if (r < 0)
		return r;
	e = halo_rootcache_find(ctx, path);
	if (e && (e->have & HALO_RC_EXISTS))
		return e->exists;
	/* In a directory listed this run: there or not, unless a symlink
	 * (followed inside the root, the long way). */
	dir = halo_rootcache_parent(ctx, path, &base);
	r = dir && (dir->have & HALO_RC_LIST) && dir->list_err == 0 ?
		    halo_rcentry_type(dir, base) : DT_UNKNOWN;
	if (r == -ENOENT) {
		r = 0;
	} else if (r != DT_LNK && r != DT_UNKNOWN) {
		r = 1;
	} else {
		r = halo_root_openat(ctx, path, O_PATH, 0, &fd);
		r = r == -ENOENT || r == -ENOTDIR ? 0 : r < 0 ? r : 1;
	}
	if (r != -ENOMEM && (e = halo_rootcache_entry(ctx, path))) {
		e->exists = r;
		e->have |= HALO_RC_EXISTS;
	}
	return r;
}

/* Walks DIR from the root creating what is missing; never follows a
 * symlink (-ELOOP), whether or not openat2 exists. Returns an O_PATH fd. */
static int mkdir_walk(const struct halo_ctx *ctx, const char *dir, mode_t mode)
{
	const char *p = dir;
	int cur, depth = 0;

	cur = openat(ctx->root_fd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cur < 0)
		return -errno;
	while (*p) {
		char name[NAME_MAX + 1];
		struct stat st;
		size_t n;
		int fd;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 0)
			break;
		if (n > NAME_MAX) {
			close(cur);
			return -ENAMETOOLONG;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		p += n;
		if (strcmp(name, ".") == 0 || (strcmp(name, "..") == 0 && depth == 0))
			continue;
		if (strcmp(name, "..") != 0) {
			if (mkdirat(cur, name, mode) < 0 && errno != EEXIST) {
				int e = -errno;

				close(cur);
				return e;
			}
		}
		fd = openat(cur, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0) {
			int e = -errno;

			if (fd >= 0)
				close(fd);
			close(cur);
			return e;
		}
		close(cur);
		cur = fd;
		if (S_ISLNK(st.st_mode)) {
			close(cur);
			return -ELOOP;
		}
		if (!S_ISDIR(st.st_mode)) {
			close(cur);
			return -ENOTDIR;
		}
		depth += strcmp(name, "..") == 0 ? -1 : 1;
	}
	return cur;
}

int halo_root_mkdir_p(const struct halo_ctx *ctx, const char *dir, mode_t mode)
{
	int r;

	r = halo_rootfs_check_path(dir);
	if (r < 0)
		return r;
	halo_rootcache_forget(ctx);
	r = mkdir_walk(ctx, dir, mode);
	if (r < 0)
		return r;
	close(r);
	return 0;
}

int halo_root_rebind(struct halo_ctx *ctx, int fd)
{
	if (dup3(fd, ctx->root_fd, O_CLOEXEC) < 0)
		return -errno;
	halo_rootcache_forget(ctx);
	return 0;
}

int halo_root_unlink(struct halo_ctx *ctx, const char *path)
{
	_cleanup_close_ int dfd = -1;
	const char *base;
	int r;

	halo_rootcache_forget(ctx);
	/* The parent is resolved with the write rule (no symlinks); a
	 * symlink as the last component is removed itself, never its target. */
	r = halo_rootfs_open_parent(ctx, path, false, &dfd, &base);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	if (unlinkat(dfd, base, 0) < 0)
		return errno == ENOENT ? 0 : -errno;
	ctx->files_written++;
	if (fsync(dfd) < 0)
		return -errno;
	return 1;
}

char *halo_root_display_path(const struct halo_ctx *ctx, const char *path)
{
	const char *root = ctx && ctx->root ? ctx->root : "/";
	size_t n = strlen(root);

	if (!path)
		path = "";
	while (n > 0 && root[n - 1] == '/')
		n--;
	if (n == 0)
		return strdup(path);
	return halo_strdup_printf("%.*s%s%s", (int)n, root,
				  path[0] == '/' ? "" : "/", path);
}

int halo_root_explain_missing(const struct halo_ctx *ctx, const char *path,
			      char **ret_why)
{
	char prefix[PATH_MAX], target[PATH_MAX];
	struct stat st;
	size_t len = strlen(path);

	if (len >= sizeof(prefix) || path[0] != '/')
		return 0;
	/* The common case in one step: a walk that meets no symlink and
	 * ends at a missing name has nothing to name. */
	if (halo_root_lstat_plain(ctx, path, &st) == -ENOENT)
		return 0;
	/* Each prefix in turn: the first symlink on the way that does not
	 * resolve inside the root is the one to name. */
	for (size_t end = 1; end <= len; end++) {
		_cleanup_close_ int dirfd = -1;
		_cleanup_free_ char *shown = NULL;
		const char *slash;
		ssize_t n = -1;

		if (end < len && path[end] != '/')
			continue;
		memcpy(prefix, path, end);
		prefix[end] = '\0';
		if (halo_root_lstat(ctx, prefix, &st) < 0)
			return 0;
		if (!S_ISLNK(st.st_mode) || halo_root_exists(ctx, prefix) > 0)
			continue;
		slash = strrchr(prefix, '/');
		if (slash > prefix) {
			char parent[PATH_MAX];

			snprintf(parent, sizeof(parent), "%.*s", (int)(slash - prefix), prefix);
			if (halo_root_openat(ctx, parent, O_PATH | O_DIRECTORY, 0, &dirfd) == 0)
				n = readlinkat(dirfd, slash + 1, target, sizeof(target) - 1);
		} else if (halo_root_openat(ctx, "/", O_PATH | O_DIRECTORY, 0, &dirfd) == 0) {
			n = readlinkat(dirfd, prefix + 1, target, sizeof(target) - 1);
		}
		target[n < 0 ? 0 : n] = '\0';
		shown = halo_root_display_path(ctx, prefix);
		*ret_why = halo_strdup_printf("%s: symlink to '%s' does not resolve inside the root",
					      shown ? shown : prefix, target);
		return *ret_why ? -ELOOP : -ENOMEM;
	}
	return 0;
}

const char *halo_file_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "a special file";
}

const char *halo_root_strerror(int err)
{
	return err == -HALO_ENOTREG ? "not a regular file" : strerror(-err);
}

char *halo_root_read_error(const struct halo_ctx *ctx, const char *path, int err)
{
	_cleanup_free_ char *shown = NULL;

	if (err == -ENOENT || err == -ELOOP || err == -ENOTDIR) {
		char *why = NULL;
		int r = halo_root_explain_missing(ctx, path, &why);

		if (r == -ENOMEM)
			return NULL;
		if (r < 0)
			return why;
	}
	shown = halo_root_display_path(ctx, path);
	if (!shown)
		return NULL;
	if (err == -HALO_ENOTREG || err == -EISDIR) {
		_cleanup_close_ int fd = -1;
		struct stat st;

		/* Opened without reading (O_PATH): a FIFO cannot block it. */
		if (halo_root_openat(ctx, path, O_PATH, 0, &fd) == 0 && fstat(fd, &st) == 0)
			return halo_strdup_printf("%s: %s, not a regular file", shown,
						  halo_file_kind(st.st_mode));
		return halo_strdup_printf("%s: not a regular file", shown);
	}
	return halo_strdup_printf("%s: %s", shown, strerror(-err));
}
