/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * items-app.c: the DSCP entries of the IEEE APP table: roce/<if>/dscp-prio
 * (the wanted DSCP -> priority map, one item) and roce/<if>/trust (mlx5
 * and ice trust DSCP exactly while at least one DSCP entry exists).
 *
 * The table is shared with whoever else configures the NIC, so this tool
 * records in the state file which entries it added (engine/state.h) and
 * removes only those when they are no longer wanted. Apply adds the
 * missing entries first (no window without a mapping), then removes the
 * stale ones: an entry of a wanted DSCP with another priority, whoever
 * added it (replaced in place on mlx5; elsewhere removed before the new
 * one is added, since ice refuses a DSCP mapped twice), and entries of
 * our record no longer in the map. An entry someone else added is never
 * touched unless `exclusive = true`: then every DSCP entry the map does
 * not hold goes. trust = "pcp" removes ours (all with exclusive), and
 * fails, naming them, while foreign entries keep the port in DSCP trust.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "netlink/transport.h"
#include "netlink/dcbnl.h"
#include "roce/roce.h"

static bool is_dscp(const struct dcb_app *a)
{
	return a->selector == IEEE_8021QAZ_APP_SEL_DSCP;
}

/* The priority the table gives DSCP, or -1. */
static int table_prio(const struct halo_dcbnl_ieee *g, uint16_t dscp)
{
	for (size_t i = 0; i < g->n_app; i++)
		if (is_dscp(&g->app[i]) && g->app[i].protocol == dscp)
			return g->app[i].priority;
	return -1;
}

static size_t count_dscp(const struct halo_dcbnl_ieee *g)
{
	size_t n = 0;

	for (size_t i = 0; i < g->n_app; i++)
		n += is_dscp(&g->app[i]);
	return n;
}

void halo_roce_app_text(const struct dcb_app *a, char buf[HALO_OWNED_LEN])
{
	snprintf(buf, HALO_OWNED_LEN, "%u:%u", a->protocol, a->priority);
}

static bool in_table(const struct halo_dcbnl_ieee *g, const char *entry)
{
	char t[HALO_OWNED_LEN];

	for (size_t i = 0; i < g->n_app; i++) {
		if (!is_dscp(&g->app[i]))
			continue;
		halo_roce_app_text(&g->app[i], t);
		if (strcmp(t, entry) == 0)
			return true;
	}
	return false;
}

/* The record keeps only what the table still holds: an entry someone
 * removed (or the firmware agent's reset cleared) is ours no more. */
static void prune_owned(struct halo_owned *owned, const struct halo_dcbnl_ieee *g)
{
	for (size_t i = owned->n; i-- > 0;)
		if (!in_table(g, owned->v[i]))
			halo_owned_remove(owned, owned->v[i]);
}

static bool wanted_dscp(const struct halo_roce_want *w, uint16_t dscp)
{
	for (size_t i = 0; i < w->n_app; i++)
		if (w->app[i].protocol == dscp)
			return true;
	return false;
}

/* The DSCP entries to remove that are not a wanted DSCP's: ours no longer
 * wanted, or with exclusive every one not wanted (TRUST "pcp": nothing is
 * wanted). Into RET (HALO_DCBNL_APP_MAX), their count returned; *RET_FOREIGN
 * counts the entries kept because someone else added them. */
static size_t stale_entries(const struct halo_roce_want *w, const struct halo_owned *owned,
			    const struct halo_dcbnl_ieee *g, struct dcb_app *ret,
			    size_t *ret_foreign)
{
	char t[HALO_OWNED_LEN];
	size_t n = 0, foreign = 0;

	for (size_t i = 0; i < g->n_app; i++) {
		const struct dcb_app *a = &g->app[i];

		if (!is_dscp(a) || wanted_dscp(w, a->protocol))
			continue;
		halo_roce_app_text(a, t);
		if (w->exclusive || halo_owned_has(owned, t))
			ret[n++] = *a;
		else
			foreign++;
	}
	if (ret_foreign)
		*ret_foreign = foreign;
	return n;
}

/* "10:1, 12:2" of N entries. */
static void entries_text(const struct dcb_app *a, size_t n, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%u:%u", i ? ", " : "",
				      a[i].protocol, a[i].priority);
}

/* "26:3, 48:6": what the table maps the wanted DSCPs to ("26:-": none). */
static void observed_map(struct halo_item *item, const struct halo_roce_want *w,
			 const struct halo_dcbnl_ieee *g)
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

static int trust_observe(struct halo_item *item, struct halo_roce_want *w,
			 const struct halo_dcbnl_ieee *g)
{
	struct dcb_app stale[HALO_DCBNL_APP_MAX];
	char text[HALO_DCBNL_APP_MAX * 8];
	size_t n = count_dscp(g), foreign = 0, n_stale;

	halo_item_set_observed(item, "%s", n ? "dscp" : "pcp");
	if (halo_roce_fw_managed(w, g)) {
		halo_item_set_message(item, "the firmware LLDP agent manages DCB: set after fw-lldp-agent is off");
		return HALO_SYNC_DIFFERS;
	}
	if (w->trust_dscp) {
		if (!n)
			halo_item_set_message(item, "trust follows the DSCP entries of dscp-prio");
		return n ? HALO_SYNC_OK : HALO_SYNC_DIFFERS;
	}
	if (!n)
		return HALO_SYNC_OK;
	n_stale = stale_entries(w, item->owned, g, stale, &foreign);
	if (foreign) {
		/* Ours (if any) can go, but the port stays in DSCP trust. */
		halo_item_set_message(item, "%zu DSCP APP entr%s that halo-provision did not add "
				      "keep DSCP trust; exclusive = true removes them",
				      foreign, foreign == 1 ? "y" : "ies");
	} else {
		entries_text(stale, n_stale, text, sizeof(text));
		halo_item_set_message(item, "%zu DSCP APP entr%s to remove: %s", n_stale,
				      n_stale == 1 ? "y" : "ies", text);
	}
	return HALO_SYNC_DIFFERS;
}

static int app_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	struct halo_roce_want *w = item->data;
	struct halo_dcbnl_ieee g;
	struct dcb_app stale[HALO_DCBNL_APP_MAX];
	char text[HALO_DCBNL_APP_MAX * 8];
	size_t n_stale;
	int r = halo_roce_ieee_get(ctx, item, w, &g);
	bool same = true;

	if (r != 0)
		return r;
	if (!g.has_app) {
		/* No APP_TABLE nest at all: an empty table on the drivers seen
		 * so far; an empty table is what we compare anyway. */
		g.n_app = 0;
	}
	prune_owned(item->owned, &g);
	if (w->kind == HALO_ROCE_TRUST)
		return halo_roce_bond_refuses(item, w, trust_observe(item, w, &g));
	observed_map(item, w, &g);
	for (size_t i = 0; i < w->n_app; i++)
		if (table_prio(&g, w->app[i].protocol) != w->app[i].priority)
			same = false;
	if (halo_roce_fw_managed(w, &g)) {
		halo_item_set_message(item, "the firmware LLDP agent manages DCB: set after fw-lldp-agent is off");
		return halo_roce_bond_refuses(item, w, HALO_SYNC_DIFFERS);
	}
	n_stale = stale_entries(w, item->owned, &g, stale, NULL);
	if (n_stale) {
		entries_text(stale, n_stale, text, sizeof(text));
		halo_item_set_message(item, "%s to remove: %s",
				      w->exclusive ? "DSCP entries not in dscp_prio (exclusive)"
						   : "stale entries halo-provision added", text);
		same = false;
	}
	return halo_roce_bond_refuses(item, w, same ? HALO_SYNC_OK : HALO_SYNC_DIFFERS);
}

/* The kernel stops an IEEE_SET at the first entry the driver refuses and
 * keeps those before it (dcbnl_ieee_set): the ones the table now holds
 * were added by this request (none was there), so they are ours. */
static void record_partial_add(struct halo_nlt *t_nl, struct halo_item *item,
			       const struct halo_roce_want *w, const struct dcb_app *app, size_t n)
{
	struct halo_dcbnl_ieee g;
	char t[HALO_OWNED_LEN];

	if (halo_dcbnl_ieee_get(t_nl, w->ifname, &g) < 0 || !g.has_app)
		return;
	for (size_t i = 0; i < n; i++) {
		halo_roce_app_text(&app[i], t);
		if (in_table(&g, t))
			(void)halo_owned_add(item->owned, t);
	}
	/* And what the added ones replaced (mlx5) is no longer ours: a
	 * failed item's record is written as it stands. */
	prune_owned(item->owned, &g);
}

/* The entries deleted or replaced: no longer in the table, so no longer ours. */
static void forget(struct halo_item *item, const struct dcb_app *app, size_t n)
{
	char t[HALO_OWNED_LEN];

	for (size_t i = 0; i < n; i++) {
		halo_roce_app_text(&app[i], t);
		halo_owned_remove(item->owned, t);
	}
}

/* Adds or deletes N entries in one request; the record follows: what
 * this tool added is ours, what it deleted is no one's. */
static int change(struct halo_ctx *ctx, struct halo_item *item,
		  struct halo_roce_want *w, bool add,
		  const struct dcb_app *app, size_t n)
{
	char t[HALO_OWNED_LEN];
	struct halo_nlt *t_nl;
	int err;

	if (n == 0)
		return 0;
	err = halo_roce_nlt(ctx, item, &t_nl);
	if (err < 0)
		return err;
	err = add ? halo_dcbnl_app_add(t_nl, w->ifname, app, n)
		  : halo_dcbnl_app_del(t_nl, w->ifname, app, n);
	if (err < 0 && add)
		record_partial_add(t_nl, item, w, app, n);
	if (err < 0)
		return halo_roce_fail(ctx, item, err, add ? "adding DSCP APP entries (IEEE_SET)"
						       : "deleting DSCP APP entries (IEEE_DEL)");
	if (!add) {
		forget(item, app, n);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		halo_roce_app_text(&app[i], t);
		if (halo_owned_add(item->owned, t) < 0)
			return halo_item_fail(item, -ENOSPC, "recording DSCP entry %s as ours", t);
	}
	return 0;
}

static int map_apply(struct halo_ctx *ctx, struct halo_item *item,
		     struct halo_roce_want *w, const struct halo_dcbnl_ieee *g)
{
	struct dcb_app fresh[HALO_ROCE_DSCP_MAX], stale[HALO_ROCE_DSCP_MAX],
		remap[HALO_ROCE_DSCP_MAX], gone[HALO_DCBNL_APP_MAX];
	size_t n_fresh = 0, n_stale = 0, n_gone = stale_entries(w, item->owned, g, gone, NULL);
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
	/* mlx5's setapp replaces a DSCP's entry in place, so the DSCP never
	 * falls back to priority 0 nor the port to PCP trust; ice refuses a
	 * DSCP mapped twice, and another driver may keep both, so there the
	 * old entry goes first (docs/hardware.md). */
	if (err == 0 && w->nic != HALO_ROCE_NIC_MLX5)
		err = change(ctx, item, w, false, stale, n_stale);
	if (err == 0)
		err = change(ctx, item, w, true, remap, n_stale);
	/* The record is written as it stands even when a later step fails. */
	if (err == 0 && w->nic == HALO_ROCE_NIC_MLX5)
		forget(item, stale, n_stale);
	/* Last, so the other DSCPs keep their mapping throughout. */
	if (err == 0)
		err = change(ctx, item, w, false, gone, n_gone);
	return err;
}

static int app_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	struct halo_roce_want *w = item->data;
	struct halo_dcbnl_ieee g;
	struct dcb_app gone[HALO_DCBNL_APP_MAX];
	size_t n, foreign = 0;
	int r = halo_roce_ieee_get(ctx, item, w, &g);

	if (r != 0)
		return r < 0 ? r : -EOPNOTSUPP;
	if (!g.has_app)
		g.n_app = 0;
	prune_owned(item->owned, &g);
	if (w->kind == HALO_ROCE_DSCP_PRIO)
		return map_apply(ctx, item, w, &g);
	/* trust = "dscp" is carried by the dscp-prio item. */
	if (w->trust_dscp)
		return 0;
	n = stale_entries(w, item->owned, &g, gone, &foreign);
	r = change(ctx, item, w, false, gone, n);
	if (r < 0)
		return r;
	if (foreign) {
		halo_item_set_message(item, "%zu DSCP APP entr%s that halo-provision did not add "
				      "keep DSCP trust; exclusive = true removes them",
				      foreign, foreign == 1 ? "y" : "ies");
		return -EPERM;
	}
	return 0;
}

const struct halo_item_ops halo_roce_app_ops = {
	.observe = app_observe,
	.apply = app_apply,
};
