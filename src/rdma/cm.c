/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cm.c: rdma/<entry>/rdma-cm, the rdma_cm defaults of the device's port in
 * configfs (docs/hardware.md "rdma_cm configfs"): /sys/kernel/config/rdma_cm/<ibdev>/ports/<p>/
 * default_roce_mode ("RoCE v2") and default_roce_tos (roce.tos).
 *
 * mkdir of rdma_cm/<ibdev> makes the kernel attach the directory to that
 * device and create ports/<p>/. mlnx-tools' cma_roce_tos removes the
 * directory again; halo-provision keeps it, so a check can read the values
 * without changing anything. Without the directory a check cannot know
 * them (the kernel's defaults, ToS 0, unless a tool set them and removed
 * it): drift. The values live in the device until a reboot or driver
 * reload, so the every-boot and hotplug units apply them again.
 *
 * configfs not mounted on /sys/kernel/config, or rdma_cm not loaded, is a
 * failure that says which: halo-provision does not mount it (systemd's
 * sys-kernel-config.mount does at boot).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>

#include "rdma/rdma.h"
#include "util/rootfs.h"
#include "util/strv.h"

#define CONFIGFS "/sys/kernel/config"
#define RDMA_CM CONFIGFS "/rdma_cm"
#define ROCE_V2 "RoCE v2"

#ifndef CONFIGFS_MAGIC
#define CONFIGFS_MAGIC 0x62656570
#endif

/* Why there is no rdma_cm directory in configfs, as an item message. */
static int no_rdma_cm(struct halo_ctx *ctx, struct halo_item *item)
{
	_cleanup_close_ int fd = -1;
	struct statfs sf;
	bool mounted = false;

	if (halo_root_openat(ctx, CONFIGFS, O_PATH | O_DIRECTORY, 0, &fd) == 0 &&
	    fstatfs(fd, &sf) == 0)
		mounted = (unsigned long)sf.f_type == (unsigned long)CONFIGFS_MAGIC;
	if (!mounted)
		return halo_item_fail(item, -ENOENT, "configfs is not mounted on " CONFIGFS
				      " (mount -t configfs none " CONFIGFS ")");
	return halo_item_fail(item, -ENOENT, "no " RDMA_CM " in configfs: the rdma_cm module is "
			      "not loaded (modules.load = [ \"rdma_cm\" ])");
}

/* PATH is missing: when a symlink on the way leads out of the root (it
 * may resolve on the host), the item fails naming it (-ELOOP); else 0. */
static int planted_link(struct halo_ctx *ctx, struct halo_item *item, const char *path)
{
	_cleanup_free_ char *why = NULL;
	int r = halo_root_explain_missing(ctx, path, &why);

	if (r == -ELOOP)
		(void)halo_item_set_message(item, "%s", why);
	return r;
}

static void dev_dir(char *buf, size_t len, const struct halo_rdma_dev *dev)
{
	struct halo_rdma_path p;

	halo_rdma_path_set(&p, RDMA_CM "/");
	halo_rdma_path_add(&p, dev->ibdev);
	halo_strjoin(buf, len, p.s, NULL);
}

static void attr_path(char *buf, size_t len, const struct halo_rdma_dev *dev, const char *name)
{
	struct halo_rdma_path p;

	halo_rdma_path_set(&p, RDMA_CM "/");
	halo_rdma_path_add(&p, dev->ibdev);
	halo_rdma_path_add(&p, "/ports/");
	halo_rdma_path_uint(&p, dev->port);
	halo_rdma_path_add(&p, "/");
	halo_rdma_path_add(&p, name);
	halo_strjoin(buf, len, p.s, NULL);
}

static int read_failed(struct halo_ctx *ctx, struct halo_item *item, const char *path,
		       int err)
{
	_cleanup_free_ char *why = halo_root_read_error(ctx, path, err);

	if (!why)
		return -ENOMEM;
	(void)halo_item_set_message(item, "reading %s", why);
	return err;
}

struct cm_values {
	char mode[32];
	int tos;
};

/* The attribute NAME into *RET, read as one to be written when WRITTEN
 * (the apply may write it): HALO_SYNC_INVALID with the line when
 * halo_root_write_attr would refuse it (a fixture's symlink or hard link),
 * so the run stops before anything changed. */
static int read_attr(struct halo_ctx *ctx, struct halo_item *item,
		     const struct halo_rdma_dev *dev, const char *name, bool written, char **ret)
{
	_cleanup_free_ char *refused = NULL;
	char path[300];
	size_t len;
	int err;

	attr_path(path, sizeof(path), dev, name);
	if (!written) {
		err = halo_rdma_read_root(ctx, path, ret);
		return err < 0 ? read_failed(ctx, item, path, err) : 0;
	}
	err = halo_root_read_attr(ctx, path, ret, &len);
	refused = halo_root_attr_refusal(ctx, path, err);
	if (refused)
		return halo_item_set_message(item, "%s", refused) < 0 ? -ENOMEM : HALO_SYNC_INVALID;
	return err < 0 ? read_failed(ctx, item, path, err) : 0;
}

/* Both values (the ToS read as written when L sets one); on failure the
 * item fails naming the attribute (a FIFO, a symlink out of the root, the
 * driver's errno), or is HALO_SYNC_INVALID (read_attr). */
static int read_values(struct halo_ctx *ctx, struct halo_item *item,
		       const struct halo_rdma_link *l, const struct halo_rdma_dev *dev,
		       struct cm_values *ret)
{
	_cleanup_free_ char *mode = NULL, *tos = NULL;
	char *end;
	unsigned long v;
	int err;

	err = read_attr(ctx, item, dev, "default_roce_mode", true, &mode);
	if (err != 0)
		return err;
	err = read_attr(ctx, item, dev, "default_roce_tos", l->tos >= 0, &tos);
	if (err != 0)
		return err;
	mode[strcspn(mode, "\n")] = '\0';
	halo_strjoin(ret->mode, sizeof(ret->mode), mode, NULL);
	v = strtoul(tos, &end, 0);
	ret->tos = end != tos && (*end == '\n' || !*end) && v <= 255 ? (int)v : -1;
	return 0;
}

static bool values_ok(const struct halo_rdma_link *l, const struct cm_values *v)
{
	return strcmp(v->mode, ROCE_V2) == 0 && (l->tos < 0 || v->tos == l->tos);
}

static int cm_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_rdma_want *w = item->data;
	struct halo_rdma_dev dev;
	struct cm_values v;
	char path[300];
	int r = halo_rdma_item_dev(ctx, item, &w->link, true, 0, &dev);

	if (r != 0)
		return r;
	if (halo_root_exists(ctx, RDMA_CM) <= 0) {
		(void)halo_item_set_observed(item, NULL);
		r = planted_link(ctx, item, RDMA_CM);
		if (r < 0)
			return r;
		if (ctx->mode == HALO_MODE_APPLY || w->link.modules_pending) {
			/* The modules phase may load rdma_cm first; apply says why
			 * not when it did not. */
			(void)halo_item_set_message(item, "no " RDMA_CM " yet");
			return HALO_SYNC_DIFFERS;
		}
		return no_rdma_cm(ctx, item);
	}
	dev_dir(path, sizeof(path), &dev);
	if (halo_root_exists(ctx, path) <= 0) {
		(void)halo_item_set_observed(item, NULL);
		r = planted_link(ctx, item, path);
		if (r < 0)
			return r;
		(void)halo_item_set_message(item, "%s does not exist: the values are unknown (the "
					    "kernel's defaults, ToS 0, unless a tool set them and "
					    "removed it)", path);
		return HALO_SYNC_DIFFERS;
	}
	r = read_values(ctx, item, &w->link, &dev, &v);
	if (r != 0)
		return r;
	if (v.tos < 0)
		r = halo_item_set_observed(item, "%s, ToS unreadable", v.mode);
	else
		r = halo_item_set_observed(item, "%s, ToS %d", v.mode, v.tos);
	if (r < 0)
		return r;
	return values_ok(&w->link, &v) ? HALO_SYNC_OK : HALO_SYNC_DIFFERS;
}

/* The kernel creates ports/<p>/ inside mkdir(2); a moment more is allowed
 * for a slow configfs, then the failure says what is missing. */
static int wait_ports(struct halo_ctx *ctx, struct halo_item *item,
		      const struct halo_rdma_dev *dev)
{
	char path[300];

	attr_path(path, sizeof(path), dev, "default_roce_tos");
	for (unsigned waited = 0;; waited += HALO_RDMA_POLL_MS) {
		int r;

		if (halo_root_exists(ctx, path) > 0)
			return 0;
		/* A symlink out of the root is no slow kernel: no wait. */
		r = planted_link(ctx, item, path);
		if (r < 0)
			return r;
		if (waited >= HALO_RDMA_WAIT_CM_MS)
			break;
		halo_rdma_sleep_ms(HALO_RDMA_POLL_MS);
	}
	return halo_item_fail(item, -ENOENT, "the kernel did not create %s after mkdir of "
			      RDMA_CM "/%s", path, dev->ibdev);
}

static int write_value(struct halo_ctx *ctx, struct halo_item *item,
		       const struct halo_rdma_dev *dev, const char *name, const char *value)
{
	_cleanup_free_ char *refused = NULL;
	char path[300];
	int err;

	attr_path(path, sizeof(path), dev, name);
	err = halo_root_write_attr(ctx, path, value, strlen(value));
	refused = halo_root_attr_refusal(ctx, path, err);
	if (refused)
		return halo_item_refuse(item, err, "%s", refused);
	if (err < 0)
		return halo_item_fail(item, err, "writing \"%.*s\" to %s",
				      (int)strcspn(value, "\n"), value, path);
	return 0;
}

static int cm_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_rdma_want *w = item->data;
	struct halo_rdma_dev dev;
	struct cm_values v = { .tos = -1 };
	char path[300], buf[16];
	int r = halo_rdma_item_dev(ctx, item, &w->link, false, 0, &dev);

	if (r != 0)
		return r < 0 ? r : -ENODEV;
	if (halo_root_exists(ctx, RDMA_CM) <= 0) {
		r = planted_link(ctx, item, RDMA_CM);
		return r < 0 ? r : no_rdma_cm(ctx, item);
	}
	dev_dir(path, sizeof(path), &dev);
	if (halo_root_exists(ctx, path) <= 0) {
		r = planted_link(ctx, item, path);
		if (r < 0)
			return r;
		r = halo_root_mkdir_p(ctx, path, 0755);
		if (r < 0)
			return halo_item_fail(item, r, "creating %s", path);
	}
	r = wait_ports(ctx, item, &dev);
	if (r < 0)
		return r;
	/* Refused now (the file changed since the observation): -EPERM. */
	r = read_values(ctx, item, &w->link, &dev, &v);
	if (r != 0)
		return r < 0 ? r : -EPERM;
	/* The mode first: the ToS belongs to the RoCE v2 connections. */
	if (strcmp(v.mode, ROCE_V2) != 0) {
		r = write_value(ctx, item, &dev, "default_roce_mode", ROCE_V2 "\n");
		if (r < 0)
			return r;
	}
	if (w->link.tos >= 0 && v.tos != w->link.tos) {
		snprintf(buf, sizeof(buf), "%d\n", w->link.tos);
		r = write_value(ctx, item, &dev, "default_roce_tos", buf);
	}
	return r;
}

const struct halo_item_ops halo_rdma_cm_ops = {
	.observe = cm_observe,
	.apply = cm_apply,
	.free_data = halo_rdma_want_free,
};
