/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * firmware.c: ready/<entry>/firmware, the NIC's firmware as the driver
 * reports it through devlink (DEVLINK_CMD_INFO_GET, `devlink dev info`):
 *   ice        the running "fw.psid.api", its NVM version ("%x.%02x" of
 *              the NVM major and minor, ice devlink.c ice_info_nvm_ver;
 *              the first word of `ethtool -i`'s firmware-version), against
 *              4.91: older E810 NVMs are what the seed guide says to update
 *   mlx5_core  the running "fw.version", reported (no threshold)
 * Anything else (veth, virtio, no driver) has no firmware to check.
 *
 * devlink only, no ETHTOOL_GDRVINFO fallback: both drivers select
 * NET_DEVLINK in Kconfig and have answered INFO_GET since long before the
 * kernels this tool supports, so a kernel that runs them has devlink; an
 * answer-less devlink means no such device here, which the ioctl could not
 * improve on.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "netlink/devlink.h"
#include "netlink/context.h"
#include "netlink/transport.h"
#include "ready/ready.h"
#include "util/rootfs.h"

int halo_nvm_version_parse(const char *s, unsigned *ret)
{
	unsigned v[2] = { 0, 0 };
	const char *p = s;

	/* ice prints both numbers in hex: a major of up to 4 digits, then
	 * exactly two for the minor (u8). */
	for (int i = 0; i < 2; i++) {
		int n = 0;

		while (n < 4 && ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))) {
			v[i] = v[i] * 16 + (unsigned)(*p <= '9' ? *p - '0' : *p - 'a' + 10);
			p++;
			n++;
		}
		if (n == 0 || (i == 1 && n != 2) || *p != (i == 0 ? '.' : '\0'))
			return -EINVAL;
		p++;
	}
	*ret = v[0] << 8 | v[1];
	return 0;
}

/* The driver bound to PCI function PCI in the root's sysfs ("" when none):
 * for a run whose host table was not built (--only ready alone). */
static int pci_driver(struct halo_ctx *ctx, const char *pci, char *buf, size_t size)
{
	_cleanup_close_ int fd = -1;
	char path[96], target[PATH_MAX];
	const char *base;
	ssize_t n;
	int r;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s", pci);
	r = halo_root_openat(ctx, path, O_PATH | O_DIRECTORY | O_CLOEXEC, 0, &fd);
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	if (r < 0)
		return r;
	n = readlinkat(fd, "driver", target, sizeof(target) - 1);
	if (n < 0)
		return errno == ENOENT ? 0 : -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) >= size)
		return -ENAMETOOLONG; /* no driver's name is that long */
	memcpy(buf, base, strlen(base) + 1);
	return 0;
}

enum nic { NIC_NONE, NIC_ICE, NIC_MLX5 };

static enum nic nic_of(const char *driver)
{
	if (strcmp(driver, "ice") == 0)
		return NIC_ICE;
	if (strcmp(driver, "mlx5_core") == 0)
		return NIC_MLX5;
	return NIC_NONE;
}

/* devlink has nothing to say about this device. */
static bool no_answer(int err)
{
	return err == -ENOENT || err == -ENODEV || err == -EOPNOTSUPP;
}

_printf_(2, 3) static int unsupported(struct halo_item *item, const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	(void)halo_item_set_message(item, "%s", msg);
	return HALO_SYNC_UNSUPPORTED;
}

static int check_ice(struct halo_item *item, const struct halo_ready_want *w,
		     const struct halo_devlink_info *info)
{
	const char *nvm = halo_devlink_info_running(info, "fw.psid.api");
	const char *bundle = halo_devlink_info_running(info, "fw.bundle_id");
	unsigned v, min;

	if (!nvm)
		return unsupported(item, "devlink pci/%s (%s) reports no running fw.psid.api",
				   w->pci, w->driver);
	(void)halo_item_set_observed(item, "NVM %s%s%s%s", nvm, bundle ? " (fw.bundle_id " : "",
				     bundle ? bundle : "", bundle ? ")" : "");
	if (halo_nvm_version_parse(nvm, &v) < 0)
		return unsupported(item, "devlink pci/%s: fw.psid.api \"%s\" is not an NVM "
				   "version", w->pci, nvm);
	(void)halo_nvm_version_parse(HALO_E810_NVM_MIN, &min);
	if (v >= min)
		return HALO_SYNC_OK;
	(void)halo_item_set_message(item, "%s (%s): E810 NVM %s is older than %s: update the NVM "
				    "with Intel's NVM update tool; ethtool -i shows "
				    "firmware-version", w->entry, w->pci, nvm, HALO_E810_NVM_MIN);
	return HALO_SYNC_DIFFERS;
}

static int check_mlx5(struct halo_item *item, const struct halo_ready_want *w,
		      const struct halo_devlink_info *info)
{
	const char *fw = halo_devlink_info_running(info, "fw.version");

	if (!fw)
		return unsupported(item, "devlink pci/%s (%s) reports no running fw.version",
				   w->pci, w->driver);
	(void)halo_item_set_observed(item, "fw.version %s", fw);
	return HALO_SYNC_OK;
}

int halo_ready_firmware_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	struct halo_ready_want *w = item->data;
	_cleanup_free_ struct halo_devlink_info *info = NULL;
	struct halo_nlt *t;
	enum nic nic;
	int r;

	(void)halo_item_set_wanted(item, "E810 NVM >= %s; ConnectX: reported", HALO_E810_NVM_MIN);
	if (!w->pci[0])
		return unsupported(item, "%s", w->why_no_pci);
	if (!w->driver[0]) {
		r = pci_driver(ctx, w->pci, w->driver, sizeof(w->driver));
		if (r < 0)
			return halo_item_fail(item, r, "reading the driver of %s", w->pci);
		if (!w->driver[0])
			return unsupported(item, "no driver is bound to %s", w->pci);
	}
	nic = nic_of(w->driver);
	if (nic == NIC_NONE)
		return unsupported(item, "%s is driven by %s, not a RoCE NIC driver (ice, "
				   "mlx5_core): no NIC firmware to check", w->pci, w->driver);
	if (nic == NIC_ICE)
		(void)halo_item_set_wanted(item, "NVM >= %s", HALO_E810_NVM_MIN);
	else
		(void)halo_item_set_wanted(item, "reported");
	/* devlink answers for the running kernel, not for a tree. */
	if (ctx->under_root && !ctx->netns)
		return unsupported(item, "--root %s is a tree: the firmware is asked of the "
				   "running kernel's devlink (add --netns for a namespace)",
				   ctx->root);
	r = halo_netlink_transport(ctx, &t);
	if (r < 0)
		return halo_item_fail(item, r, "opening netlink");
	info = malloc(sizeof(*info));
	if (!info)
		return halo_item_fail(item, -ENOMEM, "devlink info");
	r = halo_devlink_info_get(t, "pci", w->pci, info);
	if (no_answer(r))
		return unsupported(item, "devlink has no info for pci/%s: %s", w->pci,
				   strerror(-r));
	if (r < 0) {
		const char *ext = halo_nlt_extack(t);

		return halo_item_fail(item, r, "devlink info pci/%s%s%s%s", w->pci,
				      ext ? " (driver: " : "", ext ? ext : "", ext ? ")" : "");
	}
	return nic == NIC_ICE ? check_ice(item, w, info) : check_mlx5(item, w, info);
}
