/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysfs.c: driver and PCI address of a link, from <root>/sys/class/net.
 * The directories are opened through util/rootfs.h (confined to the root);
 * only the link text of "device" and "driver" is read (readlinkat), nothing
 * is followed outside the root. The netdevs of a device are found by
 * walking its directory without following any symlink.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/pci.h"
#include "host/sysfs.h"
#include "util/dir.h"
#include "util/rootfs.h"
#include "util/strv.h"

/* "0000:c2:00.0": domain:bus:device.function, as the PCI core names its
 * devices in sysfs (and the config's pci key is parsed): 1 with *RET
 * (may be NULL) set, 0 when the N bytes at S are no PCI address. */
static bool pci_address(const char *s, size_t n, struct halo_pci_addr *ret)
{
	struct halo_pci_addr a;
	char buf[32];

	if (n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (halo_pci_parse(buf, &a) < 0)
		return false;
	if (ret)
		*ret = a;
	return true;
}

/* The PCI function a link sits on: the last PCI-shaped component of its
 * device path (the link /sys/class/net/NAME points into /sys/devices). A
 * PCI NIC is that function itself; a virtio NIC is a virtio device on
 * one ("…/0000:00:03.0/virtio2/net/eth0"), which `ethtool -i` reports as
 * its bus-info too. False when none. */
static bool pci_of_path(const char *path, struct halo_pci_addr *ret)
{
	const char *p = path;
	bool found = false;

	while (*p) {
		size_t n = strcspn(p, "/");

		found = pci_address(p, n, ret) || found;
		p += n;
		p += strspn(p, "/");
	}
	return found;
}

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
			  struct halo_link_facts *ret, char **ret_why)
{
	_cleanup_close_ int classfd = -1, netfd = -1, devfd = -1;
	_cleanup_free_ char *driver = NULL, *device = NULL;
	struct halo_pci_addr pci;
	bool has_pci = false;
	char path[PATH_MAX], target[PATH_MAX];
	ssize_t n;
	int err;

	if (!ifname[0] || strchr(ifname, '/') || strcmp(ifname, ".") == 0 ||
	    strcmp(ifname, "..") == 0)
		return -EINVAL;
	snprintf(path, sizeof(path), "/sys/class/net/%s", ifname);
	err = open_dir(ctx, path, &netfd);
	if (err == 0 && netfd < 0)
		err = halo_root_explain_missing(ctx, path, ret_why);
	if (err < 0)
		return err;
	if (netfd >= 0) {
		err = link_basename(netfd, "device", &device);
		if (err < 0)
			return err;
	}
	if (device) {
		/* The class entry's link text names the whole device path. */
		err = open_dir(ctx, "/sys/class/net", &classfd);
		if (err < 0)
			return err;
		n = classfd >= 0 ? readlinkat(classfd, ifname, target, sizeof(target) - 1) : -1;
		if (n > 0) {
			target[n] = '\0';
			has_pci = pci_of_path(target, &pci);
		} else {
			has_pci = pci_address(device, strlen(device), &pci);
		}
		snprintf(path, sizeof(path), "/sys/class/net/%s/device", ifname);
		err = open_dir(ctx, path, &devfd);
		if (err == 0 && devfd < 0)
			err = halo_root_explain_missing(ctx, path, ret_why);
		if (err < 0)
			return err;
		if (devfd >= 0) {
			err = link_basename(devfd, "driver", &driver);
			if (err < 0)
				return err;
		}
	}
	ret->driver = TAKE_PTR(driver);
	ret->has_pci = has_pci;
	if (has_pci)
		ret->pci = pci;
	return 0;
}

void halo_link_facts_free(struct halo_link_facts *f)
{
	free(f->driver);
	f->driver = NULL;
	f->has_pci = false;
}

/* Bounds of the walk below. A netdev of a PCI function hangs in its "net"
 * directory or one of a child device's (virtio0/net, an auxiliary
 * device's), never deeper: the walk looks two directories down and no
 * further, so a NIC's RDMA GID tables (thousands of entries, deeper) are
 * never read. The entry budget only bounds a hostile tree. */
#define WALK_DEPTH 2
#define WALK_ENTRIES 65536

static int push_unique(char ***names, const char *name)
{
	return halo_strv_contains(*names, name) ? 0 : halo_strv_push(names, name);
}

struct walk {
	unsigned depth;
	size_t budget;
	char ***names;
};

static int net_entry(int dirfd, const char *name, unsigned char type, void *userdata)
{
	struct walk *w = userdata;

	if (w->budget-- == 0)
		return -E2BIG;
	return push_unique(w->names, name);
}

/* Entries of the "net" directory NAME in DIRFD: one per netdev. */
static int list_net(int dirfd, const char *name, struct walk *w)
{
	int fd, err;

	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = halo_dir_each(fd, net_entry, w);
	close(fd);
	return err;
}

/* The directory NAME in DIRFD at the walk's last level: of all it holds
 * only a "net" directory counts, so that is opened directly instead of
 * listing NAME. Absent, a symlink (ELOOP: O_NOFOLLOW) or not a directory
 * is what the listing would have skipped. */
static int child_net(int dirfd, const char *name, struct walk *w)
{
	char path[NAME_MAX + sizeof("/net")];
	int fd, err;

	if ((size_t)snprintf(path, sizeof(path), "%s/net", name) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR || errno == ELOOP ? 0 : -errno;
	err = halo_dir_each(fd, net_entry, w);
	close(fd);
	return err;
}

static int walk(int fd, struct walk *w);

static int walk_entry(int dirfd, const char *name, unsigned char type, void *userdata)
{
	struct walk *w = userdata;
	int sub, err;

	if (w->budget-- == 0)
		return -E2BIG;
	if (type == DT_UNKNOWN) {
		struct stat st;

		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return -errno;
		type = S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;
	}
	if (type != DT_DIR)
		return 0;
	if (strcmp(name, "net") == 0)
		return list_net(dirfd, name, w);
	/* A function below this one (behind a bridge): its links have its
	 * address, not this one's. */
	if (pci_address(name, strlen(name), NULL))
		return 0;
	if (w->depth >= WALK_DEPTH)
		return 0;
	if (w->depth + 1 == WALK_DEPTH)
		return child_net(dirfd, name, w);
	sub = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sub < 0)
		return -errno;
	w->depth++;
	err = walk(sub, w);
	w->depth--;
	return err;
}

/* Walks the real directories below FD (owned), never a symlink: sysfs
 * links back up (driver, subsystem, physfn) would loop or leave the
 * device. */
static int walk(int fd, struct walk *w)
{
	int err = halo_dir_each(fd, walk_entry, w);

	close(fd);
	return err;
}

int halo_link_sysfs_device_links(const struct halo_ctx *ctx, const char *path,
				 char ***names)
{
	struct walk w = { .budget = WALK_ENTRIES, .names = names };
	int fd, err;

	err = halo_root_openat(ctx, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, &fd);
	if (err < 0)
		return err;
	return walk(fd, &w);
}
