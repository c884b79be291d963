/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * items-addr.c: link/<name>/addr/<cidr> (one address, its prefix changed
 * in place) and link/<name>/addr-extra (exclusive_addresses: the unlisted
 * ones removed).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/if_addr.h>

#include "links/items.h"
#include "netlink/context.h"
#include "util/rootfs.h"
#include "util/strv.h"

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
			halo_cidr_format(&addrs[i].cidr, held, size);
	}
	return count;
}

/* Whether the kernel promotes a removed primary's secondaries on link L:
 * the link's promote_secondaries or net.ipv4.conf.all's, either one
 * (IN_DEV_PROMOTE_SECONDARIES is IN_DEV_ORCONF, include/linux/inetdevice.h).
 * "all" comes from the root's /proc/sys, as every sysctl does (on a node,
 * the kernel's own). Unknown counts as 0, which keeps the old prefix. When
 * not, WHY says which settings keep it from promoting. */
static bool promotes(struct halo_ctx *ctx, const struct halo_rtnl_link *l,
		     const struct halo_link_want *w, char *why, size_t size)
{
	_cleanup_free_ char *v = NULL;
	size_t len;
	int all = -1;

	if (l->promote_secondaries == 1)
		return true;
	if (halo_read_file(ctx, "/proc/sys/net/ipv4/conf/all/promote_secondaries", &v, &len) == 0)
		all = strtol(v, NULL, 10) != 0;
	if (all == 1)
		return true;
	if (all == 0 && l->promote_secondaries == 0)
		snprintf(why, size, "net.ipv4.conf.{all,%s}.promote_secondaries are 0", w->link);
	else if (all == 0)
		snprintf(why, size, "net.ipv4.conf.all.promote_secondaries is 0, and %s's is "
			 "not known", w->link);
	else if (l->promote_secondaries == 0)
		snprintf(why, size, "net.ipv4.conf.%s.promote_secondaries is 0, and all's cannot "
			 "be read", w->link);
	else
		snprintf(why, size, "promote_secondaries is not known for %s or all", w->link);
	return false;
}

/* An IPv6 address whose duplicate address detection failed stays listed
 * but unusable (net/ipv6/addrconf.c addrconf_dad_stop): only removing and
 * adding it again starts the detection anew. */
static bool dad_failed(const struct halo_rtnl_addr *a)
{
	return a->cidr.family == AF_INET6 && (a->flags & IFA_F_DADFAILED);
}

int halo_link_addr_observe(struct halo_ctx *ctx, struct halo_item *item)
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
		halo_link_clear_observed(item);
		return HALO_SYNC_DIFFERS;
	}
	halo_cidr_format(exact ? &exact->cidr : &other->cidr, buf, sizeof(buf));
	halo_item_set_observed(item, "%s", buf);
	if (!exact)
		return HALO_SYNC_DIFFERS;
	if (dad_failed(exact)) {
		halo_item_set_message(item, "duplicate address detection failed: another host on "
				      "the link answers for it");
		return HALO_SYNC_DIFFERS;
	}
	/* IPv4 holds one address under several prefixes: the others go,
	 * unless one takes secondaries with it (halo_link_addr_apply). */
	if (other) {
		const struct halo_rtnl_link *l;
		char held[64], why[160];

		halo_cidr_format(&other->cidr, also, sizeof(also));
		err = halo_link_find(ctx, item, w, true, &l);
		if (err < 0)
			return err;
		if (held_by(addrs, n, other, held, sizeof(held)) &&
		    !promotes(ctx, l, w, why, sizeof(why)))
			halo_item_set_message(item, "also %s, which apply leaves: it would take %s "
					      "with it (%s)", also, held, why);
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
			halo_cidr_format(&stale[i].cidr, buf, sizeof(buf));
			snprintf(what, sizeof(what), "removing %s from %s", buf, w->link);
			return halo_link_nl_fail(ctx, item, err, what);
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
		halo_cidr_format(&stale[i].cidr, old, sizeof(old));
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
		      const struct halo_rtnl_addr *stale, const char *held, size_t n_held,
		      const char *unpromoted)
{
	char old[64], why[384];

	halo_cidr_format(&stale->cidr, old, sizeof(old));
	snprintf(why, sizeof(why),
		 "left in place: the kernel would remove %s%s with it (its secondary "
		 "address%s), as %s",
		 held, n_held > 1 ? " and others" : "", n_held > 1 ? "es" : "", unpromoted);
	return halo_item_fail_why(item, -EBUSY, why, "removing %s from %s", old, w->link);
}

int halo_link_addr_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_link_want *w = item->data;
	const struct halo_rtnl_addr *addrs;
	const struct halo_rtnl_link *l;
	/* IPv4 knows an address by address and prefix (at most 33 of one
	 * address), IPv6 by the address alone (at most one). */
	struct halo_rtnl_addr stale[33], removed[33], holding[33];
	char held[64] = "", unpromoted[160] = "";
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
		err = halo_link_find(ctx, item, w, true, &l);
		if (err < 0)
			return err;
		if (promotes(ctx, l, w, unpromoted, sizeof(unpromoted))) {
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
	halo_cidr_format(&w->addr, buf, sizeof(buf));
	err = halo_rtnl_addr_add(ctx, w->ifindex, &w->addr);
	if (err < 0 && err != -EEXIST) { /* already there: success */
		snprintf(what, sizeof(what), "adding %s to %s", buf, w->link);
		if (w->addr.family == AF_INET6 && n_stale)
			return restore_stale(ctx, item, w, stale, n_stale, err, what);
		return halo_link_nl_fail(ctx, item, err, what);
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
	return stale_held(item, w, kept, held, n_held, unpromoted);
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

int halo_link_extra_observe(struct halo_ctx *ctx, struct halo_item *item)
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
		halo_cidr_format(&addrs[i].cidr, buf, sizeof(buf));
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

int halo_link_extra_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_link_want *w = item->data;
	const struct halo_rtnl_addr *addrs;
	struct halo_rtnl_addr *gone = NULL;
	char buf[64], kernel[160] = "", why[128];
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
		halo_cidr_format(&gone[i].cidr, buf, sizeof(buf));
		ext = halo_netlink_extack(ctx);
		snprintf(kernel, sizeof(kernel), "%s%s%s", ext ? " (kernel: " : "", ext ? ext : "",
			 ext ? ")" : "");
	}
	free(gone);
	if (!n_failed)
		return 0;
	if (n_removed) /* failed, but the host changed */
		item->changed = true;
	snprintf(why, sizeof(why), "%s", strerror(-first));
	if (n_failed > 1)
		snprintf(why + strlen(why), sizeof(why) - strlen(why), "; %zu more refused",
			 n_failed - 1);
	return halo_item_fail_why(item, first, why, "removing %s from %s%s", buf, w->link, kernel);
}
