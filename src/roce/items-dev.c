/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * items-dev.c: roce/<if>/enable (devlink enable_roce) and
 * roce/<if>/fw-lldp-agent (the ice private flag, over ethtool netlink).
 *
 * ice: enable_roce and enable_iwarp are runtime params and exclusive (the
 * driver refuses either while the other is on), so enabling RoCE turns
 * iWARP off first, and says so. Runtime values do not persist: the
 * every-boot unit applies them again.
 * mlx5: enable_roce is a driverinit param; a change waits for a devlink
 * reload (pending), RoCE is on by default.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/devlink.h>

#include "netlink/devlink.h"
#include "netlink/ethtool.h"
#include "roce/roce.h"

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
	if (w->driverinit_set) {
		halo_item_set_message(item, "driverinit value set: active after `devlink dev reload pci/%s`",
				      w->pci);
		return roce == w->on ? HALO_SYNC_PENDING : HALO_SYNC_DIFFERS;
	}
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
	if (cmode_of(w) == DEVLINK_PARAM_CMODE_DRIVERINIT)
		w->driverinit_set = true;
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
