/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * items.c: the link/<name>/... items: what they share, present, mtu and
 * up, and the table of their operations (addresses in items-addr.c,
 * routes in items-route.c). Observations read the rtnetlink snapshots
 * (netlink/rtnl.h): the dumps made at plan time serve every item, and a
 * change marks only its own kind stale, so verifying after apply costs
 * one more dump per kind changed, not one per item.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "links/items.h"
#include "netlink/context.h"

void halo_link_gateway_format(const struct halo_cidr *c, char *buf, size_t len)
{
	char tmp[64];

	halo_cidr_format(c, tmp, sizeof(tmp));
	tmp[strcspn(tmp, "/")] = '\0';
	snprintf(buf, len, "%s", tmp);
}

void halo_link_clear_observed(struct halo_item *item)
{
	free(item->observed);
	item->observed = NULL;
}

/* Fails an item whose link vanished after plan time (hot-unplug, rename
 * races): its other items cannot be judged. */
static int link_gone(struct halo_item *item, const struct halo_link_want *w)
{
	halo_link_clear_observed(item);
	return halo_item_fail(item, -ENODEV, "link %s (ifindex %d) is gone",
			      w->link, w->ifindex);
}

int halo_link_find(struct halo_ctx *ctx, struct halo_item *item,
		   const struct halo_link_want *w, bool must_exist,
		   const struct halo_rtnl_link **ret)
{
	const struct halo_rtnl_link *links;
	size_t n;
	int err = halo_rtnl_links(ctx, &links, &n);

	if (err < 0)
		return halo_item_fail(item, err, "reading links");
	for (size_t i = 0; i < n; i++) {
		if (links[i].ifindex == w->ifindex) {
			*ret = &links[i];
			return 0;
		}
	}
	*ret = NULL;
	return must_exist ? link_gone(item, w) : 0;
}

int halo_link_nl_fail(struct halo_ctx *ctx, struct halo_item *item, int err, const char *what)
{
	const char *ext = halo_netlink_extack(ctx);

	if (ext)
		return halo_item_fail(item, err, "%s (kernel: %s)", what, ext);
	return halo_item_fail(item, err, "%s", what);
}
/* ---- present ---- */

static int present_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_link_want *w = item->data;
	const struct halo_rtnl_link *l;
	int err = halo_link_find(ctx, item, w, false, &l);

	if (err < 0)
		return err;
	if (!l) {
		halo_link_clear_observed(item);
		halo_item_set_message(item, "link %s (ifindex %d) is gone",
				      w->link, w->ifindex);
		return HALO_SYNC_DIFFERS;
	}
	halo_item_set_observed(item, "%s", l->name);
	if (strcmp(l->name, w->label) != 0)
		halo_item_set_message(item,
				      "matched link %s by %s; it keeps its name (links are not renamed)",
				      l->name, w->how);
	return HALO_SYNC_OK;
}

static int present_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_link_want *w = item->data;

	return halo_item_fail(item, -ENODEV, "link %s (ifindex %d) is gone",
			      w->link, w->ifindex);
}

/* ---- awaited: no link matched at plan time ---- */

static int awaited_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_link_want *w = item->data;

	halo_link_clear_observed(item);
	if (w->after_modules)
		return halo_item_fail(item, -ENODEV,
				      "no link matches %s, even after the modules phase applied",
				      w->how);
	if (w->gone)
		return halo_item_fail(item, -ENODEV, "no link matches %s (gone, renamed or replaced)",
				      w->how);
	halo_item_set_message(item,
			      "no link matches %s yet: pending on the modules phase, which applies first",
			      w->how);
	return HALO_SYNC_DIFFERS;
}

static int awaited_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_link_want *w = item->data;

	return halo_item_fail(item, -ENODEV, "no link matches %s", w->how);
}

/* ---- mtu ---- */

static int mtu_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_link_want *w = item->data;
	const struct halo_rtnl_link *l;
	int err = halo_link_find(ctx, item, w, true, &l);

	if (err < 0)
		return err;
	halo_item_set_observed(item, "%u", l->mtu);
	return l->mtu == w->mtu ? HALO_SYNC_OK : HALO_SYNC_DIFFERS;
}

static int mtu_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_link_want *w = item->data;
	char what[96];
	int err = halo_rtnl_set_mtu(ctx, w->ifindex, w->mtu);

	if (err < 0) {
		snprintf(what, sizeof(what), "setting mtu %u on %s", w->mtu, w->link);
		return halo_link_nl_fail(ctx, item, err, what);
	}
	return 0;
}

/* ---- up ---- */

static int up_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_link_want *w = item->data;
	const struct halo_rtnl_link *l;
	int err = halo_link_find(ctx, item, w, true, &l);
	bool up;

	if (err < 0)
		return err;
	up = l->flags & IFF_UP;
	halo_item_set_observed(item, "%s", up ? "up" : "down");
	/* Carrier is the cable and the peer: a fact to report, never a
	 * failure of this host's configuration. */
	if (up && l->carrier == 0)
		halo_item_set_message(item, "no carrier (cable unplugged or peer down)");
	else if (up && l->carrier == 1)
		halo_item_set_message(item, "carrier");
	return up ? HALO_SYNC_OK : HALO_SYNC_DIFFERS;
}

static int up_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_link_want *w = item->data;
	char what[64];
	int err = halo_rtnl_set_up(ctx, w->ifindex);

	if (err < 0) {
		snprintf(what, sizeof(what), "setting %s up", w->link);
		return halo_link_nl_fail(ctx, item, err, what);
	}
	return 0;
}
/* ---- table ---- */

static void want_free(void *data)
{
	struct halo_link_want *w = data;

	if (w)
		free(w->keep);
	free(w);
}

/* A drift --check finds on a link another daemon configures: that
 * daemon is the likely cause, named after what the observation said. */
static int explained(struct halo_ctx *ctx, struct halo_item *item, int r)
{
	const struct halo_link_want *w = item->data;
	int e;

	if (r != HALO_SYNC_DIFFERS || !w->cause[0] || ctx->mode != HALO_MODE_CHECK)
		return r;
	if (item->message)
		e = halo_item_set_message(item, "%s; likely undone by %s", item->message, w->cause);
	else
		e = halo_item_set_message(item, "likely undone by %s", w->cause);
	return e < 0 ? -ENOMEM : r;
}

static int mtu_observe_x(struct halo_ctx *ctx, struct halo_item *item)
{
	return explained(ctx, item, mtu_observe(ctx, item));
}

static int up_observe_x(struct halo_ctx *ctx, struct halo_item *item)
{
	return explained(ctx, item, up_observe(ctx, item));
}

static int addr_observe_x(struct halo_ctx *ctx, struct halo_item *item)
{
	return explained(ctx, item, halo_link_addr_observe(ctx, item));
}

static int extra_observe_x(struct halo_ctx *ctx, struct halo_item *item)
{
	return explained(ctx, item, halo_link_extra_observe(ctx, item));
}

static int route_observe_x(struct halo_ctx *ctx, struct halo_item *item)
{
	return explained(ctx, item, halo_link_route_observe(ctx, item));
}

static const struct halo_item_ops ops[] = {
	[HALO_LINK_PRESENT] = { .observe = present_observe, .apply = present_apply, .free_data = want_free },
	[HALO_LINK_MTU] = { .observe = mtu_observe_x, .apply = mtu_apply, .free_data = want_free },
	[HALO_LINK_UP] = { .observe = up_observe_x, .apply = up_apply, .free_data = want_free },
	[HALO_LINK_ADDR] = { .observe = addr_observe_x, .apply = halo_link_addr_apply, .free_data = want_free },
	[HALO_LINK_ADDR_EXTRA] = { .observe = extra_observe_x, .apply = halo_link_extra_apply, .free_data = want_free },
	[HALO_LINK_ROUTE] = { .observe = route_observe_x, .apply = halo_link_route_apply, .free_data = want_free },
	[HALO_LINK_AWAITED] = { .observe = awaited_observe, .apply = awaited_apply, .free_data = want_free },
};

static int set_wanted(struct halo_item *item, const struct halo_link_want *w)
{
	char buf[200], a[80];

	switch (w->kind) {
	case HALO_LINK_PRESENT:
	case HALO_LINK_AWAITED:
		return halo_item_set_wanted(item, "%s", w->how);
	case HALO_LINK_MTU:
		return halo_item_set_wanted(item, "%u", w->mtu);
	case HALO_LINK_UP:
		return halo_item_set_wanted(item, "up");
	case HALO_LINK_ADDR:
		halo_cidr_format(&w->addr, buf, sizeof(buf));
		return halo_item_set_wanted(item, "%s", buf);
	case HALO_LINK_ADDR_EXTRA:
		return halo_item_set_wanted(item, "none");
	case HALO_LINK_ROUTE:
		halo_route_dst_format(&w->dst, buf, sizeof(buf));
		a[0] = '\0';
		if (w->has_gateway) {
			char g[64];

			halo_link_gateway_format(&w->gateway, g, sizeof(g));
			snprintf(a, sizeof(a), " via %s", g);
		}
		if (w->metric)
			return halo_item_set_wanted(item, "%s%s dev %s metric %u", buf,
						    a, w->link, w->metric);
		return halo_item_set_wanted(item, "%s%s dev %s", buf, a, w->link);
	}
	return -EINVAL;
}

int halo_link_item_add(struct halo_plan *plan, const char *key,
		       struct halo_link_want *w, struct halo_item **ret_item)
{
	/* Addresses and routes after the NICs' DCB, which may reset the
	 * port (engine/item.h, enum halo_phase). */
	bool on_addresses = w->kind == HALO_LINK_ADDR || w->kind == HALO_LINK_ADDR_EXTRA ||
			    w->kind == HALO_LINK_ROUTE;
	struct halo_item *item;
	int err;

	err = halo_plan_add_new(plan, key, HALO_SUB_LINKS,
				on_addresses ? HALO_PHASE_ADDRESSES : HALO_PHASE_LINKS,
				&ops[w->kind], sizeof(*w), &item);
	if (err < 0) {
		free(w->keep);
		w->keep = NULL;
		return err;
	}
	/* The item owns W's contents from here on (keep included). */
	*(struct halo_link_want *)item->data = *w;
	w->keep = NULL;
	err = set_wanted(item, item->data);
	if (err < 0)
		return err;
	if (ret_item)
		*ret_item = item;
	return 0;
}
