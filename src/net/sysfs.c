/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysfs.c: driver and PCI address of a link, from <root>/sys/class/net.
 * The directories are opened through util/rootfs.h (confined to the root);
 * only the link text of "device" and "driver" is read (readlinkat), nothing
 * is followed outside the root.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "net/match.h"
#include "util/rootfs.h"

/* Basename of the symlink NAME in DIRFD; NULL (0) when absent. */
static int link_basename(int dirfd, const char *name, char **ret)
{
	char buf[PATH_MAX];
	const char *base;
	ssize_t n;

	n = readlinkat(dirfd, name, buf, sizeof(buf) - 1);
	if (n < 0) {
		if (errno == ENOENT || errno == EINVAL || errno == ENOTDIR) {
			*ret = NULL;
			return 0;
		}
		return -errno;
	}
	buf[n] = '\0';
	base = strrchr(buf, '/');
	base = base ? base + 1 : buf;
	if (!*base) {
		*ret = NULL;
		return 0;
	}
	*ret = strdup(base);
	return *ret ? 0 : -ENOMEM;
}

static int open_dir(const struct halo_ctx *ctx, const char *path, int *ret_fd)
{
	int err = halo_root_openat(ctx, path, O_PATH | O_DIRECTORY | O_CLOEXEC, 0,
				   ret_fd);

	if (err == -ENOENT || err == -ENOTDIR) {
		*ret_fd = -1;
		return 0;
	}
	return err;
}

int halo_link_sysfs_facts(const struct halo_ctx *ctx, const char *ifname,
			  char **ret_driver, char **ret_pci)
{
	_cleanup_close_ int netfd = -1, devfd = -1;
	_cleanup_free_ char *driver = NULL, *pci = NULL;
	char path[PATH_MAX];
	int err;

	if (!ifname[0] || strchr(ifname, '/') || strcmp(ifname, ".") == 0 ||
	    strcmp(ifname, "..") == 0)
		return -EINVAL;
	snprintf(path, sizeof(path), "/sys/class/net/%s", ifname);
	err = open_dir(ctx, path, &netfd);
	if (err < 0)
		return err;
	if (netfd >= 0) {
		err = link_basename(netfd, "device", &pci);
		if (err < 0)
			return err;
	}
	if (pci) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/device", ifname);
		err = open_dir(ctx, path, &devfd);
		if (err < 0)
			return err;
		if (devfd >= 0) {
			err = link_basename(devfd, "driver", &driver);
			if (err < 0)
				return err;
		}
	}
	*ret_driver = TAKE_PTR(driver);
	*ret_pci = TAKE_PTR(pci);
	return 0;
}
