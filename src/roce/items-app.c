/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * items-app.c: the DSCP entries of the IEEE APP table: roce/<if>/dscp-prio
 * (the wanted DSCP -> priority map, one item) and roce/<if>/trust (mlx5
 * and ice trust DSCP exactly while at least one DSCP entry exists).
 *
 * Ownership is by the map, not recorded: an entry is ours when its DSCP is
 * in the wanted map. Apply adds the missing entries first (no window
 * without a mapping), then removes the stale ones: entries of a wanted
 * DSCP with another priority (removed before the new one is added, since
 * ice refuses a DSCP mapped twice). Entries of other DSCPs are never
 * touched, except by trust = "pcp", which means the table holds no DSCP
 * entry at all.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "netlink/transport.h"
#include "roce/dcbnl.h"
#include "roce/roce.h"

static bool is_dscp(const struct dcb_app *a)
{
	return a->selector == IEEE_8021QAZ_APP_SEL_DSCP;
}

/* The priority the table gives DSCP, or -1. */
static int table_prio(const struct halo_dcb_ieee *g, uint16_t dscp)
{
	for (size_t i = 0; i < g->n_app; i++)
		if (is_dscp(&g->app[i]) && g->app[i].protocol == dscp)
			return g->app[i].priority;
	return -1;
}

static size_t count_dscp(const struct halo_dcb_ieee *g)
{
	size_t n = 0;

	for (size_t i = 0; i < g->n_app; i++)
		n += is_dscp(&g->app[i]);
	return n;
}

/* "26:3, 48:6": what the table maps the wanted DSCPs to ("26:-": none). */
static void observed_map(struct halo_item *item, const struct halo_roce_want *w,
			 const struct halo_dcb_ieee *g)
{
	char buf[HALO_ROCE_DSCP_MAX * 8] = "";
	size_t o = 0;

	for (size_t i = 0; i < w->n_app && o < sizeof(buf); i++) {
		int p = table_prio(g, w->app[i].protocol);

		if (p < 0)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%u:-",
					      i ? ", " : "", w->app[i].protocol);
		else
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%u:%d",
					      i ? ", " : "", w->app[i].protocol, p);
	}
	halo_item_set_observed(item, "%s", buf);
}

static int app_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_roce_want *w = item->data;
	struct halo_dcb_ieee g;
	int r = halo_roce_ieee_get(ctx, item, w, &g);
	bool same = true;

	if (r != 0)
		return r;
	if (!g.has_app) {
		/* No APP_TABLE nest at all: an empty table on the drivers seen
		 * so far; an empty table is what we compare anyway. */
		g.n_app = 0;
	}
	if (w->kind == HALO_ROCE_TRUST) {
		size_t n = count_dscp(&g);

		halo_item_set_observed(item, "%s", n ? "dscp" : "pcp");
		if (halo_roce_fw_managed(w, &g)) {
			halo_item_set_message(item, "the firmware LLDP agent manages DCB: set after fw-lldp-agent is off");
			return HALO_SYNC_DIFFERS;
		}
		if (w->trust_dscp && !n)
			halo_item_set_message(item, "trust follows the DSCP entries of dscp-prio");
		else if (!w->trust_dscp && n)
			halo_item_set_message(item, "%zu DSCP APP entr%s to remove", n,
					      n == 1 ? "y" : "ies");
		return (n > 0) == w->trust_dscp ? HALO_SYNC_OK : HALO_SYNC_DIFFERS;
	}
	observed_map(item, w, &g);
	for (size_t i = 0; i < w->n_app; i++)
		if (table_prio(&g, w->app[i].protocol) != w->app[i].priority)
			same = false;
	if (halo_roce_fw_managed(w, &g)) {
		halo_item_set_message(item, "the firmware LLDP agent manages DCB: set after fw-lldp-agent is off");
		return HALO_SYNC_DIFFERS;
	}
	return same ? HALO_SYNC_OK : HALO_SYNC_DIFFERS;
}

static int change(struct halo_ctx *ctx, struct halo_item *item,
		  const struct halo_roce_want *w, bool add,
		  const struct dcb_app *app, size_t n)
{
	struct halo_nlt *t;
	int err;

	if (n == 0)
		return 0;
	err = halo_roce_nlt(ctx, item, &t);
	if (err < 0)
		return err;
	err = add ? halo_dcb_app_add(t, w->ifname, app, n)
		  : halo_dcb_app_del(t, w->ifname, app, n);
	if (err < 0)
		return halo_roce_fail(ctx, item, err, add ? "adding DSCP APP entries (IEEE_SET)"
						       : "deleting DSCP APP entries (IEEE_DEL)");
	return 0;
}

static int map_apply(struct halo_ctx *ctx, struct halo_item *item,
		     const struct halo_roce_want *w, const struct halo_dcb_ieee *g)
{
	struct dcb_app fresh[HALO_ROCE_DSCP_MAX], stale[HALO_ROCE_DSCP_MAX],
		remap[HALO_ROCE_DSCP_MAX];
	size_t n_fresh = 0, n_stale = 0;
	int err;

	for (size_t i = 0; i < w->n_app; i++) {
		int p = table_prio(g, w->app[i].protocol);

		if (p == w->app[i].priority)
			continue;
		if (p < 0) {
			fresh[n_fresh++] = w->app[i];
			continue;
		}
		remap[n_stale] = w->app[i];
		stale[n_stale++] = (struct dcb_app){ .selector = IEEE_8021QAZ_APP_SEL_DSCP,
						     .priority = (uint8_t)p,
						     .protocol = w->app[i].protocol };
	}
	err = change(ctx, item, w, true, fresh, n_fresh);
	if (err == 0)
		err = change(ctx, item, w, false, stale, n_stale);
	if (err == 0)
		err = change(ctx, item, w, true, remap, n_stale);
	return err;
}

static int app_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_roce_want *w = item->data;
	struct halo_dcb_ieee g;
	struct dcb_app all[HALO_DCB_APP_MAX];
	size_t n = 0;
	int r = halo_roce_ieee_get(ctx, item, w, &g);

	if (r != 0)
		return r < 0 ? r : -EOPNOTSUPP;
	if (!g.has_app)
		g.n_app = 0;
	if (w->kind == HALO_ROCE_DSCP_PRIO)
		return map_apply(ctx, item, w, &g);
	/* trust = "dscp" is carried by the dscp-prio item. */
	if (w->trust_dscp)
		return 0;
	for (size_t i = 0; i < g.n_app; i++)
		if (is_dscp(&g.app[i]))
			all[n++] = g.app[i];
	return change(ctx, item, w, false, all, n);
}

const struct halo_item_ops halo_roce_app_ops = {
	.observe = app_observe,
	.apply = app_apply,
};
