/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rootfs-attr.c: writing sysfs, procfs and configfs attributes. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "util/rootfs-internal.h"

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

int halo_root_write_attr(const struct halo_ctx *ctx, const char *path,
			 const char *buf, size_t len)
{
	_cleanup_close_ int fd = -1;
	struct stat st;
	ssize_t n;
	int r;

	if (!path || (!under(path, "/sys") && !under(path, "/proc")))
		return -EINVAL;
	/* Symlinks followed inside the root (the read rule) on purpose, but
	 * without O_CREAT or O_TRUNC: nothing new can appear. */
	r = halo_rootfs_open(ctx, path, O_WRONLY, 0, false, &fd);
	if (r < 0)
		return r;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (!kernel_fs(fd) && ftruncate(fd, 0) < 0)
		return -errno;
	do
		n = write(fd, buf, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}
