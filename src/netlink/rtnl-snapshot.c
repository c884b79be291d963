/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtnl-snapshot.c: the run's view of links, addresses and routes. Each
 * kind is fetched once and kept until a change of that kind marks it
 * stale (rtnl-change.c). What the link and address snapshots cover is
 * scoped: the whole host (one dump) while matching needs it, the links
 * the config names (one RTM_GETLINK each), or, once matched, the managed
 * ifindexes (one request per link and kind). The GET and dump requests
 * carry the kernel-side filters that keep that cost flat: IFLA_EXT_MASK
 * without statistics, ifa_index under strict checking, the main table
 * and unicast type for routes, RTM_F_FIB_MATCH for one address's holder.
 */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "netlink/context.h"
#include "netlink/request.h"
#include "netlink/rtnl-int.h"
#include "netlink/rtnl.h"


struct snapshot {
	void *items;
	size_t n;
	bool ok;     /* false: not loaded yet, or stale after a change */
	bool loaded; /* filled at least once (items is NULL when empty) */
	unsigned long generation; /* ctx->generation it was read in */
};

struct halo_rtnl {
	struct snapshot snap[HALO_RTNL_SNAP_N];
	/* What the link and address snapshots cover: the whole host (a
	 * dump), the named links (one RTM_GETLINK each), or once matched,
	 * the managed ifindexes (one request each). */
	char (*names)[IF_NAMESIZE];
	size_t n_names;
	int *scope;
	size_t n_scope;
	bool scoped;
};

typedef int (*parse_fn)(const void *nlh, size_t len, void *ret);

/* Type-exact adapters: calling through a cast function pointer is
 * undefined (and clang's -fsanitize=function says so). */
static int parse_link_any(const void *nlh, size_t len, void *ret)
{
	return halo_rtnl_parse_link(nlh, len, ret);
}

static int parse_addr_any(const void *nlh, size_t len, void *ret)
{
	return halo_rtnl_parse_addr(nlh, len, ret);
}

static int parse_route_any(const void *nlh, size_t len, void *ret)
{
	return halo_rtnl_parse_route(nlh, len, ret);
}

static int parse_local_any(const void *nlh, size_t len, void *ret)
{
	return halo_rtnl_parse_local(nlh, len, ret);
}

static const struct {
	size_t size; /* one record */
	parse_fn parse;
} snap_kinds[HALO_RTNL_SNAP_N] = {
	[HALO_RTNL_SNAP_LINKS] = { sizeof(struct halo_rtnl_link), parse_link_any },
	[HALO_RTNL_SNAP_ADDRS] = { sizeof(struct halo_rtnl_addr), parse_addr_any },
	[HALO_RTNL_SNAP_ROUTES] = { sizeof(struct halo_rtnl_route), parse_route_any },
};

/* A growable array of fixed-size records collected from a reply. */
struct collect {
	void *items;
	size_t n, cap, size;
	parse_fn parse;
};

static int collect_one(const struct nlmsghdr *nlh, void *arg)
{
	struct collect *c = arg;
	char *slot;
	int r;

	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 32;
		void *p = realloc(c->items, cap * c->size);

		if (!p)
			return -ENOMEM;
		c->items = p;
		c->cap = cap;
	}
	slot = (char *)c->items + c->n * c->size;
	r = c->parse(nlh, nlh->nlmsg_len, slot);
	if (r < 0)
		return r;
	if (r > 0)
		c->n++;
	return 0;
}

/* ---- state ---- */

static int state_get(struct halo_ctx *ctx, struct halo_rtnl **ret)
{
	struct halo_nlt *t;
	int err = halo_netlink_transport(ctx, &t);

	if (err < 0)
		return err;
	if (!ctx->rtnl && !(ctx->rtnl = calloc(1, sizeof(*ctx->rtnl))))
		return -ENOMEM;
	*ret = ctx->rtnl;
	return 0;
}

static void scope_forget(struct halo_rtnl *r)
{
	free(r->names);
	r->names = NULL;
	r->n_names = 0;
	free(r->scope);
	r->scope = NULL;
	r->n_scope = 0;
	r->scoped = false;
}

void halo_rtnl_free(struct halo_rtnl *r)
{
	if (!r)
		return;
	for (size_t k = 0; k < HALO_RTNL_SNAP_N; k++)
		free(r->snap[k].items);
	scope_forget(r);
	free(r);
}

void halo_rtnl_stale(struct halo_ctx *ctx, enum halo_rtnl_snap kind)
{
	if (ctx->rtnl)
		ctx->rtnl->snap[kind].ok = false;
}

void halo_rtnl_unscope(struct halo_ctx *ctx)
{
	struct halo_rtnl *r = ctx->rtnl;

	if (!r)
		return;
	scope_forget(r);
	for (size_t k = 0; k < HALO_RTNL_SNAP_N; k++)
		r->snap[k].ok = r->snap[k].loaded = false;
}

int halo_rtnl_send(struct halo_ctx *ctx, struct nlmsghdr *nlh,
		   halo_nlt_msg_fn fn, void *userdata)
{
	struct halo_nlt *t;
	int err = halo_netlink_transport(ctx, &t);

	if (err < 0)
		return err;
	return halo_nlt_request(t, HALO_NLT_ROUTE, nlh, fn, userdata, NULL);
}

static int rtnl_get(struct halo_ctx *ctx, struct nlmsghdr *nlh,
		    halo_nlt_msg_fn fn, void *userdata)
{
	struct halo_nlt *t;
	int err = halo_netlink_transport(ctx, &t);

	if (err < 0)
		return err;
	return halo_nlt_get(t, HALO_NLT_ROUTE, nlh, fn, userdata);
}

/* ---- requests ---- */

/* A GET or dump request: TYPE (a dump with DUMP), the family header HDR,
 * and the attributes the kernel filters by. */
struct request {
	uint16_t type;
	bool dump;
	const void *hdr;
	size_t hdrlen;
	bool skip_stats;             /* IFLA_EXT_MASK */
	const char *ifname;          /* IFLA_IFNAME: RTM_GETLINK by name */
	const struct halo_cidr *dst; /* RTA_DST: RTM_GETROUTE lookup */
};

static int request_build(const struct request *rq, void *buf, size_t size,
			 struct nlmsghdr **ret_nlh)
{
	struct nlmsghdr *nlh;
	void *hdr;
	int err = halo_req_start(buf, size, rq->type, rq->hdrlen, &nlh, &hdr);

	if (err < 0)
		return err;
	/* A dump is answered by NLMSG_DONE, not acknowledged. */
	if (rq->dump)
		nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	memcpy(hdr, rq->hdr, rq->hdrlen);
	if ((rq->skip_stats &&
	     !mnl_attr_put_u32_check(nlh, size, IFLA_EXT_MASK, RTEXT_FILTER_SKIP_STATS)) ||
	    (rq->ifname && !mnl_attr_put_strz_check(nlh, size, IFLA_IFNAME, rq->ifname)) ||
	    (rq->dst && !mnl_attr_put_check(nlh, size, RTA_DST,
					    rq->dst->family == AF_INET ? 4 : 16,
					    rq->dst->addr)))
		return -EMSGSIZE;
	*ret_nlh = nlh;
	return 0;
}

/* Sends RQ and collects its replies into C (appended). A dump interrupted
 * because the kernel's tables changed under it is retried. */
static int request_collect(struct halo_ctx *ctx, const struct request *rq,
			   struct collect *c)
{
	char buf[HALO_RTNL_REQ_SIZE] __attribute__((aligned(4)));
	size_t base = c->n;

	for (int attempt = 0; attempt < 3; attempt++) {
		struct nlmsghdr *nlh;
		int err = request_build(rq, buf, sizeof(buf), &nlh);

		if (err < 0)
			return err;
		c->n = base;
		err = rq->dump ? halo_rtnl_send(ctx, nlh, collect_one, c)
			       : rtnl_get(ctx, nlh, collect_one, c);
		if (err == -EINTR && rq->dump)
			continue;
		return err;
	}
	return -EAGAIN;
}

/* One link by ifindex (or by name when IFNAME): appended to C; a link
 * that does not exist (-ENODEV) adds nothing. */
static int link_get(struct halo_ctx *ctx, int ifindex, const char *ifname,
		    struct collect *c)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = ifindex };
	struct request rq = { .type = RTM_GETLINK, .hdr = &ifi,
			      .hdrlen = sizeof(ifi), .skip_stats = true,
			      .ifname = ifname };
	int err = request_collect(ctx, &rq, c);

	return err == -ENODEV ? 0 : err;
}

static int fill_links(struct halo_ctx *ctx, struct collect *c)
{
	struct halo_rtnl *r = ctx->rtnl;
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct request rq = { .type = RTM_GETLINK, .dump = true, .hdr = &ifi,
			      .hdrlen = sizeof(ifi), .skip_stats = true };
	int err = 0;

	if (r->scoped) {
		for (size_t i = 0; i < r->n_scope && err >= 0; i++)
			err = link_get(ctx, r->scope[i], NULL, c);
		return err;
	}
	if (r->names) {
		for (size_t i = 0; i < r->n_names && err >= 0; i++)
			err = link_get(ctx, 0, r->names[i], c);
		return err;
	}
	return request_collect(ctx, &rq, c);
}

/* Addresses: of the managed links only once they are known, each dump
 * filtered by the kernel (NETLINK_GET_STRICT_CHK honours ifa_index). The
 * filter is applied here too, for kernels that ignore it. */
static int fill_addrs(struct halo_ctx *ctx, struct collect *c)
{
	struct halo_rtnl *r = ctx->rtnl;
	struct ifaddrmsg ifa = { .ifa_family = AF_UNSPEC };
	struct request rq = { .type = RTM_GETADDR, .dump = true, .hdr = &ifa,
			      .hdrlen = sizeof(ifa) };
	int err = 0;

	if (!r->scoped)
		return request_collect(ctx, &rq, c);
	for (size_t i = 0; i < r->n_scope && err >= 0; i++) {
		size_t base = c->n, keep = base;

		ifa.ifa_index = (uint32_t)r->scope[i];
		err = request_collect(ctx, &rq, c);
		if (err == -ENODEV) /* gone since: no addresses */
			err = 0;
		for (size_t k = base; k < c->n; k++) {
			struct halo_rtnl_addr *a = (struct halo_rtnl_addr *)c->items + k;

			if (a->ifindex == r->scope[i])
				((struct halo_rtnl_addr *)c->items)[keep++] = *a;
		}
		c->n = keep;
	}
	return err;
}

/* Routes: the main table's unicast routes of every link (the check for
 * another link's route to the same destination needs them), filtered by
 * the kernel to that table and type. */
static int fill_routes(struct halo_ctx *ctx, struct collect *c)
{
	struct rtmsg rtm = { .rtm_family = AF_UNSPEC, .rtm_table = RT_TABLE_MAIN,
			     .rtm_type = RTN_UNICAST };
	struct request rq = { .type = RTM_GETROUTE, .dump = true, .hdr = &rtm,
			      .hdrlen = sizeof(rtm) };

	return request_collect(ctx, &rq, c);
}

/* ---- snapshots ---- */

/* The snapshot of KIND, fetched when not loaded or stale. */
static int snapshot_get(struct halo_ctx *ctx, enum halo_rtnl_snap kind,
			const void **ret, size_t *ret_n)
{
	static int (*const fill[HALO_RTNL_SNAP_N])(struct halo_ctx *, struct collect *) = {
		[HALO_RTNL_SNAP_LINKS] = fill_links,
		[HALO_RTNL_SNAP_ADDRS] = fill_addrs,
		[HALO_RTNL_SNAP_ROUTES] = fill_routes,
	};
	struct halo_rtnl *r;
	struct snapshot *snap;
	int err = state_get(ctx, &r);

	if (err < 0)
		return err;
	snap = &r->snap[kind];
	if (!snap->ok || snap->generation != ctx->generation) {
		struct collect c = { .size = snap_kinds[kind].size,
				     .parse = snap_kinds[kind].parse };

		err = fill[kind](ctx, &c);
		if (err < 0) {
			free(c.items);
			return err;
		}
		free(snap->items);
		snap->items = c.items;
		snap->n = c.n;
		snap->ok = true;
		snap->loaded = true;
		snap->generation = ctx->generation;
	}
	*ret = snap->items;
	*ret_n = snap->n;
	return 0;
}

int halo_rtnl_links(struct halo_ctx *ctx, const struct halo_rtnl_link **ret,
		    size_t *ret_n)
{
	return snapshot_get(ctx, HALO_RTNL_SNAP_LINKS, (const void **)ret, ret_n);
}

int halo_rtnl_addrs(struct halo_ctx *ctx, const struct halo_rtnl_addr **ret,
		    size_t *ret_n)
{
	return snapshot_get(ctx, HALO_RTNL_SNAP_ADDRS, (const void **)ret, ret_n);
}

int halo_rtnl_addrs_observed(struct halo_ctx *ctx,
			     const struct halo_rtnl_addr **ret, size_t *ret_n)
{
	struct snapshot *snap = ctx->rtnl ? &ctx->rtnl->snap[HALO_RTNL_SNAP_ADDRS] : NULL;

	if (!snap || !snap->loaded)
		return halo_rtnl_addrs(ctx, ret, ret_n);
	*ret = snap->items;
	*ret_n = snap->n;
	return 0;
}

int halo_rtnl_routes(struct halo_ctx *ctx, const struct halo_rtnl_route **ret,
		     size_t *ret_n)
{
	return snapshot_get(ctx, HALO_RTNL_SNAP_ROUTES, (const void **)ret, ret_n);
}

/* ---- scoping ---- */

int halo_rtnl_scope_names(struct halo_ctx *ctx, const char *const *names, size_t n)
{
	struct halo_rtnl *r;
	int err = state_get(ctx, &r);

	if (err < 0)
		return err;
	free(r->names);
	r->names = calloc(n ? n : 1, sizeof(*r->names));
	if (!r->names)
		return -ENOMEM;
	r->n_names = 0;
	for (size_t i = 0; i < n; i++) {
		if (strlen(names[i]) >= IF_NAMESIZE)
			continue; /* no link can have it */
		snprintf(r->names[r->n_names++], IF_NAMESIZE, "%s", names[i]);
	}
	r->snap[HALO_RTNL_SNAP_LINKS].ok = false;
	return 0;
}

int halo_rtnl_scope_ifindexes(struct halo_ctx *ctx, const int *ifindexes, size_t n)
{
	struct halo_rtnl *r;
	int err = state_get(ctx, &r);

	if (err < 0)
		return err;
	free(r->scope);
	r->scope = calloc(n ? n : 1, sizeof(*r->scope));
	if (!r->scope)
		return -ENOMEM;
	r->n_scope = 0;
	for (size_t i = 0; i < n; i++) {
		bool dup = false;

		for (size_t k = 0; k < r->n_scope; k++)
			dup = dup || r->scope[k] == ifindexes[i];
		if (!dup)
			r->scope[r->n_scope++] = ifindexes[i];
	}
	r->scoped = true;
	/* The link snapshot already holds the managed links; addresses are
	 * fetched for them alone from now on. */
	r->snap[HALO_RTNL_SNAP_ADDRS].ok = false;
	r->snap[HALO_RTNL_SNAP_ADDRS].loaded = false;
	return 0;
}

/* ---- lookups ---- */

int halo_rtnl_link_fetch(struct halo_ctx *ctx, int ifindex,
			 struct halo_rtnl_link *ret)
{
	struct collect c = { .size = sizeof(struct halo_rtnl_link),
			     .parse = parse_link_any };
	int err;

	if (ifindex <= 0)
		return -ENODEV;
	err = link_get(ctx, ifindex, NULL, &c);
	if (err == 0 && c.n == 0)
		err = -ENODEV;
	if (err == 0)
		*ret = *(struct halo_rtnl_link *)c.items;
	free(c.items);
	return err;
}

int halo_rtnl_link_lookup(struct halo_ctx *ctx, int ifindex,
			  struct halo_rtnl_link *ret)
{
	const struct halo_rtnl_link *links;
	size_t n;
	int err = halo_rtnl_links(ctx, &links, &n);

	if (err < 0)
		return err;
	for (size_t i = 0; i < n; i++) {
		if (links[i].ifindex == ifindex) {
			*ret = links[i];
			return 0;
		}
	}
	return halo_rtnl_link_fetch(ctx, ifindex, ret);
}

int halo_rtnl_link_name(struct halo_ctx *ctx, int ifindex, char name[IF_NAMESIZE])
{
	struct halo_rtnl_link l;
	int err = halo_rtnl_link_lookup(ctx, ifindex, &l);

	if (err == 0)
		memcpy(name, l.name, IF_NAMESIZE);
	return err;
}

int halo_rtnl_addr_holder(struct halo_ctx *ctx, const struct halo_cidr *c,
			  int *ret_ifindex)
{
	struct rtmsg rtm = {
		.rtm_family = (uint8_t)c->family,
		.rtm_dst_len = c->family == AF_INET ? 32 : 128,
		.rtm_flags = RTM_F_FIB_MATCH,
	};
	struct request rq = { .type = RTM_GETROUTE, .hdr = &rtm,
			      .hdrlen = sizeof(rtm), .dst = c };
	struct collect col = { .size = sizeof(int), .parse = parse_local_any };
	int err;

	*ret_ifindex = 0;
	err = request_collect(ctx, &rq, &col);
	/* No route at all to it: nobody holds it. */
	if (err == -ENETUNREACH || err == -EHOSTUNREACH || err == -ENOENT ||
	    err == -ESRCH)
		err = 0;
	if (err == 0 && col.n > 0)
		*ret_ifindex = *(int *)col.items;
	free(col.items);
	return err;
}
