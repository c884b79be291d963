/* SPDX-License-Identifier: GPL-2.0-or-later */
/* namespace.c: the run's root opened, --netns entered once, with the
 * namespace's own sysfs. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/host.h"
#include "util/rootfs.h"

bool halo_netns_name_valid(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	return n > 0 && n < 256 && !strchr(name, '/') && strcmp(name, ".") != 0 &&
	       strcmp(name, "..") != 0;
}

/* A fresh sysfs on /sys shows the links of the namespace that mounts it
 * (the kernel tags sysfs with the mounter's network namespace). Detaching
 * the old /sys takes its submounts along; configfs (rdma_cm defaults) is
 * not per namespace, so the old one is bound back where it was. */
static int remount_sysfs(const char *netns, const char **ret_what)
{
	_cleanup_close_ int configfs = -1;
	struct stat dir, parent;
	char fdpath[64];

	/* Slave, like ip netns exec: the host's later mounts still reach
	 * us, ours never leak out. */
	*ret_what = "making / a slave mount";
	if (mount(NULL, "/", NULL, MS_SLAVE | MS_REC, NULL) < 0)
		return -errno;
	/* configfs is mounted when its directory is a mount point (another
	 * device than its parent). */
	if (stat("/sys/kernel/config", &dir) == 0 &&
	    stat("/sys/kernel", &parent) == 0 && dir.st_dev != parent.st_dev)
		configfs = open("/sys/kernel/config", O_PATH | O_DIRECTORY | O_CLOEXEC);
	*ret_what = "unmounting the host's /sys";
	if (umount2("/sys", MNT_DETACH) < 0 && errno != EINVAL)
		return -errno;
	*ret_what = "mounting the namespace's sysfs on /sys";
	if (mount(netns, "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		return -errno;
	if (configfs >= 0) {
		snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", configfs);
		*ret_what = "binding configfs back on /sys/kernel/config";
		if (mount(fdpath, "/sys/kernel/config", NULL, MS_BIND, NULL) < 0)
			return -errno;
	}
	return 0;
}

int halo_host_enter_netns(const char *netns, bool private_sysfs,
			  const char **ret_what)
{
	char path[300];
	_cleanup_close_ int fd = -1;

	*ret_what = "opening it";
	if (!netns)
		return 0;
	if (!halo_netns_name_valid(netns))
		return -EINVAL;
	/* A host path on purpose: namespaces belong to the running kernel,
	 * whatever tree --root points at. */
	snprintf(path, sizeof(path), "/run/netns/%s", netns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	*ret_what = "entering it";
	if (setns(fd, CLONE_NEWNET) < 0)
		return -errno;
	if (!private_sysfs)
		return 0;
	*ret_what = "creating a private mount namespace";
	if (unshare(CLONE_NEWNS) < 0)
		return -errno;
	return remount_sysfs(netns, ret_what);
}

/* "/" itself (by inode) is not a --root run: host tools may be spawned. */
static bool is_host_root(int fd)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat("/", &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

int halo_host_open(struct halo_ctx *ctx, const char *root, struct halo_errors *errs)
{
	const char *what = "";
	bool private_sysfs;
	int r = halo_root_open(root, &ctx->root_fd);

	if (r < 0) {
		halo_errors_add(errs, "--root %s: %s", root ? root : "/", strerror(-r));
		return r;
	}
	ctx->under_root = !is_host_root(ctx->root_fd);
	/* validate and status touch no network: they do not enter it. */
	if (!ctx->netns || ctx->mode == HALO_MODE_VALIDATE || ctx->mode == HALO_MODE_STATUS)
		return 0;
	private_sysfs = !ctx->under_root;
	r = halo_host_enter_netns(ctx->netns, private_sysfs, &what);
	if (r == -ENOENT || r == -EINVAL)
		halo_errors_add(errs, "--netns %s: /run/netns/%s: %s", ctx->netns, ctx->netns,
				strerror(-r));
	else if (r < 0)
		halo_errors_add(errs, "--netns %s: %s: %s", ctx->netns, what, strerror(-r));
	if (r < 0 || !private_sysfs)
		return r;
	close(ctx->root_fd);
	ctx->root_fd = -1;
	r = halo_root_open(root, &ctx->root_fd);
	if (r < 0)
		halo_errors_add(errs, "--root %s: %s", root ? root : "/", strerror(-r));
	return r;
}
