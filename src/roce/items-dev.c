/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * items-dev.c: roce/<if>/enable (devlink enable_roce) and
 * roce/<if>/fw-lldp-agent (the ice private flag, over ethtool netlink).
 *
 * ice: enable_roce and enable_iwarp are runtime params and exclusive (the
 * driver refuses either while the other is on), so enabling RoCE turns
 * iWARP off first, and says so. Runtime values do not persist: the
 * every-boot unit applies them again.
 * mlx5: enable_roce is a driverinit param (RoCE on by default): the value
 * reads back at once but takes effect at the next devlink reload or
 * driver load (docs/hardware.md "devlink parameters"). So a set is
 * remembered in the item's memo with the boot and the instance's reload
 * count, and the item is pending until either has moved on.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <linux/devlink.h>

#include "netlink/devlink.h"
#include "netlink/ethtool.h"
#include "roce/roce.h"
#include "util/rootfs.h"
#include "util/strv.h"

#define FW_LLDP "fw-lldp-agent"

static uint8_t cmode_of(const struct halo_roce_want *w)
{
	return w->nic == HALO_ROCE_NIC_MLX5 ? DEVLINK_PARAM_CMODE_DRIVERINIT
					    : DEVLINK_PARAM_CMODE_RUNTIME;
}

/* Errors that mean "this device has no such knob". */
static bool lacks_knob(int err)
{
	return err == -ENOENT || err == -ENODEV || err == -EOPNOTSUPP ||
	       err == -EINVAL || err == -ENODATA || err == -EPROTOTYPE;
}

/* Not here: no observed value, MSG says why. */
static int unsupported(struct halo_item *item, const char *msg, int err)
{
	free(item->observed);
	item->observed = NULL;
	halo_item_set_message(item, "%s: %s", msg, strerror(-err));
	return HALO_SYNC_UNSUPPORTED;
}

/* The boot the host runs (the root's boot_id), "unknown" when it cannot
 * be read. */
static void boot_id(struct halo_ctx *ctx, char buf[40])
{
	_cleanup_free_ char *text = NULL;
	size_t len;

	if (halo_read_file(ctx, "/proc/sys/kernel/random/boot_id", &text, &len) < 0 ||
	    len == 0) {
		snprintf(buf, 40, "unknown");
		return;
	}
	text[strcspn(text, " \n")] = '\0';
	snprintf(buf, 40, "%s", text);
}

/* The memo of a driverinit value set now: the boot, and the instance's
 * driver_reinit reload count when the kernel reports one. */
static int remember_set(struct halo_ctx *ctx, struct halo_nlt *t, struct halo_item *item,
			const struct halo_roce_want *w)
{
	char boot[40];
	uint64_t reloads;

	boot_id(ctx, boot);
	free(item->memo);
	if (halo_devlink_reload_count(t, "pci", w->pci, &reloads) == 0)
		item->memo = halo_strdup_printf("boot %s reloads %" PRIu64, boot, reloads);
	else
		item->memo = halo_strdup_printf("boot %s", boot);
	return item->memo ? 0 : -ENOMEM;
}

/* Whether the driverinit value the memo says was set is still waiting:
 * the same boot, and no reload since (an unknown count waits for the
 * boot). */
static bool still_waiting(struct halo_ctx *ctx, struct halo_nlt *t, const char *memo,
			  const struct halo_roce_want *w)
{
	char boot[40], was[40];
	uint64_t reloads, then;
	int n = sscanf(memo, "boot %39s reloads %" SCNu64, was, &then);

	boot_id(ctx, boot);
	if (n < 1 || strcmp(was, boot) != 0)
		return false;
	return n < 2 || halo_devlink_reload_count(t, "pci", w->pci, &reloads) < 0 ||
	       reloads <= then;
}

static int enable_observe(struct halo_ctx *ctx, struct halo_item *item,
			  struct halo_roce_want *w)
{
	struct halo_nlt *t;
	bool roce = false, iwarp = false;
	int err;

	if (!w->pci[0]) {
		halo_item_set_message(item, "%s is on no PCI device: no devlink instance", w->ifname);
		return HALO_SYNC_UNSUPPORTED;
	}
	err = halo_roce_nlt(ctx, item, &t);
	if (err < 0)
		return err;
	err = halo_devlink_param_get_bool(t, "pci", w->pci, "enable_roce", cmode_of(w), &roce);
	if (lacks_knob(err)) {
		char msg[160];

		snprintf(msg, sizeof(msg), "devlink pci/%s has no %s param enable_roce", w->pci,
			 cmode_of(w) == DEVLINK_PARAM_CMODE_RUNTIME ? "runtime" : "driverinit");
		return unsupported(item, msg, err);
	}
	if (err < 0)
		return halo_roce_fail(ctx, item, err, "reading devlink param enable_roce");
	halo_item_set_observed(item, "%s", roce ? "true" : "false");
	if (roce == w->on && item->memo && still_waiting(ctx, t, item->memo, w)) {
		halo_item_set_message(item, "driverinit value set, not active yet: active after "
					    "`devlink dev reload pci/%s` or a reboot", w->pci);
		return HALO_SYNC_PENDING;
	}
	/* Active now (reloaded, or another boot): nothing left to wait for. */
	free(item->memo);
	item->memo = NULL;
	if (roce == w->on)
		return HALO_SYNC_OK;
	if (w->on && w->nic == HALO_ROCE_NIC_ICE &&
	    halo_devlink_param_get_bool(t, "pci", w->pci, "enable_iwarp",
					DEVLINK_PARAM_CMODE_RUNTIME, &iwarp) == 0 && iwarp)
		halo_item_set_message(item, "enable_iwarp is on: it is turned off first (RoCE v2 and iWARP are exclusive)");
	return HALO_SYNC_DIFFERS;
}

static int enable_apply(struct halo_ctx *ctx, struct halo_item *item,
			struct halo_roce_want *w)
{
	struct halo_nlt *t;
	bool iwarp = false;
	int err = halo_roce_nlt(ctx, item, &t);

	if (err < 0)
		return err;
	if (w->on && w->nic == HALO_ROCE_NIC_ICE) {
		err = halo_devlink_param_get_bool(t, "pci", w->pci, "enable_iwarp",
						  DEVLINK_PARAM_CMODE_RUNTIME, &iwarp);
		if (err == 0 && iwarp) {
			err = halo_devlink_param_set_bool(t, "pci", w->pci, "enable_iwarp",
							  DEVLINK_PARAM_CMODE_RUNTIME, false);
			if (err < 0)
				return halo_roce_fail(ctx, item, err,
						      "turning enable_iwarp off (exclusive with RoCE v2)");
		}
	}
	err = halo_devlink_param_set_bool(t, "pci", w->pci, "enable_roce", cmode_of(w), w->on);
	if (err < 0)
		return halo_roce_fail(ctx, item, err, "setting devlink param enable_roce");
	if (cmode_of(w) == DEVLINK_PARAM_CMODE_DRIVERINIT) {
		err = remember_set(ctx, t, item, w);
		if (err < 0)
			return err;
	}
	if (iwarp)
		halo_item_set_note(item, "enable_iwarp turned off first (RoCE v2 and iWARP are exclusive)");
	return 0;
}

static int lldp_observe(struct halo_ctx *ctx, struct halo_item *item,
			const struct halo_roce_want *w)
{
	struct halo_nlt *t;
	bool on = false;
	int err = halo_roce_nlt(ctx, item, &t);

	if (err < 0)
		return err;
	err = halo_ethtool_privflag_get(t, w->ifname, FW_LLDP, &on);
	if (err == -ENOENT || err == -EOPNOTSUPP) {
		char msg[96];

		snprintf(msg, sizeof(msg), "%s has no private flag " FW_LLDP, w->ifname);
		return unsupported(item, msg, err);
	}
	if (err < 0)
		return halo_roce_fail(ctx, item, err, "reading private flag " FW_LLDP);
	halo_item_set_observed(item, "%s", on ? "on" : "off");
	if (on != w->on && !w->on)
		halo_item_set_message(item, "the firmware LLDP agent blocks host DCB: turned off before any DCB change (it persists in firmware)");
	return on == w->on ? HALO_SYNC_OK : HALO_SYNC_DIFFERS;
}

static int lldp_apply(struct halo_ctx *ctx, struct halo_item *item,
		      const struct halo_roce_want *w)
{
	struct halo_nlt *t;
	int err = halo_roce_nlt(ctx, item, &t);

	if (err < 0)
		return err;
	err = halo_ethtool_privflag_set(t, w->ifname, FW_LLDP, w->on);
	if (err < 0)
		return halo_roce_fail(ctx, item, err, w->on ? "turning " FW_LLDP " on"
							    : "turning " FW_LLDP " off");
	return 0;
}

static int dev_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	struct halo_roce_want *w = item->data;

	/* The agent goes off only for host DCB, which ice refuses on a
	 * bond's port (and turning it off resets PFC and the APP table). */
	return w->kind == HALO_ROCE_ENABLE ? enable_observe(ctx, item, w)
					   : halo_roce_bond_refuses(item, w, lldp_observe(ctx, item, w));
}

static int dev_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	struct halo_roce_want *w = item->data;

	return w->kind == HALO_ROCE_ENABLE ? enable_apply(ctx, item, w)
					   : lldp_apply(ctx, item, w);
}

const struct halo_item_ops halo_roce_dev_ops = {
	.observe = dev_observe,
	.apply = dev_apply,
};
