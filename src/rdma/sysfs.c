/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysfs.c: netdev -> RDMA device and port, read from the root's sysfs
 * (docs/hardware.md "RDMA devices and GIDs"): /sys/class/net/<if>/device/infiniband/<ibdev> names the
 * device (whatever rdma-core renamed it to), the GID ndevs attributes
 * name the port, node_type tells RoCE from iWARP.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rdma/rdma.h"
#include "util/rootfs.h"
#include "util/strv.h"

int halo_rdma_read_root(void *userdata, const char *path, char **ret)
{
	size_t len;

	return halo_read_file(userdata, path, ret, &len);
}

/* ERR for the file at PATH, *RET_WHY saying so (see rdma.h). */
static int read_failed(const struct halo_ctx *ctx, const char *path, int err, char **ret_why)
{
	if (err == -ENOMEM)
		return err;
	free(*ret_why);
	*ret_why = halo_root_read_error(ctx, path, err);
	return *ret_why ? err : -ENOMEM;
}

void halo_rdma_sleep_ms(unsigned ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Drops the trailing newline sysfs prints. */
static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
}

/* A name as the kernel's entries have them: no path, not "." or "..". */
static bool plain_name(const char *s)
{
	return s[0] && !strchr(s, '/') && strcmp(s, ".") != 0 && strcmp(s, "..") != 0;
}

/* Whether some GID of the port at P names IFNAME (an empty entry reads
 * EINVAL). P is extended in place, and left longer. */
static int port_has_ndev(struct halo_ctx *ctx, struct halo_rdma_path *p, const char *ifname,
			 char **ret_why)
{
	_cleanup_strv_free_ char **names = NULL;
	size_t dir;
	int err;

	halo_rdma_path_add(p, "/gid_attrs/ndevs");
	err = halo_root_list_dir(ctx, p->s, &names);
	if (err == -ENOENT)
		return 0;
	if (err < 0)
		return read_failed(ctx, p->s, err, ret_why);
	halo_rdma_path_add(p, "/");
	dir = p->len;
	for (size_t i = 0; names[i]; i++) {
		_cleanup_free_ char *text = NULL;

		halo_rdma_path_cut(p, dir);
		halo_rdma_path_add(p, names[i]);
		err = halo_rdma_read_root(ctx, p->s, &text);
		if (err == -EINVAL || err == -ENODATA || err == -ENOENT)
			continue;
		if (err < 0)
			return read_failed(ctx, p->s, err, ret_why);
		chomp(text);
		if (strcmp(text, ifname) == 0)
			return 1;
	}
	return 0;
}

/* The port of IBDEV whose GIDs name IFNAME; the only port when none does
 * yet (no GID of the link is in the table before the link is up). */
static int find_port(struct halo_ctx *ctx, const char *ibdev, const char *ifname,
		     unsigned *ret, char **ret_why)
{
	_cleanup_strv_free_ char **ports = NULL;
	struct halo_rdma_path p;
	unsigned only = 0, n = 0;
	size_t dir;
	int err;

	halo_rdma_path_set(&p, "/sys/class/infiniband/");
	halo_rdma_path_add(&p, ibdev);
	halo_rdma_path_add(&p, "/ports");
	err = halo_root_list_dir(ctx, p.s, &ports);
	if (err == -ENOENT) {
		_cleanup_free_ char *shown = halo_root_display_path(ctx, p.s);

		*ret_why = shown ? halo_strdup_printf("%s has no ports directory %s", ibdev, shown) :
				   NULL;
		return *ret_why ? -ENODEV : -ENOMEM;
	}
	if (err < 0)
		return read_failed(ctx, p.s, err, ret_why);
	halo_rdma_path_add(&p, "/");
	dir = p.len;
	for (size_t i = 0; ports[i]; i++) {
		char *end;
		unsigned long port = strtoul(ports[i], &end, 10);

		if (*end || port == 0 || port > 255)
			continue;
		n++;
		only = (unsigned)port;
		/* The number as parsed: "01" is port 1. */
		halo_rdma_path_cut(&p, dir);
		halo_rdma_path_uint(&p, (unsigned)port);
		err = port_has_ndev(ctx, &p, ifname, ret_why);
		if (err < 0)
			return err;
		if (err > 0) {
			*ret = (unsigned)port;
			return 0;
		}
	}
	if (n == 1) {
		*ret = only;
		return 0;
	}
	*ret_why = halo_strdup_printf(n ? "no port of %s has a GID of %s" : "%s has no ports",
				      ibdev, ifname);
	return -ENODEV;
}

int halo_rdma_find_dev(struct halo_ctx *ctx, const char *ifname,
		       struct halo_rdma_dev *ret, char **ret_why)
{
	_cleanup_strv_free_ char **devs = NULL;
	_cleanup_free_ char *type = NULL;
	struct halo_rdma_dev dev = { 0 };
	struct halo_rdma_path p;
	int err;

	*ret_why = NULL;
	if (!plain_name(ifname))
		return -EINVAL;
	halo_rdma_path_set(&p, "/sys/class/net/");
	halo_rdma_path_add(&p, ifname);
	halo_rdma_path_add(&p, "/device/infiniband");
	err = halo_root_list_dir(ctx, p.s, &devs);
	if (err == -ENOENT || err == -ENOTDIR || (err == 0 && !devs[0]))
		return -ENODEV;
	if (err < 0)
		return read_failed(ctx, p.s, err, ret_why);
	if (devs[1]) {
		*ret_why = halo_strdup_printf("%s has several RDMA devices (%s, %s)", ifname,
					      devs[0], devs[1]);
		return -ENOTUNIQ;
	}
	if (!plain_name(devs[0]) || strlen(devs[0]) >= sizeof(dev.ibdev))
		return -EINVAL;
	halo_strjoin(dev.ibdev, sizeof(dev.ibdev), devs[0], NULL);
	/* "4: RNIC" is iWARP (E810 with enable_iwarp), "1: CA" RoCE. */
	halo_rdma_path_set(&p, "/sys/class/infiniband/");
	halo_rdma_path_add(&p, dev.ibdev);
	halo_rdma_path_add(&p, "/node_type");
	err = halo_rdma_read_root(ctx, p.s, &type);
	if (err < 0 && err != -ENOENT)
		return read_failed(ctx, p.s, err, ret_why);
	dev.iwarp = type && strstr(type, "RNIC");
	err = find_port(ctx, dev.ibdev, ifname, &dev.port, ret_why);
	if (err < 0)
		return err;
	*ret = dev;
	return 0;
}

/* The RDMA half of split Ethernet drivers (docs/hardware.md "RDMA kernel modules"). */
static const struct {
	const char *driver, *module;
} rdma_modules[] = {
	{ "ice", "irdma" },       { "mlx5_core", "mlx5_ib" }, { "mlx4_en", "mlx4_ib" },
	{ "bnxt_en", "bnxt_re" }, { "qede", "qedr" },         { "hns3", "hns_roce_hw_v2" },
};

char *halo_rdma_why_no_dev(struct halo_ctx *ctx, const char *ifname, const char *driver)
{
	_cleanup_free_ char *shown = NULL;
	const char *module = NULL;
	char path[128];

	for (size_t i = 0; driver && i < ARRAY_SIZE(rdma_modules); i++)
		if (strcmp(driver, rdma_modules[i].driver) == 0)
			module = rdma_modules[i].module;
	if (!module)
		return halo_strdup_printf("no RDMA device on %s: driver %s has no RoCE", ifname,
					  driver && driver[0] ? driver : "(none)");
	/* Where the device was looked for: what an operator checks first (a
	 * symlink planted there reads as no device at all). */
	snprintf(path, sizeof(path), "/sys/class/net/%s/device/infiniband", ifname);
	shown = halo_root_display_path(ctx, path);
	if (!shown)
		return NULL;
	snprintf(path, sizeof(path), "/sys/module/%s", module);
	if (halo_root_exists(ctx, path) <= 0)
		return halo_strdup_printf("no RDMA device on %s (none in %s): module %s is not "
					  "loaded (modules.load = [ \"%s\" ])", ifname, shown, module,
					  module);
	if (strcmp(driver, "ice") == 0)
		return halo_strdup_printf("no RDMA device on %s (none in %s): irdma is loaded but "
					  "has no device on it (RoCE and iWARP both off in devlink: "
					  "roce.enable = true)", ifname, shown);
	return halo_strdup_printf("no RDMA device on %s (none in %s): %s is loaded but has no "
				  "device on it", ifname, shown, module);
}

static int read_attr(struct halo_ctx *ctx, const char *path, char *buf, size_t len)
{
	_cleanup_free_ char *text = NULL;
	int err = halo_rdma_read_root(ctx, path, &text);

	if (err < 0)
		return err;
	chomp(text);
	halo_strjoin(buf, len, text, NULL);
	return 0;
}

int halo_rdma_port_state(struct halo_ctx *ctx, const struct halo_rdma_dev *dev,
			 char *state, size_t state_len, char *phys, size_t phys_len,
			 char **ret_why)
{
	struct halo_rdma_path p;
	size_t dir;
	int err;

	halo_rdma_path_set(&p, "/sys/class/infiniband/");
	halo_rdma_path_add(&p, dev->ibdev);
	halo_rdma_path_add(&p, "/ports/");
	halo_rdma_path_uint(&p, dev->port);
	halo_rdma_path_add(&p, "/");
	dir = p.len;
	halo_rdma_path_add(&p, "state");
	err = read_attr(ctx, p.s, state, state_len);
	if (err < 0)
		return read_failed(ctx, p.s, err, ret_why);
	halo_rdma_path_cut(&p, dir);
	halo_rdma_path_add(&p, "phys_state");
	err = read_attr(ctx, p.s, phys, phys_len);
	return err < 0 ? read_failed(ctx, p.s, err, ret_why) : 0;
}
