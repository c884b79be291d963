/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * items-route.c: link/<name>/route/<to>, a main-table route through the
 * link, replaced by destination and metric.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/ipv6_route.h>
#include <linux/rtnetlink.h>

#include "links/items.h"
#include "netlink/context.h"

void halo_route_dst_format(const struct halo_cidr *dst, char *buf, size_t len)
{
	if (dst->prefixlen == 0)
		snprintf(buf, len, "default");
	else
		halo_cidr_format(dst, buf, len);
}

static bool route_dst_equal(const struct halo_rtnl_route *r,
			    const struct halo_cidr *dst)
{
	return r->dst.family == dst->family && r->dst.prefixlen == dst->prefixlen &&
	       (dst->prefixlen == 0 || halo_cidr_same_addr(&r->dst, dst));
}

static bool route_ok(const struct halo_rtnl_route *r, const struct halo_link_want *w)
{
	if (r->oif != w->ifindex)
		return false;
	if (w->has_gateway &&
	    (!r->has_gateway || !halo_cidr_same_addr(&r->gateway, &w->gateway)))
		return false;
	if (!w->has_gateway && r->has_gateway)
		return false;
	return !w->metric || r->priority == w->metric;
}

/* The metric the kernel gives the route apply adds: without one asked
 * for, IPv6 uses IP6_RT_PRIO_USER (net/ipv6/route.c ip6_route_info_create),
 * IPv4 0. */
static uint32_t applied_metric(const struct halo_link_want *w)
{
	if (w->metric)
		return w->metric;
	return w->dst.family == AF_INET6 ? IP6_RT_PRIO_USER : 0;
}

static void route_describe(struct halo_ctx *ctx, const struct halo_rtnl_route *r,
			   char *buf, size_t len)
{
	char dst[64], gw[80] = "", dev[IF_NAMESIZE + 8] = "", name[IF_NAMESIZE];

	halo_route_dst_format(&r->dst, dst, sizeof(dst));
	if (r->has_gateway) {
		char a[64];

		halo_link_gateway_format(&r->gateway, a, sizeof(a));
		snprintf(gw, sizeof(gw), " via %s", a);
	}
	/* Another link's route: its name costs one request (the snapshot
	 * holds the managed links only). */
	if (r->oif && halo_rtnl_link_name(ctx, r->oif, name) == 0)
		snprintf(dev, sizeof(dev), " dev %s", name);
	if (r->priority)
		snprintf(buf, len, "%s%s%s metric %u", dst, gw, dev, r->priority);
	else
		snprintf(buf, len, "%s%s%s", dst, gw, dev);
}

/* Whether R, on W's link, sends W's destination instead of OURS: another
 * main-table route to it with a lower metric (a replace changes only the
 * route of the same metric: fib_table_insert, fib6_add_rt2node). One on
 * another link is that link's business. */
static bool outranks(const struct halo_rtnl_route *r, const struct halo_rtnl_route *ours,
		     const struct halo_link_want *w)
{
	return route_dst_equal(r, &w->dst) && r->oif == w->ifindex &&
	       r->table == RT_TABLE_MAIN && r->priority < ours->priority && !route_ok(r, w);
}

/* Whether R, on another link or multipath (no one link: oif 0), is
 * preferred to OURS for W's destination: the kernel picks by metric
 * across links too, among the routes it deems usable (fib_table_lookup,
 * rt6_select skip dead or unresolved ones). It is not this item's, so it
 * is only named. */
static bool outranks_elsewhere(const struct halo_rtnl_route *r,
			       const struct halo_rtnl_route *ours, const struct halo_link_want *w)
{
	return route_dst_equal(r, &w->dst) && r->oif != w->ifindex &&
	       r->table == RT_TABLE_MAIN && r->priority < ours->priority;
}

/* The route W wants of the lowest metric, NULL none. */
static const struct halo_rtnl_route *best_match(const struct halo_rtnl_route *routes, size_t n,
						const struct halo_link_want *w)
{
	const struct halo_rtnl_route *best = NULL;

	for (size_t i = 0; i < n; i++)
		if (route_dst_equal(&routes[i], &w->dst) && route_ok(&routes[i], w) &&
		    (!best || routes[i].priority < best->priority))
			best = &routes[i];
	return best;
}

int halo_link_route_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_link_want *w = item->data;
	const struct halo_rtnl_route *routes, *best;
	struct halo_rtnl_route seen;
	bool found = false, good = false;
	char buf[200];
	size_t n;
	int err = halo_rtnl_routes(ctx, &routes, &n);

	if (err < 0)
		return halo_item_fail(item, err, "reading routes");
	/* The matching route of the lowest metric if there is one, else
	 * another to the same destination (shown as what differs). */
	best = best_match(routes, n, w);
	for (size_t i = 0; i < n && !best && !found; i++) {
		if (!route_dst_equal(&routes[i], &w->dst))
			continue;
		seen = routes[i];
		found = true;
	}
	if (best) {
		seen = *best;
		found = good = true;
	}
	/* The kernel replaces by destination and metric: a route with both on
	 * another link is not ours to take over (apply would delete it). */
	for (size_t i = 0; i < n && !good; i++) {
		if (!route_dst_equal(&routes[i], &w->dst) || routes[i].oif == w->ifindex ||
		    routes[i].priority != applied_metric(w) || routes[i].table != RT_TABLE_MAIN)
			continue;
		route_describe(ctx, &routes[i], buf, sizeof(buf));
		halo_item_set_observed(item, "%s", buf);
		return halo_item_set_message(item,
			"another route to the same destination and metric exists (%s): "
			"applying would replace it; remove it or give this route a metric", buf) < 0 ?
			       -ENOMEM : HALO_SYNC_INVALID;
	}
	if (!found) {
		halo_link_clear_observed(item);
		return HALO_SYNC_DIFFERS;
	}
	route_describe(ctx, &seen, buf, sizeof(buf));
	halo_item_set_observed(item, "%s", buf);
	if (!good)
		return HALO_SYNC_DIFFERS;
	/* Right, but outranked: the kernel sends by the lowest metric. */
	for (size_t i = 0; i < n; i++) {
		char other[200];

		if (!outranks(&routes[i], &seen, w))
			continue;
		route_describe(ctx, &routes[i], other, sizeof(other));
		return halo_item_set_message(item, "a route with a lower metric takes the traffic "
					     "(%s), which apply removes", other) < 0 ?
			       -ENOMEM : HALO_SYNC_DIFFERS;
	}
	for (size_t i = 0; i < n; i++) {
		char other[200];

		if (!outranks_elsewhere(&routes[i], &seen, w))
			continue;
		route_describe(ctx, &routes[i], other, sizeof(other));
		if (routes[i].oif == 0)
			err = halo_item_set_message(item, "a multipath route with a lower metric "
						    "is preferred (%s)", other);
		else
			err = halo_item_set_message(item, "a route on another link with a lower "
						    "metric is preferred (%s); it is that link's "
						    "to change", other);
		return err < 0 ? -ENOMEM : HALO_SYNC_OK;
	}
	return HALO_SYNC_OK;
}

/* Removes the routes on W's link that outrank the one just made. */
static int remove_outranking(struct halo_ctx *ctx, struct halo_item *item,
			     const struct halo_link_want *w)
{
	const struct halo_rtnl_route *routes, *ours;
	char what[256], buf[200];
	size_t n;
	int err;

	/* One at a time: each removal makes the snapshot stale. Bounded: a
	 * daemon that adds the route back as fast is the verify pass's to
	 * name. */
	for (int round = 0; round < 16; round++) {
		const struct halo_rtnl_route *gone = NULL;

		err = halo_rtnl_routes(ctx, &routes, &n);
		if (err < 0)
			return halo_item_fail(item, err, "reading routes");
		ours = best_match(routes, n, w);
		for (size_t i = 0; ours && i < n && !gone; i++)
			if (outranks(&routes[i], ours, w))
				gone = &routes[i];
		if (!gone)
			return 0;
		route_describe(ctx, gone, buf, sizeof(buf));
		err = halo_rtnl_route_del(ctx, gone);
		if (err < 0 && err != -ESRCH) {
			snprintf(what, sizeof(what), "removing the route %s, which outranks it", buf);
			return halo_link_nl_fail(ctx, item, err, what);
		}
		if (err == -ESRCH)
			return 0; /* gone meanwhile; the verify pass looks again */
	}
	return 0;
}

int halo_link_route_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_link_want *w = item->data;
	char what[128], dst[64];
	int err = halo_rtnl_route_replace(ctx, w->ifindex, &w->dst,
					  w->has_gateway ? &w->gateway : NULL,
					  w->metric);

	if (err < 0) {
		halo_route_dst_format(&w->dst, dst, sizeof(dst));
		snprintf(what, sizeof(what), "route to %s on %s", dst, w->link);
		return halo_link_nl_fail(ctx, item, err, what);
	}
	return remove_outranking(ctx, item, w);
}
