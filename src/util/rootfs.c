/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rootfs.c: reading, listing, creating and removing inside the root. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "util/rootfs-internal.h"
#include "util/strv.h"

#define READ_CAP (16u << 20)

int halo_read_file(const struct halo_ctx *ctx, const char *path,
		   char **ret_buf, size_t *ret_len)
{
	_cleanup_close_ int fd = -1;
	struct stat st;
	int r;

	/* O_NONBLOCK: a FIFO planted in a tree must not hang the run. It
	 * stays set: reads of regular files (procfs, sysfs and configfs
	 * attributes included) ignore it, and clearing it cost one more
	 * system call per file read. */
	r = halo_root_openat(ctx, path, O_RDONLY | O_NONBLOCK | O_NOCTTY, 0, &fd);
	if (r < 0)
		return r;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return halo_root_refused(ctx, path, -EISDIR);
	if (!S_ISREG(st.st_mode))
		return halo_root_refused(ctx, path, -HALO_ENOTREG);
	/* st_size is only a hint: /proc and /sys report 0 or 4096. */
	return halo_read_fd(fd, st.st_size > 0 ? (size_t)st.st_size : 0, ret_buf, ret_len);
}

int halo_read_fd(int fd, size_t size_hint, char **ret_buf, size_t *ret_len)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, cap;

	cap = size_hint > 0 && size_hint < READ_CAP ? size_hint + 1 : 4096;
	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap) {
			char *nb;

			if (cap > READ_CAP)
				return -EFBIG;
			cap *= 2;
			nb = realloc(buf, cap);
			if (!nb)
				return -ENOMEM;
			buf = nb;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > READ_CAP)
			return -EFBIG;
	}
	buf[len] = '\0';
	*ret_buf = TAKE_PTR(buf);
	if (ret_len)
		*ret_len = len;
	return 0;
}

int halo_root_lstat(const struct halo_ctx *ctx, const char *path,
		    struct stat *ret_st)
{
	_cleanup_free_ char *dir = NULL;
	_cleanup_close_ int dfd = -1;
	const char *base;
	struct stat st;
	int r;

	r = halo_rootfs_check_path(path);
	if (r < 0)
		return r;
	if (halo_rootfs_split(path, &dir, &base) < 0) {
		/* "/", "/x/..", "/x/.": never a symlink, so a plain open. */
		_cleanup_close_ int fd = -1;

		r = halo_root_openat(ctx, path, O_PATH, 0, &fd);
		if (r < 0)
			return r;
		if (fstat(fd, &st) < 0)
			return -errno;
		*ret_st = st;
		return 0;
	}
	r = halo_root_openat(ctx, dir, O_PATH | O_DIRECTORY, 0, &dfd);
	if (r < 0)
		return r;
	if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	*ret_st = st;
	return 0;
}

int halo_root_exists(const struct halo_ctx *ctx, const char *path)
{
	_cleanup_close_ int fd = -1;
	int r;

	r = halo_root_openat(ctx, path, O_PATH, 0, &fd);
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	return r < 0 ? r : 1;
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
	r = mkdir_walk(ctx, dir, mode);
	if (r < 0)
		return r;
	close(r);
	return 0;
}

int halo_root_unlink(struct halo_ctx *ctx, const char *path)
{
	_cleanup_close_ int dfd = -1;
	const char *base;
	int r;

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

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int halo_root_list_dir(const struct halo_ctx *ctx, const char *dir,
		       char ***ret_names)
{
	_cleanup_strv_free_ char **names = NULL;
	struct dirent *de;
	DIR *d;
	int fd, r = 0;

	r = halo_root_openat(ctx, dir, O_RDONLY | O_DIRECTORY, 0, &fd);
	if (r < 0)
		return r;
	d = fdopendir(fd);
	if (!d) {
		r = -errno;
		close(fd);
		return r;
	}
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de) {
			r = errno ? -errno : 0;
			break;
		}
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		r = halo_strv_push(&names, de->d_name);
		if (r < 0)
			break;
	}
	closedir(d);
	if (r < 0)
		return r;
	if (!names) {
		names = calloc(1, sizeof(*names));
		if (!names)
			return -ENOMEM;
	}
	qsort(names, halo_strv_len(names), sizeof(*names), cmp_str);
	*ret_names = TAKE_PTR(names);
	return 0;
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
