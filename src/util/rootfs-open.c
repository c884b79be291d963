/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rootfs-open.c: resolving a path inside ctx->root_fd.
 *
 * openat2(RESOLVE_IN_ROOT) where the kernel has it; otherwise a component
 * walk with the same rules: every component opened O_NOFOLLOW, symlinks
 * either refused (the write rule) or expanded by us relative to the root,
 * ".." clamped at the root exactly as RESOLVE_IN_ROOT does.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#ifdef HAVE_SYS_SYSCALL_H
#include <sys/syscall.h>
#endif
#ifdef HAVE_LINUX_OPENAT2_H
#include <linux/openat2.h>
#endif

#include "util/rootfs-internal.h"
#include "util/strv.h"

#define MAX_SYMLINKS 40 /* the kernel's own limit */

/* -1 unknown, 0 missing (ENOSYS seen or forced off), 1 works. A process-wide
 * cache of a kernel fact, not state of a run. */
static atomic_int have_openat2 = -1;

void halo_rootfs_force_walk(bool on)
{
	atomic_store(&have_openat2, on ? 0 : -1);
}

int halo_rootfs_check_path(const char *path)
{
	long depth = 0;
	const char *p;

	if (!path || path[0] != '/')
		return -EINVAL;
	if (strnlen(path, PATH_MAX) >= PATH_MAX)
		return -ENAMETOOLONG;
	/* Every file a run reads comes through here: a path without "/.."
	 * has no ".." that could climb. */
	if (!strstr(path, "/.."))
		return 0;
	/* Lexical: a path that names its way out of the root is a bug or an
	 * attack; refuse it rather than clamp it silently. */
	for (p = path; *p;) {
		size_t n;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0)
				return -EXDEV;
		} else if (n > 0 && !(n == 1 && p[0] == '.')) {
			depth++;
		}
		p += n;
	}
	return 0;
}

int halo_rootfs_split(const char *path, char **ret_dir, const char **ret_base)
{
	size_t len = strlen(path), end, start;
	const char *base;
	char *dir;

	if (path[0] != '/')
		return -EINVAL;
	end = len;
	while (end > 1 && path[end - 1] == '/')
		end--;
	if (end != len)
		return -EINVAL; /* "/etc/x/": a directory, not a file */
	start = end;
	while (start > 0 && path[start - 1] != '/')
		start--;
	base = path + start;
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return -EINVAL;
	while (start > 1 && path[start - 1] == '/')
		start--;
	dir = strndup(path, start);
	if (!dir)
		return -ENOMEM;
	*ret_dir = dir;
	*ret_base = base;
	return 0;
}

static bool is_write(int flags)
{
	return (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW)) != 0;
}

#if defined(HAVE_LINUX_OPENAT2_H) && defined(SYS_openat2)
static int open_openat2(int root_fd, const char *path, int flags, mode_t mode,
			bool nofollow)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	int tries = 0;
	long fd;

	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE)
		how.mode = mode;
	if (nofollow)
		how.resolve |= RESOLVE_NO_SYMLINKS;
	/* EAGAIN: RESOLVE_IN_ROOT raced a rename; the man page says retry. */
	do
		fd = syscall(SYS_openat2, root_fd, path, &how, sizeof(how));
	while (fd < 0 && (errno == EINTR || errno == EAGAIN) && ++tries < 64);
	return fd < 0 ? -errno : (int)fd;
}
#else
static int open_openat2(int root_fd, const char *path, int flags, mode_t mode,
			bool nofollow)
{
	return -ENOSYS;
}
#endif

/* Next component of *rest into NAME; false at the end. */
static bool next_component(const char **rest, char name[static NAME_MAX + 1],
			   int *err)
{
	const char *p = *rest;
	size_t n;

	while (*p == '/')
		p++;
	if (!*p) {
		*rest = p;
		return false;
	}
	n = strcspn(p, "/");
	if (n > NAME_MAX) {
		*err = -ENAMETOOLONG;
		return false;
	}
	memcpy(name, p, n);
	name[n] = '\0';
	*rest = p + n;
	return true;
}

static bool only_slashes(const char *p)
{
	return p[strspn(p, "/")] == '\0';
}

/* Replaces the directory *CUR by NAME opened relative to DFD. */
static int move_to(int *cur, int dfd, const char *name)
{
	int fd = openat(dfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	close(*cur);
	*cur = fd;
	return 0;
}

/*
 * The fallback. `cur` is an O_PATH directory; `depth` counts how far below
 * the root it is, so ".." can be clamped at the root the way RESOLVE_IN_ROOT
 * does (the user's own ".." were checked lexically already; only symlink
 * targets can reach here with ".." at the root).
 */
static int open_walk(int root_fd, const char *path, int flags, mode_t mode,
		     bool nofollow)
{
	char *buf = NULL; /* the remaining path after symlink expansion */
	const char *rest = path;
	char name[NAME_MAX + 1];
	int cur = -1, depth = 0, links = 0, err = 0, r;

	cur = openat(root_fd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cur < 0)
		return -errno;

	for (;;) {
		struct stat st;
		bool last;
		int fd;

		if (!next_component(&rest, name, &err)) {
			if (err) {
				r = err;
				goto out;
			}
			/* Path ended on a directory ("/", "/etc/.."). */
			strcpy(name, ".");
			last = true;
		} else {
			last = only_slashes(rest);
		}

		if (strcmp(name, ".") == 0 && !last)
			continue;
		if (strcmp(name, "..") == 0) {
			if (depth > 0) {
				r = move_to(&cur, cur, "..");
				if (r < 0)
					goto out;
				depth--;
			}
			if (!last)
				continue;
			strcpy(name, ".");
		}

		if (last) {
			if (strcmp(name, ".") != 0) {
				/* As RESOLVE_NO_SYMLINKS: a trailing symlink is
				 * refused unless O_PATH|O_NOFOLLOW asks for the
				 * link itself. */
				if (fstatat(cur, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
				    S_ISLNK(st.st_mode) &&
				    !(nofollow && (flags & O_PATH) && (flags & O_NOFOLLOW))) {
					if (nofollow) {
						r = -ELOOP;
						goto out;
					}
					goto expand;
				}
			}
			/* A trailing "/" demands a directory, as in open(2). */
			if (rest[0] == '/' && !(flags & O_CREAT))
				flags |= O_DIRECTORY;
			fd = openat(cur, name, flags | O_NOFOLLOW | O_CLOEXEC, mode);
			r = fd < 0 ? -errno : fd;
			goto out;
		}

		fd = openat(cur, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			r = -errno;
			goto out;
		}
		if (fstat(fd, &st) < 0) {
			r = -errno;
			close(fd);
			goto out;
		}
		if (S_ISDIR(st.st_mode)) {
			close(cur);
			cur = fd;
			depth++;
			continue;
		}
		close(fd);
		if (!S_ISLNK(st.st_mode)) {
			r = -ENOTDIR;
			goto out;
		}
		if (nofollow) {
			r = -ELOOP;
			goto out;
		}
expand:
		/* Replace "name" by the link's target in the remaining path;
		 * absolute targets restart at the root, never at "/". */
		{
			char target[PATH_MAX];
			size_t size;
			ssize_t n;
			char *nbuf;

			if (++links > MAX_SYMLINKS) {
				r = -ELOOP;
				goto out;
			}
			n = readlinkat(cur, name, target, sizeof(target) - 1);
			if (n < 0) {
				r = -errno;
				goto out;
			}
			if (n == 0) {
				r = -ENOENT;
				goto out;
			}
			target[n] = '\0';
			size = (size_t)n + strlen(rest) + 1;
			nbuf = malloc(size);
			if (!nbuf) {
				r = -ENOMEM;
				goto out;
			}
			halo_strjoin(nbuf, size, target, rest, NULL);
			free(buf);
			buf = nbuf;
			rest = buf;
			if (target[0] == '/') {
				r = move_to(&cur, root_fd, ".");
				if (r < 0)
					goto out;
				depth = 0;
			}
		}
	}
out:
	free(buf);
	close(cur);
	return r;
}

/* O_DIRECTORY|O_NOFOLLOW on a trailing symlink fails with ENOTDIR; say
 * ELOOP like every other refused symlink, so callers see one error. */
static int enotdir_or_eloop(int root_fd, const char *path, int flags,
			    bool nofollow)
{
	struct stat st;
	int fd, r = -ENOTDIR;

	if (!nofollow || !(flags & O_DIRECTORY))
		return r;
	fd = open_openat2(root_fd, path, O_PATH | O_NOFOLLOW, 0, true);
	if (fd < 0)
		return r;
	if (fstat(fd, &st) == 0 && S_ISLNK(st.st_mode))
		r = -ELOOP;
	close(fd);
	return r;
}

static int root_open(int root_fd, const char *path, int flags, mode_t mode,
		     bool nofollow)
{
	int r;

	if (atomic_load(&have_openat2) < 0) {
		/* Probe once on the root itself: a seccomp filter may answer
		 * EPERM instead of ENOSYS for a syscall it does not know, and
		 * EPERM on a real path would be ambiguous. */
		r = open_openat2(root_fd, "/", O_PATH, 0, false);
		if (r >= 0)
			close(r);
		atomic_store(&have_openat2, r == -ENOSYS || r == -EPERM ? 0 : 1);
	}
	if (atomic_load(&have_openat2) > 0) {
		r = open_openat2(root_fd, path, flags, mode, nofollow);
		if (r != -ENOSYS)
			return r == -ENOTDIR ?
				enotdir_or_eloop(root_fd, path, flags, nofollow) : r;
		atomic_store(&have_openat2, 0);
	}
	return open_walk(root_fd, path, flags, mode, nofollow);
}

int halo_root_open(const char *dir, int *ret_fd)
{
	int fd;

	if (!dir || !*dir)
		return -EINVAL;
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	*ret_fd = fd;
	return 0;
}

int halo_rootfs_open(const struct halo_ctx *ctx, const char *path, int flags,
		     mode_t mode, bool nofollow, int *ret_fd)
{
	int r;

	r = halo_rootfs_check_path(path);
	if (r < 0)
		return r;
	/* Whoever opens to write is about to change what was read. */
	if (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC))
		halo_rootcache_forget(ctx);
	r = root_open(ctx->root_fd, path, flags, mode, nofollow);
	if (r < 0)
		return r;
	*ret_fd = r;
	return 0;
}

int halo_root_openat(const struct halo_ctx *ctx, const char *path, int flags,
		     mode_t mode, int *ret_fd)
{
	int r;

	r = halo_rootfs_check_path(path);
	if (r < 0)
		return r;
	if (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC))
		halo_rootcache_forget(ctx);
	r = root_open(ctx->root_fd, path, flags, mode, is_write(flags));
	if (r < 0)
		return r;
	*ret_fd = r;
	return 0;
}

int halo_fd_reopen(int path_fd, int flags)
{
	char proc[64];
	int fd;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", path_fd);
	fd = open(proc, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int halo_rootfs_open_parent(const struct halo_ctx *ctx, const char *path,
			    bool create, int *ret_dfd, const char **ret_base)
{
	const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
	_cleanup_free_ char *dir = NULL;
	const char *base;
	int r;

	r = halo_rootfs_check_path(path);
	if (r < 0)
		return r;
	r = halo_rootfs_split(path, &dir, &base);
	if (r < 0)
		return r;
	r = halo_root_openat(ctx, dir, flags, 0, ret_dfd);
	if (r == -ENOENT && create) {
		r = halo_root_mkdir_p(ctx, dir, 0755);
		if (r < 0)
			return r;
		r = halo_root_openat(ctx, dir, flags, 0, ret_dfd);
	}
	if (r < 0)
		return r;
	*ret_base = base;
	return 0;
}
