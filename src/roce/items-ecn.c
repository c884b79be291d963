/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * items-ecn.c: roce/<if>/ecn, the vendor mlx5 driver's (MLNX_OFED /
 * DOCA-OFED) per-priority ECN switches under the root's
 * /sys/class/net/<if>/ecn/roce_np/enable/<prio> and roce_rp/enable/<prio>
 * ("1" or "0"). The wanted priorities are on in both the notification
 * point (np) and the reaction point (rp); the others are left as found
 * (the driver's default is ECN on for every priority, so RoCE traffic
 * outside the configured priority keeps its congestion control), or with
 * ecn_exclusive turned off. Upstream mlx5 and irdma have no such
 * directory: unsupported, with the reason.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "roce/roce.h"
#include "util/rootfs.h"
#include "util/strv.h"

static const char *const points[] = { "roce_np", "roce_rp" };

static void attr_path(char *buf, size_t len, const struct halo_roce_want *w,
		      const char *point, int prio)
{
	const char digit[2] = { (char)('0' + prio), '\0' }; /* a priority, 0..7 */

	halo_strjoin(buf, len, "/sys/class/net/", w->ifname, "/ecn/", point, "/enable/",
		     digit, NULL);
}

static int unsupported(struct halo_item *item, const struct halo_roce_want *w,
		       const char *path)
{
	free(item->observed);
	item->observed = NULL;
	halo_item_set_message(item, "%s has no %s: per-priority ECN exists only with the vendor mlx5 driver (MLNX_OFED/DOCA); upstream mlx5 and irdma have no such knob",
			      w->ifname, path);
	return HALO_SYNC_UNSUPPORTED;
}

/* Whether the apply may write the switch of priority P (either point):
 * those are read as attributes to be written, and refused (symlinked or
 * hard-linked in a fixture) before anything changed. */
static bool may_write(const struct halo_roce_want *w, int p)
{
	return w->ecn_exclusive || (w->ecn_mask & (1u << p));
}

/* The masks of priorities with ECN on, per point; HALO_SYNC_INVALID with
 * the line when a switch the apply may write would be refused. */
static int read_masks(struct halo_ctx *ctx, struct halo_item *item,
		      const struct halo_roce_want *w, uint8_t masks[2])
{
	char path[256];

	for (int k = 0; k < 2; k++) {
		char **names = NULL;
		int err;

		/* Listed first: its eight switches are then opened in the
		 * directory the listing keeps, not each from the root. */
		halo_strjoin(path, sizeof(path), "/sys/class/net/", w->ifname, "/ecn/",
			     points[k], "/enable", NULL);
		err = halo_root_list_dir(ctx, path, &names);
		halo_strv_free(names);
		if (err == -ENOENT)
			return unsupported(item, w, path);
		if (err < 0)
			return halo_item_fail(item, err, "listing %s", path);
		masks[k] = 0;
		for (int p = 0; p < 8; p++) {
			_cleanup_free_ char *text = NULL;
			size_t len;

			attr_path(path, sizeof(path), w, points[k], p);
			if (may_write(w, p)) {
				_cleanup_free_ char *refused = NULL;

				err = halo_root_read_attr(ctx, path, &text, &len);
				refused = halo_root_attr_refusal(ctx, path, err);
				if (refused)
					return halo_item_set_message(item, "%s", refused) < 0 ?
					       -ENOMEM : HALO_SYNC_INVALID;
			} else {
				err = halo_read_file(ctx, path, &text, &len);
			}
			if (err == -ENOENT)
				return unsupported(item, w, path);
			if (err < 0)
				return halo_item_fail(item, err, "reading %s", path);
			if (text[0] == '1')
				masks[k] |= (uint8_t)(1u << p);
		}
	}
	return 0;
}

static void note_pfc(struct halo_item *item, const struct halo_roce_want *w)
{
	uint8_t lossy = w->ecn_mask & (uint8_t)~w->pfc_mask;
	char buf[40];

	if (!lossy)
		return;
	halo_roce_mask_text(lossy, buf, sizeof(buf));
	halo_item_set_message(item, "ECN on priorities %s without PFC: marking works, but those priorities stay lossy",
			      buf);
}

static int ecn_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_roce_want *w = item->data;
	uint8_t m[2];
	char np[40], rp[40];
	int r = read_masks(ctx, item, w, m);

	if (r != 0)
		return r;
	halo_roce_mask_text(m[0], np, sizeof(np));
	halo_roce_mask_text(m[1], rp, sizeof(rp));
	if (m[0] == m[1])
		halo_item_set_observed(item, "%s", np);
	else
		halo_item_set_observed(item, "np %s, rp %s", np, rp);
	note_pfc(item, w);
	for (int k = 0; k < 2; k++)
		if (w->ecn_exclusive ? m[k] != w->ecn_mask : (m[k] & w->ecn_mask) != w->ecn_mask)
			return HALO_SYNC_DIFFERS;
	return HALO_SYNC_OK;
}

static int ecn_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_roce_want *w = item->data;
	uint8_t m[2];
	char path[256];
	int r = read_masks(ctx, item, w, m);

	/* Refused now (the file changed since the observation): -EPERM. */
	if (r != 0)
		return r < 0 ? r : r == HALO_SYNC_INVALID ? -EPERM : -EOPNOTSUPP;
	for (int k = 0; k < 2; k++)
		for (int p = 0; p < 8; p++) {
			bool on = w->ecn_mask & (1u << p);

			if (((m[k] >> p) & 1) == on || (!on && !w->ecn_exclusive))
				continue;
			attr_path(path, sizeof(path), w, points[k], p);
			r = halo_root_write_attr(ctx, path, on ? "1\n" : "0\n", 2);
			if (r == -ELOOP || r == -EMLINK) {
				_cleanup_free_ char *refused = halo_root_attr_refusal(ctx, path, r);

				if (refused)
					return halo_item_refuse(item, r, "%s", refused);
			}
			if (r < 0)
				return halo_item_fail(item, r, "writing %s", path);
		}
	return 0;
}

const struct halo_item_ops halo_roce_ecn_ops = {
	.observe = ecn_observe,
	.apply = ecn_apply,
};
