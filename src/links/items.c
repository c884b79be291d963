/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * items.c: observe and apply of the link/<name>/... items. Observations read
 * the rtnetlink snapshots (netlink/rtnl.h): the dumps made at plan time
 * serve every item, and a change marks only its own kind stale, so
 * verifying after apply costs one more dump per kind changed, not one per
 * item.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ipv6_route.h>
#include <linux/rtnetlink.h>

#include "links/items.h"
#include "netlink/context.h"
#include "util/rootfs.h"
#include "util/strv.h"

void halo_route_dst_format(const struct halo_cidr *dst, char *buf, size_t len)
{
	if (dst->prefixlen == 0)
		snprintf(buf, len, "default");
	else
		halo_cidr_format(dst, buf, len);
}

static void addr_format(const struct halo_cidr *c, char *buf, size_t len)
{
	halo_cidr_format(c, buf, len);
}

static void gateway_format(const struct halo_cidr *c, char *buf, size_t len)
{
	char tmp[64];

	halo_cidr_format(c, tmp, sizeof(tmp));
	tmp[strcspn(tmp, "/")] = '\0';
	snprintf(buf, len, "%s", tmp);
}

static void clear_observed(struct halo_item *item)
{
	free(item->observed);
	item->observed = NULL;
}

/* Fails an item whose link vanished after plan time (hot-unplug, rename
 * races): its other items cannot be judged. */
static int link_gone(struct halo_item *item, const struct halo_link_want *w)
{
	clear_observed(item);
	return halo_item_fail(item, -ENODEV, "link %s (ifindex %d) is gone",
			      w->link, w->ifindex);
}

/* The link of W in the current snapshot. Absent: *RET is NULL, or with
 * MUST_EXIST the item fails. */
static int find_link(struct halo_ctx *ctx, struct halo_item *item,
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

/* Adds the kernel's extended-ack text to a failure message. */
static int nl_fail(struct halo_ctx *ctx, struct halo_item *item, int err,
		   const char *what)
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
	int err = find_link(ctx, item, w, false, &l);

	if (err < 0)
		return err;
	if (!l) {
		clear_observed(item);
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

	clear_observed(item);
	if (w->after_modules)
		return halo_item_fail(item, -ENODEV,
				      "no link matches %s, even after the modules phase applied",
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
	int err = find_link(ctx, item, w, true, &l);

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
		return nl_fail(ctx, item, err, what);
	}
	return 0;
}

/* ---- up ---- */

static int up_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_link_want *w = item->data;
	const struct halo_rtnl_link *l;
	int err = find_link(ctx, item, w, true, &l);
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
		return nl_fail(ctx, item, err, what);
	}
	return 0;
}

/* ---- addr ---- */

/* The addresses the kernel removes with the IPv4 address P unless the
 * link promotes secondaries (net/ipv4/devinet.c __inet_del_ifa): when P
 * is a primary, the link's secondaries of its prefix and subnet. The
 * first is named in HELD; the number is returned. */
static size_t held_by(const struct halo_rtnl_addr *addrs, size_t n,
		      const struct halo_rtnl_addr *p, char *held, size_t size)
{
	struct halo_cidr net, other;
	size_t count = 0;

	if (p->cidr.family != AF_INET || (p->flags & IFA_F_SECONDARY))
		return 0;
	halo_cidr_network(&p->cidr, &net);
	for (size_t i = 0; i < n; i++) {
		if (addrs[i].ifindex != p->ifindex || addrs[i].cidr.family != AF_INET ||
		    !(addrs[i].flags & IFA_F_SECONDARY) ||
		    addrs[i].cidr.prefixlen != p->cidr.prefixlen)
			continue;
		halo_cidr_network(&addrs[i].cidr, &other);
		if (!halo_cidr_same_addr(&net, &other))
			continue;
		if (count++ == 0)
			addr_format(&addrs[i].cidr, held, size);
	}
	return count;
}

/* Whether the kernel promotes a removed primary's secondaries on link L:
 * the link's promote_secondaries or net.ipv4.conf.all's, either one
 * (IN_DEV_PROMOTE_SECONDARIES is IN_DEV_ORCONF, include/linux/inetdevice.h).
 * "all" comes from the root's /proc/sys, the namespace's own in a --netns
 * run; unreadable, it counts as 0, which keeps the old prefix. */
static bool promotes(struct halo_ctx *ctx, const struct halo_rtnl_link *l)
{
	_cleanup_free_ char *v = NULL;
	size_t len;

	if (l->promote_secondaries == 1)
		return true;
	if (halo_read_file(ctx, "/proc/sys/net/ipv4/conf/all/promote_secondaries", &v, &len) < 0)
		return false;
	return strtol(v, NULL, 10) != 0;
}

/* An IPv6 address whose duplicate address detection failed stays listed
 * but unusable (net/ipv6/addrconf.c addrconf_dad_stop): only removing and
 * adding it again starts the detection anew. */
static bool dad_failed(const struct halo_rtnl_addr *a)
{
	return a->cidr.family == AF_INET6 && (a->flags & IFA_F_DADFAILED);
}

static int addr_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_link_want *w = item->data;
	const struct halo_rtnl_addr *addrs;
	const struct halo_rtnl_addr *exact = NULL, *other = NULL;
	char buf[64], also[64];
	size_t n;
	int err = halo_rtnl_addrs(ctx, &addrs, &n);

	if (err < 0)
		return halo_item_fail(item, err, "reading addresses");
	for (size_t i = 0; i < n; i++) {
		if (addrs[i].ifindex != w->ifindex ||
		    !halo_cidr_same_addr(&addrs[i].cidr, &w->addr))
			continue;
		if (addrs[i].cidr.prefixlen == w->addr.prefixlen)
			exact = &addrs[i];
		else
			other = &addrs[i];
	}
	if (!exact && !other) {
		clear_observed(item);
		return HALO_SYNC_DIFFERS;
	}
	addr_format(exact ? &exact->cidr : &other->cidr, buf, sizeof(buf));
	halo_item_set_observed(item, "%s", buf);
	if (!exact)
		return HALO_SYNC_DIFFERS;
	if (dad_failed(exact)) {
		halo_item_set_message(item, "duplicate address detection failed: another host on "
				      "the link answers for it");
		return HALO_SYNC_DIFFERS;
	}
	/* IPv4 holds one address under several prefixes: the others go,
	 * unless one takes secondaries with it (addr_apply). */
	if (other) {
		const struct halo_rtnl_link *l;
		char held[64];

		addr_format(&other->cidr, also, sizeof(also));
		err = find_link(ctx, item, w, true, &l);
		if (err < 0)
			return err;
		if (held_by(addrs, n, other, held, sizeof(held)) && !promotes(ctx, l))
			halo_item_set_message(item, "also %s, which apply leaves: it would take %s "
					      "with it (promote_secondaries is 0)", also, held);
		else
			halo_item_set_message(item, "also %s, which apply removes", also);
		return HALO_SYNC_DIFFERS;
	}
	if ((exact->flags & IFA_F_TENTATIVE) && !(exact->flags & IFA_F_NODAD))
		halo_item_set_message(item, "tentative: duplicate address detection has not "
				      "finished (it starts once the link has carrier)");
	return HALO_SYNC_OK;
}

static int remove_stale(struct halo_ctx *ctx, struct halo_item *item,
			const struct halo_link_want *w, const struct halo_rtnl_addr *stale, size_t n)
{
	char what[128], buf[64];

	for (size_t i = 0; i < n; i++) {
		int err = halo_rtnl_addr_del(ctx, &stale[i]);

		if (err < 0 && err != -EADDRNOTAVAIL) {
			addr_format(&stale[i].cidr, buf, sizeof(buf));
			snprintf(what, sizeof(what), "removing %s from %s", buf, w->link);
			return nl_fail(ctx, item, err, what);
		}
	}
	return 0;
}

/* The new IPv6 prefix was refused after the old one went: the old one is
 * put back (without the lifetimes and flags it had), so a failed change
 * leaves the link as it found it rather than without the address. */
static int restore_stale(struct halo_ctx *ctx, struct halo_item *item,
			 const struct halo_link_want *w, const struct halo_rtnl_addr *stale,
			 size_t n, int err, const char *what)
{
	char ext[256] = "", old[64], why[160];
	const char *e = halo_netlink_extack(ctx);
	int back = 0;

	/* The kernel's words about the refusal, before a re-add replaces them. */
	if (e)
		snprintf(ext, sizeof(ext), " (kernel: %s)", e);
	for (size_t i = 0; i < n && back == 0; i++) {
		back = halo_rtnl_addr_add(ctx, w->ifindex, &stale[i].cidr);
		if (back == -EEXIST)
			back = 0;
		addr_format(&stale[i].cidr, old, sizeof(old));
	}
	if (back < 0)
		snprintf(why, sizeof(why), "%s; %s, removed first, could not be put back (%s)",
			 strerror(-err), old, strerror(-back));
	else if (n == 1)
		snprintf(why, sizeof(why), "%s; %s was put back", strerror(-err), old);
	else
		snprintf(why, sizeof(why), "%s; the old prefixes were put back", strerror(-err));
	return halo_item_fail_why(item, err, why, "%s%s", what, ext);
}

/* An old IPv4 prefix that would take other addresses with it is left in
 * place, and the item fails saying why. */
static int stale_held(struct halo_item *item, const struct halo_link_want *w,
		      const struct halo_rtnl_addr *stale, const char *held, size_t n_held)
{
	char old[64], why[320];

	addr_format(&stale->cidr, old, sizeof(old));
	snprintf(why, sizeof(why),
		 "left in place: the kernel would remove %s%s with it (its secondary "
		 "address%s), as net.ipv4.conf.{all,%s}.promote_secondaries are 0",
		 held, n_held > 1 ? " and others" : "", n_held > 1 ? "es" : "", w->link);
	return halo_item_fail_why(item, -EBUSY, why, "removing %s from %s", old, w->link);
}

static int addr_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_link_want *w = item->data;
	const struct halo_rtnl_addr *addrs;
	const struct halo_rtnl_link *l;
	/* IPv4 knows an address by address and prefix (at most 33 of one
	 * address), IPv6 by the address alone (at most one). */
	struct halo_rtnl_addr stale[33], removed[33], holding[33];
	char held[64] = "";
	size_t n, n_stale = 0, n_removed = 0, n_holding = 0, n_held = 0;
	const struct halo_rtnl_addr *kept = NULL;
	char what[128], buf[64];
	int err = halo_rtnl_addrs_observed(ctx, &addrs, &n);

	if (err < 0)
		return halo_item_fail(item, err, "reading addresses");
	/* The same address with another prefix is replaced, not doubled;
	 * one that failed duplicate address detection is added anew. An
	 * IPv4 one whose removal would take secondaries with it stays,
	 * unless the link promotes them. */
	for (size_t i = 0; i < n && n_stale < ARRAY_SIZE(stale); i++) {
		size_t h;

		if (addrs[i].ifindex != w->ifindex ||
		    !halo_cidr_same_addr(&addrs[i].cidr, &w->addr) ||
		    (addrs[i].cidr.prefixlen == w->addr.prefixlen && !dad_failed(&addrs[i])))
			continue;
		stale[n_stale++] = addrs[i];
		h = held_by(addrs, n, &addrs[i], held, sizeof(held));
		if (h) {
			n_held = h;
			holding[n_holding++] = addrs[i];
		} else {
			removed[n_removed++] = addrs[i];
		}
	}
	/* The link is looked up only then: its snapshot may be stale. */
	if (n_holding) {
		err = find_link(ctx, item, w, true, &l);
		if (err < 0)
			return err;
		if (promotes(ctx, l)) {
			memcpy(removed + n_removed, holding, n_holding * sizeof(holding[0]));
			n_removed += n_holding;
		} else {
			kept = &holding[n_holding - 1];
		}
	}
	/* IPv6 knows an address by the address alone: the add would answer
	 * EEXIST while the old prefix is there (net/ipv6/addrconf.c
	 * ipv6_add_addr), and no replace changes a prefix, so the old one
	 * goes first. IPv4 holds both for a moment instead of neither. */
	if (w->addr.family == AF_INET6) {
		err = remove_stale(ctx, item, w, stale, n_stale);
		if (err < 0)
			return err;
	}
	addr_format(&w->addr, buf, sizeof(buf));
	err = halo_rtnl_addr_add(ctx, w->ifindex, &w->addr);
	if (err < 0 && err != -EEXIST) { /* already there: success */
		snprintf(what, sizeof(what), "adding %s to %s", buf, w->link);
		if (w->addr.family == AF_INET6 && n_stale)
			return restore_stale(ctx, item, w, stale, n_stale, err, what);
		return nl_fail(ctx, item, err, what);
	}
	if (w->addr.family == AF_INET6)
		return 0;
	err = remove_stale(ctx, item, w, removed, n_removed);
	if (err < 0)
		return err;
	if (!kept)
		return 0;
	/* Failed, but the new prefix is in place: the run changed the host. */
	item->changed = true;
	return stale_held(item, w, kept, held, n_held);
}

/* ---- addr-extra (exclusive_addresses) ---- */

static bool is_kept(const struct halo_link_want *w, const struct halo_cidr *c)
{
	if (halo_cidr_is_link_local(c))
		return true;
	/* A listed address under another prefix is its addr item's to
	 * replace (the new prefix first, for IPv4). Removed here first, it
	 * could be the link's last IPv4 address, and that removal takes
	 * every IPv4 route of the link with it (net/ipv4/fib_frontend.c
	 * fib_inetaddr_event, fib_disable_ip). */
	for (size_t i = 0; i < w->n_keep; i++)
		if (halo_cidr_same_addr(&w->keep[i], c))
			return true;
	return false;
}

static int extra_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_link_want *w = item->data;
	const struct halo_rtnl_addr *addrs;
	struct halo_buf b = { 0 };
	_cleanup_free_ char *list = NULL;
	char buf[64];
	size_t n;
	int err = halo_rtnl_addrs(ctx, &addrs, &n);

	if (err < 0)
		return halo_item_fail(item, err, "reading addresses");
	for (size_t i = 0; i < n; i++) {
		if (addrs[i].ifindex != w->ifindex || is_kept(w, &addrs[i].cidr))
			continue;
		addr_format(&addrs[i].cidr, buf, sizeof(buf));
		halo_buf_printf(&b, "%s%s", b.len ? " " : "", buf);
	}
	halo_item_set_message(item, "IPv6 link-local fe80::/64 addresses are kept");
	if (b.len == 0) {
		halo_buf_free(&b);
		halo_item_set_observed(item, "none");
		return HALO_SYNC_OK;
	}
	list = halo_buf_steal(&b);
	if (!list)
		return halo_item_fail(item, -ENOMEM, "listing addresses");
	halo_item_set_observed(item, "%s", list);
	return HALO_SYNC_DIFFERS;
}

static int extra_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_link_want *w = item->data;
	const struct halo_rtnl_addr *addrs;
	struct halo_rtnl_addr *gone = NULL;
	char buf[64], kernel[160] = "", more[48] = "";
	const char *ext;
	size_t n, n_gone = 0, n_removed = 0, n_failed = 0;
	int first = 0, err = halo_rtnl_addrs_observed(ctx, &addrs, &n);

	if (err < 0)
		return halo_item_fail(item, err, "reading addresses");
	/* Copy first: each removal invalidates the snapshot. */
	gone = calloc(n ? n : 1, sizeof(*gone));
	if (!gone)
		return halo_item_fail(item, -ENOMEM, "listing addresses");
	for (size_t i = 0; i < n; i++)
		if (addrs[i].ifindex == w->ifindex && !is_kept(w, &addrs[i].cidr))
			gone[n_gone++] = addrs[i];
	/* One refused removal does not keep the others: each is tried, and
	 * the first refusal is the one named. */
	for (size_t i = 0; i < n_gone; i++) {
		err = halo_rtnl_addr_del(ctx, &gone[i]);
		if (err == 0)
			n_removed++;
		/* Removing an IPv4 primary can take its secondaries along. */
		if (err == 0 || err == -EADDRNOTAVAIL || n_failed++)
			continue;
		first = err;
		addr_format(&gone[i].cidr, buf, sizeof(buf));
		ext = halo_netlink_extack(ctx);
		snprintf(kernel, sizeof(kernel), "%s%s%s", ext ? " (kernel: " : "", ext ? ext : "",
			 ext ? ")" : "");
	}
	free(gone);
	if (!n_failed)
		return 0;
	if (n_removed) /* failed, but the host changed */
		item->changed = true;
	if (n_failed > 1)
		snprintf(more, sizeof(more), "; %zu more refused", n_failed - 1);
	return halo_item_fail(item, first, "removing %s from %s%s%s", buf, w->link, kernel, more);
}

/* ---- route ---- */

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

		gateway_format(&r->gateway, a, sizeof(a));
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

/* Whether R, on another link, sends W's destination instead of OURS. It
 * is that link's, so it is only named: the kernel picks by metric across
 * links too (fib_select_path, rt6_select). */
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

static int route_observe(struct halo_ctx *ctx, struct halo_item *item)
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
		clear_observed(item);
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
		return halo_item_set_message(item, "a route on another link with a lower metric "
					     "takes the traffic (%s); it is that link's to change",
					     other) < 0 ? -ENOMEM : HALO_SYNC_OK;
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
			return nl_fail(ctx, item, err, what);
		}
		if (err == -ESRCH)
			return 0; /* gone meanwhile; the verify pass looks again */
	}
	return 0;
}

static int route_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_link_want *w = item->data;
	char what[128], dst[64];
	int err = halo_rtnl_route_replace(ctx, w->ifindex, &w->dst,
					  w->has_gateway ? &w->gateway : NULL,
					  w->metric);

	if (err < 0) {
		halo_route_dst_format(&w->dst, dst, sizeof(dst));
		snprintf(what, sizeof(what), "route to %s on %s", dst, w->link);
		return nl_fail(ctx, item, err, what);
	}
	return remove_outranking(ctx, item, w);
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
	return explained(ctx, item, addr_observe(ctx, item));
}

static int extra_observe_x(struct halo_ctx *ctx, struct halo_item *item)
{
	return explained(ctx, item, extra_observe(ctx, item));
}

static int route_observe_x(struct halo_ctx *ctx, struct halo_item *item)
{
	return explained(ctx, item, route_observe(ctx, item));
}

static const struct halo_item_ops ops[] = {
	[HALO_LINK_PRESENT] = { .observe = present_observe, .apply = present_apply, .free_data = want_free },
	[HALO_LINK_MTU] = { .observe = mtu_observe_x, .apply = mtu_apply, .free_data = want_free },
	[HALO_LINK_UP] = { .observe = up_observe_x, .apply = up_apply, .free_data = want_free },
	[HALO_LINK_ADDR] = { .observe = addr_observe_x, .apply = addr_apply, .free_data = want_free },
	[HALO_LINK_ADDR_EXTRA] = { .observe = extra_observe_x, .apply = extra_apply, .free_data = want_free },
	[HALO_LINK_ROUTE] = { .observe = route_observe_x, .apply = route_apply, .free_data = want_free },
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
		addr_format(&w->addr, buf, sizeof(buf));
		return halo_item_set_wanted(item, "%s", buf);
	case HALO_LINK_ADDR_EXTRA:
		return halo_item_set_wanted(item, "none");
	case HALO_LINK_ROUTE:
		halo_route_dst_format(&w->dst, buf, sizeof(buf));
		a[0] = '\0';
		if (w->has_gateway) {
			char g[64];

			gateway_format(&w->gateway, g, sizeof(g));
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
