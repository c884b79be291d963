/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bond.c: whether a link is a port of a bond. ice refuses every DCB
 * change while its port is in a bond ("DCB changes not allowed when in a
 * bond", FACTS 3), so the planner predicts that refusal instead of
 * turning the firmware agent off and then failing half-way.
 *
 * From the root's /sys/class/net/<if>: the "master" link names the upper
 * device; it is a bond when the port has the bonding driver's
 * "bonding_slave" directory or the master its "bonding" directory. (The
 * host table's netlink facts have no IFLA_MASTER yet; once they do, the
 * master's IFLA_INFO_KIND "bond" says the same without sysfs.)
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "roce/roce.h"
#include "util/rootfs.h"

static bool plain_name(const char *s)
{
	return s[0] && !strchr(s, '/') && strcmp(s, ".") != 0 && strcmp(s, "..") != 0 &&
	       strlen(s) < IF_NAMESIZE;
}

int halo_roce_bond_of(const struct halo_ctx *ctx, const char *ifname,
		      char ret[IF_NAMESIZE])
{
	_cleanup_close_ int fd = -1;
	char path[PATH_MAX], target[PATH_MAX], master[IF_NAMESIZE];
	const char *base;
	ssize_t n;
	int err;

	ret[0] = '\0';
	if (!plain_name(ifname))
		return -EINVAL;
	snprintf(path, sizeof(path), "/sys/class/net/%s", ifname);
	err = halo_root_openat(ctx, path, O_PATH | O_DIRECTORY, 0, &fd);
	if (err == -ENOENT || err == -ENOTDIR)
		return 0;
	if (err < 0)
		return err;
	n = readlinkat(fd, "master", target, sizeof(target) - 1);
	if (n < 0)
		return errno == ENOENT || errno == EINVAL ? 0 : -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (!plain_name(base))
		return 0;
	memcpy(master, base, strlen(base) + 1);
	snprintf(path, sizeof(path), "/sys/class/net/%s/bonding_slave", ifname);
	err = halo_root_exists(ctx, path);
	if (err == 0) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/bonding", master);
		err = halo_root_exists(ctx, path);
	}
	if (err <= 0)
		return err; /* a bridge or team port: not a bond */
	memcpy(ret, master, IF_NAMESIZE);
	return 1;
}
