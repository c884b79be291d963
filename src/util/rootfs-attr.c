/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rootfs-attr.c: writing sysfs, procfs and configfs attributes.
 *
 * On a kernel file system a write changes a kernel value, and sysfs is
 * made of symlinks (/sys/class/net/X), so they are followed inside the
 * root. Anywhere else (a tree under --root) the "attribute" is an ordinary
 * file that gets truncated and rewritten in place: there a symlink could
 * aim the write at another file of the root, and a hard link at a file
 * outside it, so both are refused before anything is opened for writing.
 * Every check is made on an O_PATH descriptor, and the descriptor written
 * is that same inode reopened: nothing that is no regular file (a FIFO, a
 * watchdog device) is ever opened to write. The same judgement serves
 * halo_root_read_attr (rootfs-read.c) on the descriptor it reads, so an
 * item can refuse such a file when it observes, before anything changed.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "util/rootfs-internal.h"
#include "util/strv.h"

#ifndef CONFIGFS_MAGIC
#define CONFIGFS_MAGIC 0x62656570 /* not in <linux/magic.h> */
#endif

static bool kernel_fs(int fd)
{
	struct statfs sfs;

	if (fstatfs(fd, &sfs) < 0)
		return false;
	return sfs.f_type == SYSFS_MAGIC || sfs.f_type == PROC_SUPER_MAGIC ||
	       sfs.f_type == CONFIGFS_MAGIC;
}

/* PATH is below TOP, with no "." or ".." that could walk it elsewhere. */
static bool under(const char *path, const char *top)
{
	size_t n = strlen(top);

	if (strncmp(path, top, n) != 0 || path[n] != '/' || !path[n + 1])
		return false;
	for (const char *p = path; *p;) {
		size_t len;

		while (*p == '/')
			p++;
		len = strcspn(p, "/");
		if ((len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p += len;
	}
	return true;
}

/* The kernel's name of the open file FD ("/tmp/r/sys/devices/x"). */
static int fd_path(int fd, char *buf, size_t size)
{
	char proc[64];
	ssize_t n;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	n = readlink(proc, buf, size - 1);
	if (n < 0)
		return -errno;
	if ((size_t)n >= size - 1)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	return 0;
}

/* The kernel's name of the root, kept from one file to the next: a check
 * judges a few such attributes, and each readlink of /proc is costly. It
 * is kept with the root's inode, and read anew whenever a file does not
 * start with it (another root, or this one renamed). */
static struct {
	char name[PATH_MAX];
	dev_t dev;
	ino_t ino;
} root_seen;

/* Whether FILE (a kernel name) lies below /sys of the root named ROOT. */
static bool in_sys_of(const char *file, const char *root)
{
	size_t n = strcmp(root, "/") == 0 ? 0 : strlen(root);

	return n < PATH_MAX && strncmp(file, root, n) == 0 && strncmp(file + n, "/sys/", 5) == 0 &&
	       /* A file unlinked since it was opened is named "... (deleted)". */
	       !strstr(file + n, " (deleted)");
}

/* Whether the file FD, reached by following symlinks, is still below /sys
 * of the root: the only place a fixture's links may lead (the class and
 * bus links of a sysfs tree point into /sys/devices). */
static int stays_in_sys(const struct halo_ctx *ctx, int fd)
{
	char file[PATH_MAX];
	struct stat st;
	int r;

	r = fd_path(fd, file, sizeof(file));
	if (r < 0)
		return r;
	if (fstat(ctx->root_fd, &st) < 0)
		return -errno;
	if (root_seen.name[0] && root_seen.dev == st.st_dev && root_seen.ino == st.st_ino &&
	    in_sys_of(file, root_seen.name))
		return 1;
	root_seen.name[0] = '\0';
	r = fd_path(ctx->root_fd, root_seen.name, sizeof(root_seen.name));
	if (r < 0) {
		root_seen.name[0] = '\0';
		return r;
	}
	root_seen.dev = st.st_dev;
	root_seen.ino = st.st_ino;
	return in_sys_of(file, root_seen.name);
}

int halo_rootfs_attr_judge(const struct halo_ctx *ctx, const char *path, int fd,
			   const struct stat *st, bool followed)
{
	_cleanup_close_ int plain = -1;
	struct stat st_plain;
	int r;

	if (!path || (!under(path, "/sys") && !under(path, "/proc")))
		return -EINVAL;
	if (S_ISDIR(st->st_mode))
		return -EISDIR;
	if (!S_ISREG(st->st_mode))
		return -HALO_ENOTREG;
	/* Never so on a kernel file system: asked only then. */
	if (st->st_nlink > 1)
		return kernel_fs(fd) ? 0 : -EMLINK;
	if (!followed)
		return 0;
	if (under(path, "/sys")) {
		/* Real sysfs is made of symlinks: no name to read. */
		if (kernel_fs(fd))
			return 0;
		r = stays_in_sys(ctx, fd);
		return r < 0 ? r : r ? 0 : -ELOOP;
	}
	if (kernel_fs(fd))
		return 0;
	/* /proc/sys has no symlinks: one in a fixture is refused outright.
	 * The same inode both ways, or the tree changed in between. */
	r = halo_rootfs_open(ctx, path, O_PATH, 0, true, &plain);
	if (r < 0)
		return r;
	if (fstat(plain, &st_plain) < 0)
		return -errno;
	if (st_plain.st_dev != st->st_dev || st_plain.st_ino != st->st_ino)
		return -ELOOP;
	return 0;
}

/* Opens PATH as O_PATH and checks it may be written: *RET_KERNEL tells
 * whether it is on a kernel file system (no truncation then). */
static int attr_open(const struct halo_ctx *ctx, const char *path, int *ret_fd,
		     bool *ret_kernel)
{
	_cleanup_close_ int fd = -1;
	struct stat st;
	int r;

	if (!path || (!under(path, "/sys") && !under(path, "/proc")))
		return -EINVAL;
	r = halo_rootfs_open(ctx, path, O_PATH, 0, false, &fd);
	if (r < 0)
		return r;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode))
		return -HALO_ENOTREG;
	*ret_kernel = kernel_fs(fd);
	if (!*ret_kernel) {
		r = halo_rootfs_attr_judge(ctx, path, fd, &st, true);
		if (r < 0)
			return r;
	}
	*ret_fd = TAKE_FD(fd);
	return 0;
}

char *halo_root_attr_refusal(const struct halo_ctx *ctx, const char *path, int err)
{
	_cleanup_free_ char *shown = NULL;

	if (err != -ELOOP && err != -EMLINK)
		return NULL;
	shown = halo_root_display_path(ctx, path);
	if (!shown)
		return NULL;
	if (err == -ELOOP)
		return halo_strdup_printf("refusing to write through a symlink: %s (not a kernel "
					  "file system)", shown);
	return halo_strdup_printf("refusing to write a file with other hard links: %s", shown);
}

int halo_root_write_attr(const struct halo_ctx *ctx, const char *path,
			 const char *buf, size_t len)
{
	_cleanup_close_ int pfd = -1, fd = -1;
	bool kernel = false;
	ssize_t n;
	int r;

	r = attr_open(ctx, path, &pfd, &kernel);
	if (r < 0)
		return r;
	halo_rootcache_forget(ctx);
	fd = halo_fd_reopen(pfd, O_WRONLY | O_NOCTTY);
	if (fd < 0)
		return fd;
	if (!kernel && ftruncate(fd, 0) < 0)
		return -errno;
	do
		n = write(fd, buf, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}
