/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nl.c: rtnetlink for the links subsystem: messages built with libnl-3,
 * sent and answered through the run's transport (netlink/transport.h),
 * which counts every request, reads each reply to its ACK and keeps the
 * kernel's errno and extended ACK. Snapshots of links, addresses and
 * routes are kept here and refreshed only after a change of their kind.
 */
#include "config.h"

#include <errno.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/object.h>
#include <netlink/route/addr.h>

#include "net/nl.h"
#include "netlink/transport.h"

#ifndef RTEXT_FILTER_SKIP_STATS
#define RTEXT_FILTER_SKIP_STATS (1 << 3)
#endif
#ifndef RTM_F_FIB_MATCH
#define RTM_F_FIB_MATCH 0x2000
#endif

/* The three snapshots: links and addresses of the managed links (or the
 * whole host while matching needs it), the main table's routes. */
enum snap_kind { SNAP_LINKS, SNAP_ADDRS, SNAP_ROUTES, SNAP_N };

struct snapshot {
	void *items;
	size_t n;
	bool ok; /* false: not loaded yet, or stale after a change */
	bool loaded; /* filled at least once (items is NULL when empty) */
};

struct halo_nl {
	struct halo_nlt *t; /* the run's transport: sockets, count, ACKs */
	struct snapshot snap[SNAP_N];
	/* What the link and address snapshots cover (issue 8, part 4): the
	 * whole host (a dump), the named links (one RTM_GETLINK each), or
	 * once matched, the managed ifindexes (one request each). */
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
	return halo_nl_parse_link(nlh, len, ret);
}

static int parse_addr_any(const void *nlh, size_t len, void *ret)
{
	return halo_nl_parse_addr(nlh, len, ret);
}

static int parse_route_any(const void *nlh, size_t len, void *ret)
{
	return halo_nl_parse_route(nlh, len, ret);
}

static const struct {
	size_t size; /* one record */
	parse_fn parse;
} snap_kinds[SNAP_N] = {
	[SNAP_LINKS] = { sizeof(struct halo_nl_link), parse_link_any },
	[SNAP_ADDRS] = { sizeof(struct halo_nl_addr), parse_addr_any },
	[SNAP_ROUTES] = { sizeof(struct halo_nl_route), parse_route_any },
};

/* A growable array of fixed-size records collected by a dump. */
struct collect {
	void *items;
	size_t n, cap, size;
	parse_fn parse;
};

/* ---- pure parsers ---- */

static const struct nlmsghdr *msg_check(const void *buf, size_t len,
					uint16_t type, size_t hdrlen)
{
	const struct nlmsghdr *nlh = buf;

	if (len < NLMSG_HDRLEN || nlh->nlmsg_len < NLMSG_HDRLEN ||
	    nlh->nlmsg_len > len)
		return NULL;
	if (nlh->nlmsg_type != type)
		return NULL;
	if (nlh->nlmsg_len < NLMSG_HDRLEN + NLMSG_ALIGN(hdrlen))
		return NULL;
	return nlh;
}

/* Parses the attributes after the family header into TB[0..MAX]. */
static int attrs_parse(const struct nlmsghdr *nlh, size_t hdrlen,
		       struct nlattr **tb, int max)
{
	size_t off = NLMSG_HDRLEN + NLMSG_ALIGN(hdrlen);
	int err;

	err = nla_parse(tb, max,
			(struct nlattr *)((char *)nlh + off),
			(int)(nlh->nlmsg_len - off), NULL);
	return err < 0 ? -EBADMSG : 0;
}

static bool get_u32(const struct nlattr *a, uint32_t *ret)
{
	if (!a || nla_len(a) < 4)
		return false;
	memcpy(ret, nla_data(a), 4);
	return true;
}

static bool get_addr(const struct nlattr *a, int family, uint8_t *ret)
{
	int want = family == AF_INET ? 4 : 16;

	if (!a || nla_len(a) != want)
		return false;
	memcpy(ret, nla_data(a), (size_t)want);
	return true;
}

static int max_prefix(int family)
{
	return family == AF_INET ? 32 : 128;
}

int halo_nl_parse_link(const void *buf, size_t len, struct halo_nl_link *ret)
{
	const struct nlmsghdr *nlh = buf;
	struct nlattr *tb[IFLA_MAX + 1] = { 0 };
	struct halo_nl_link l = { 0 };
	const struct ifinfomsg *ifi;
	uint32_t v;
	int n;

	if (len >= NLMSG_HDRLEN && nlh->nlmsg_type != RTM_NEWLINK)
		return 0;
	nlh = msg_check(buf, len, RTM_NEWLINK, sizeof(*ifi));
	if (!nlh)
		return -EBADMSG;
	ifi = NLMSG_DATA(nlh);
	if (attrs_parse(nlh, sizeof(*ifi), tb, IFLA_MAX) < 0)
		return -EBADMSG;
	if (!tb[IFLA_IFNAME] || ifi->ifi_index <= 0)
		return -EBADMSG;
	n = nla_len(tb[IFLA_IFNAME]);
	/* One NUL, at the end: no empty or truncated names. */
	if (n < 2 || n > IF_NAMESIZE ||
	    strnlen(nla_data(tb[IFLA_IFNAME]), (size_t)n) != (size_t)n - 1)
		return -EBADMSG;
	memcpy(l.name, nla_data(tb[IFLA_IFNAME]), (size_t)n);
	l.ifindex = ifi->ifi_index;
	l.flags = ifi->ifi_flags;
	if (get_u32(tb[IFLA_MTU], &v))
		l.mtu = v;
	l.has_min_mtu = get_u32(tb[IFLA_MIN_MTU], &l.min_mtu);
	l.has_max_mtu = get_u32(tb[IFLA_MAX_MTU], &l.max_mtu);
	if (tb[IFLA_CARRIER] && nla_len(tb[IFLA_CARRIER]) >= 1)
		l.carrier = *(const uint8_t *)nla_data(tb[IFLA_CARRIER]) != 0;
	else
		l.carrier = -1;
	if (tb[IFLA_ADDRESS] && nla_len(tb[IFLA_ADDRESS]) <= HALO_NL_HWADDR_MAX) {
		l.mac_len = (size_t)nla_len(tb[IFLA_ADDRESS]);
		memcpy(l.mac, nla_data(tb[IFLA_ADDRESS]), l.mac_len);
	}
	if (tb[IFLA_PERM_ADDRESS] &&
	    nla_len(tb[IFLA_PERM_ADDRESS]) <= HALO_NL_HWADDR_MAX) {
		l.perm_mac_len = (size_t)nla_len(tb[IFLA_PERM_ADDRESS]);
		memcpy(l.perm_mac, nla_data(tb[IFLA_PERM_ADDRESS]), l.perm_mac_len);
	}
	*ret = l;
	return 1;
}

static void take_obj(struct nl_object *obj, void *arg)
{
	struct nl_object **ret = arg;

	if (!*ret) {
		nl_object_get(obj);
		*ret = obj;
	}
}

/* libnl-route's own parser for one rtnetlink message (whose header and
 * length msg_check accepted): its object (an rtnl_addr), or
 * -EBADMSG when libnl refuses it. The message is copied first: libnl
 * copies NLMSG_ALIGN(nlmsg_len), which may lie past the caller's buffer. */
static int rtnl_obj(const struct nlmsghdr *nlh, struct nl_object **ret)
{
	_cleanup_free_ void *copy = calloc(1, NLMSG_ALIGN(nlh->nlmsg_len));
	struct nl_msg *msg;
	int err;

	*ret = NULL;
	if (!copy)
		return -ENOMEM;
	memcpy(copy, nlh, nlh->nlmsg_len);
	msg = nlmsg_convert(copy);
	if (!msg)
		return -ENOMEM;
	nlmsg_set_proto(msg, NETLINK_ROUTE);
	err = nl_msg_parse(msg, take_obj, ret);
	nlmsg_free(msg);
	if (err < 0 || !*ret) {
		if (*ret)
			nl_object_put(*ret);
		*ret = NULL;
		return err == -NLE_NOMEM ? -ENOMEM : -EBADMSG;
	}
	return 0;
}

/* A full-length address of FAMILY from A into RET. */
static bool addr_of(struct nl_addr *a, int family, uint8_t *ret)
{
	unsigned want = family == AF_INET ? 4 : 16;

	if (!a || nl_addr_get_family(a) != family || nl_addr_get_len(a) != want)
		return false;
	memcpy(ret, nl_addr_get_binary_addr(a), want);
	return true;
}

int halo_nl_parse_addr(const void *buf, size_t len, struct halo_nl_addr *ret)
{
	const struct nlmsghdr *nlh = buf;
	struct halo_nl_addr a = { 0 };
	const struct ifaddrmsg *ifa;
	struct nl_object *obj;
	struct rtnl_addr *ra;
	int err;

	if (len >= NLMSG_HDRLEN && nlh->nlmsg_type != RTM_NEWADDR)
		return 0;
	nlh = msg_check(buf, len, RTM_NEWADDR, sizeof(*ifa));
	if (!nlh)
		return -EBADMSG;
	ifa = NLMSG_DATA(nlh);
	if (ifa->ifa_family != AF_INET && ifa->ifa_family != AF_INET6)
		return 0;
	if (ifa->ifa_prefixlen > max_prefix(ifa->ifa_family))
		return -EBADMSG;
	/* libnl makes up an address of zeros when the message has none. */
	if (!nlmsg_find_attr((struct nlmsghdr *)nlh, sizeof(*ifa), IFA_LOCAL) &&
	    !nlmsg_find_attr((struct nlmsghdr *)nlh, sizeof(*ifa), IFA_ADDRESS))
		return -EBADMSG;
	err = rtnl_obj(nlh, &obj);
	if (err < 0)
		return err;
	ra = (struct rtnl_addr *)obj;
	/* libnl's local address: IFA_LOCAL, or IFA_ADDRESS without it (IPv6
	 * sends only that; on point-to-point links IFA_ADDRESS is the peer). */
	if (!addr_of(rtnl_addr_get_local(ra), ifa->ifa_family, a.cidr.addr)) {
		nl_object_put(obj);
		return -EBADMSG;
	}
	a.cidr.family = ifa->ifa_family;
	a.cidr.prefixlen = ifa->ifa_prefixlen;
	a.ifindex = rtnl_addr_get_ifindex(ra);
	a.scope = (uint8_t)rtnl_addr_get_scope(ra);
	nl_object_put(obj);
	*ret = a;
	return 1;
}

/* Routes stay parsed here: libnl-route 3.7's parser walks RTA_MULTIPATH
 * without checking rtnh_len, so a next hop of length 0 makes it allocate
 * next hops until memory runs out (found by tests/fuzz/fuzz-netlink). */
int halo_nl_parse_route(const void *buf, size_t len, struct halo_nl_route *ret)
{
	const struct nlmsghdr *nlh = buf;
	struct nlattr *tb[RTA_MAX + 1] = { 0 };
	struct halo_nl_route r = { 0 };
	const struct rtmsg *rtm;
	uint32_t v;

	if (len >= NLMSG_HDRLEN && nlh->nlmsg_type != RTM_NEWROUTE)
		return 0;
	nlh = msg_check(buf, len, RTM_NEWROUTE, sizeof(*rtm));
	if (!nlh)
		return -EBADMSG;
	rtm = NLMSG_DATA(nlh);
	if (rtm->rtm_family != AF_INET && rtm->rtm_family != AF_INET6)
		return 0;
	if (rtm->rtm_dst_len > max_prefix(rtm->rtm_family))
		return -EBADMSG;
	if (attrs_parse(nlh, sizeof(*rtm), tb, RTA_MAX) < 0)
		return -EBADMSG;
	r.table = rtm->rtm_table;
	if (get_u32(tb[RTA_TABLE], &v))
		r.table = v;
	if (r.table != RT_TABLE_MAIN || rtm->rtm_type != RTN_UNICAST)
		return 0;
	r.type = rtm->rtm_type;
	r.dst.family = rtm->rtm_family;
	r.dst.prefixlen = rtm->rtm_dst_len;
	if (tb[RTA_DST] && !get_addr(tb[RTA_DST], rtm->rtm_family, r.dst.addr))
		return -EBADMSG;
	if (tb[RTA_GATEWAY]) {
		if (!get_addr(tb[RTA_GATEWAY], rtm->rtm_family, r.gateway.addr))
			return -EBADMSG;
		r.has_gateway = true;
		r.gateway.family = rtm->rtm_family;
		r.gateway.prefixlen = (uint8_t)max_prefix(rtm->rtm_family);
	}
	if (get_u32(tb[RTA_OIF], &v))
		r.oif = (int)v;
	get_u32(tb[RTA_PRIORITY], &r.priority);
	*ret = r;
	return 1;
}

/* ---- socket ---- */

int halo_nl_open(struct halo_ctx *ctx)
{
	struct halo_nl *nl;
	int err;

	if (ctx->nl)
		return 0;
	err = halo_netns_enter(ctx);
	if (err < 0)
		return err;
	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	err = halo_nlt_new(&ctx->netlink_requests, &nl->t);
	if (err < 0) {
		free(nl);
		return err;
	}
	ctx->nl = nl;
	return 0;
}

void halo_nl_close(struct halo_ctx *ctx)
{
	struct halo_nl *nl = ctx->nl;

	if (!nl)
		return;
	halo_nlt_free(nl->t);
	for (size_t k = 0; k < SNAP_N; k++)
		free(nl->snap[k].items);
	free(nl->names);
	free(nl->scope);
	free(nl);
	ctx->nl = NULL;
}

struct halo_nlt *halo_nl_transport(struct halo_ctx *ctx)
{
	return halo_nl_open(ctx) < 0 ? NULL : ctx->nl->t;
}

const char *halo_nl_last_extack(const struct halo_ctx *ctx)
{
	return ctx->nl ? halo_nlt_extack(ctx->nl->t) : NULL;
}

/* Sends MSG (freed) through the transport: counted, its reply read to
 * the ACK or the dump's end, each data message to FN. */
static int send_msg(struct halo_ctx *ctx, struct nl_msg *msg,
		    halo_nlt_msg_fn fn, void *userdata)
{
	int err = halo_nlt_request(ctx->nl->t, HALO_NLT_ROUTE, nlmsg_hdr(msg),
				   fn, userdata, NULL);

	nlmsg_free(msg);
	return err;
}

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

/* A request: TYPE with FLAGS, the family header HDR, and (links) the
 * IFLA_EXT_MASK that spares the kernel the statistics nobody reads. */
struct request {
	int type, flags;
	const void *hdr;
	size_t hdrlen;
	bool skip_stats;
	const char *ifname; /* RTM_GETLINK by name */
	const struct halo_cidr *dst; /* RTM_GETROUTE lookup */
};

static struct nl_msg *request_build(const struct request *rq)
{
	struct nl_msg *msg = nlmsg_alloc_simple(rq->type, rq->flags);

	if (!msg)
		return NULL;
	if (nlmsg_append(msg, (void *)rq->hdr, rq->hdrlen, NLMSG_ALIGNTO) < 0 ||
	    (rq->skip_stats &&
	     nla_put_u32(msg, IFLA_EXT_MASK, RTEXT_FILTER_SKIP_STATS) < 0) ||
	    (rq->ifname && nla_put_string(msg, IFLA_IFNAME, rq->ifname) < 0) ||
	    (rq->dst && nla_put(msg, RTA_DST, rq->dst->family == AF_INET ? 4 : 16,
				rq->dst->addr) < 0)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* Sends RQ and collects its replies into C (appended). A dump interrupted
 * because the kernel's tables changed under it is retried. */
static int request_collect(struct halo_ctx *ctx, const struct request *rq,
			   struct collect *c)
{
	size_t base = c->n;

	for (int attempt = 0; attempt < 3; attempt++) {
		struct nl_msg *msg = request_build(rq);
		int err;

		if (!msg)
			return -ENOMEM;
		c->n = base;
		err = send_msg(ctx, msg, collect_one, c);
		if (err == -EINTR && rq->flags == NLM_F_DUMP)
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
	struct halo_nl *nl = ctx->nl;
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct request rq = { .type = RTM_GETLINK, .flags = NLM_F_DUMP,
			      .hdr = &ifi, .hdrlen = sizeof(ifi),
			      .skip_stats = true };
	int err = 0;

	if (nl->scoped) {
		for (size_t i = 0; i < nl->n_scope && err >= 0; i++)
			err = link_get(ctx, nl->scope[i], NULL, c);
		return err;
	}
	if (nl->names) {
		for (size_t i = 0; i < nl->n_names && err >= 0; i++)
			err = link_get(ctx, 0, nl->names[i], c);
		return err;
	}
	return request_collect(ctx, &rq, c);
}

/* Addresses: of the managed links only once they are known, each dump
 * filtered by the kernel (NETLINK_GET_STRICT_CHK honours ifa_index). The
 * filter is applied here too, for kernels that ignore it. */
static int fill_addrs(struct halo_ctx *ctx, struct collect *c)
{
	struct halo_nl *nl = ctx->nl;
	struct ifaddrmsg ifa = { .ifa_family = AF_UNSPEC };
	struct request rq = { .type = RTM_GETADDR, .flags = NLM_F_DUMP,
			      .hdr = &ifa, .hdrlen = sizeof(ifa) };
	int err = 0;

	if (!nl->scoped)
		return request_collect(ctx, &rq, c);
	for (size_t i = 0; i < nl->n_scope && err >= 0; i++) {
		size_t base = c->n, keep = base;

		ifa.ifa_index = (uint32_t)nl->scope[i];
		err = request_collect(ctx, &rq, c);
		if (err == -ENODEV) /* gone since: no addresses */
			err = 0;
		for (size_t k = base; k < c->n; k++) {
			struct halo_nl_addr *a = (struct halo_nl_addr *)c->items + k;

			if (a->ifindex == nl->scope[i])
				((struct halo_nl_addr *)c->items)[keep++] = *a;
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
	struct request rq = { .type = RTM_GETROUTE, .flags = NLM_F_DUMP,
			      .hdr = &rtm, .hdrlen = sizeof(rtm) };

	return request_collect(ctx, &rq, c);
}

/* The snapshot of KIND, fetched when not loaded or stale. */
static int snapshot_get(struct halo_ctx *ctx, enum snap_kind kind,
			const void **ret, size_t *ret_n)
{
	static int (*const fill[SNAP_N])(struct halo_ctx *, struct collect *) = {
		[SNAP_LINKS] = fill_links,
		[SNAP_ADDRS] = fill_addrs,
		[SNAP_ROUTES] = fill_routes,
	};
	struct snapshot *snap;
	int err = halo_nl_open(ctx);

	if (err < 0)
		return err;
	snap = &ctx->nl->snap[kind];
	if (!snap->ok) {
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
	}
	*ret = snap->items;
	*ret_n = snap->n;
	return 0;
}

int halo_nl_scope_names(struct halo_ctx *ctx, const char *const *names, size_t n)
{
	struct halo_nl *nl;
	int err = halo_nl_open(ctx);

	if (err < 0)
		return err;
	nl = ctx->nl;
	free(nl->names);
	nl->names = calloc(n ? n : 1, sizeof(*nl->names));
	if (!nl->names)
		return -ENOMEM;
	nl->n_names = 0;
	for (size_t i = 0; i < n; i++) {
		if (strlen(names[i]) >= IF_NAMESIZE)
			continue; /* no link can have it */
		snprintf(nl->names[nl->n_names++], IF_NAMESIZE, "%s", names[i]);
	}
	nl->snap[SNAP_LINKS].ok = false;
	return 0;
}

int halo_nl_scope_ifindexes(struct halo_ctx *ctx, const int *ifindexes, size_t n)
{
	struct halo_nl *nl;
	int err = halo_nl_open(ctx);

	if (err < 0)
		return err;
	nl = ctx->nl;
	free(nl->scope);
	nl->scope = calloc(n ? n : 1, sizeof(*nl->scope));
	if (!nl->scope)
		return -ENOMEM;
	nl->n_scope = 0;
	for (size_t i = 0; i < n; i++) {
		bool dup = false;

		for (size_t k = 0; k < nl->n_scope; k++)
			dup = dup || nl->scope[k] == ifindexes[i];
		if (!dup)
			nl->scope[nl->n_scope++] = ifindexes[i];
	}
	nl->scoped = true;
	/* The link snapshot already holds the managed links; addresses are
	 * fetched for them alone from now on. */
	nl->snap[SNAP_ADDRS].ok = false;
	nl->snap[SNAP_ADDRS].loaded = false;
	return 0;
}

int halo_nl_link_name(struct halo_ctx *ctx, int ifindex, char name[IF_NAMESIZE])
{
	const struct halo_nl_link *links;
	struct collect c = { .size = sizeof(struct halo_nl_link),
			     .parse = snap_kinds[SNAP_LINKS].parse };
	size_t n;
	int err = halo_nl_links(ctx, &links, &n);

	if (err < 0)
		return err;
	for (size_t i = 0; i < n; i++) {
		if (links[i].ifindex == ifindex) {
			snprintf(name, IF_NAMESIZE, "%s", links[i].name);
			return 0;
		}
	}
	err = link_get(ctx, ifindex, NULL, &c);
	if (err == 0 && c.n == 0)
		err = -ENODEV;
	if (err == 0)
		snprintf(name, IF_NAMESIZE, "%s", ((struct halo_nl_link *)c.items)->name);
	free(c.items);
	return err;
}

/* The ifindex of a local route's device in a FIB-match reply. */
static int parse_local_any(const void *buf, size_t len, void *ret)
{
	const struct nlmsghdr *nlh = buf;
	struct nlattr *tb[RTA_MAX + 1] = { 0 };
	const struct rtmsg *rtm;
	uint32_t oif;

	if (len >= NLMSG_HDRLEN && nlh->nlmsg_type != RTM_NEWROUTE)
		return 0;
	nlh = msg_check(buf, len, RTM_NEWROUTE, sizeof(*rtm));
	if (!nlh)
		return -EBADMSG;
	rtm = NLMSG_DATA(nlh);
	if (attrs_parse(nlh, sizeof(*rtm), tb, RTA_MAX) < 0)
		return -EBADMSG;
	if (rtm->rtm_type != RTN_LOCAL || !get_u32(tb[RTA_OIF], &oif))
		return 0;
	*(int *)ret = (int)oif;
	return 1;
}

int halo_nl_addr_holder(struct halo_ctx *ctx, const struct halo_cidr *c,
			int *ret_ifindex)
{
	struct rtmsg rtm = {
		.rtm_family = (uint8_t)c->family,
		.rtm_dst_len = (uint8_t)max_prefix(c->family),
		.rtm_flags = RTM_F_FIB_MATCH,
	};
	struct request rq = { .type = RTM_GETROUTE, .hdr = &rtm,
			      .hdrlen = sizeof(rtm), .dst = c };
	struct collect col = { .size = sizeof(int), .parse = parse_local_any };
	int err = halo_nl_open(ctx);

	if (err < 0)
		return err;
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

int halo_nl_links(struct halo_ctx *ctx, const struct halo_nl_link **ret,
		  size_t *ret_n)
{
	return snapshot_get(ctx, SNAP_LINKS, (const void **)ret, ret_n);
}

int halo_nl_addrs(struct halo_ctx *ctx, const struct halo_nl_addr **ret,
		  size_t *ret_n)
{
	return snapshot_get(ctx, SNAP_ADDRS, (const void **)ret, ret_n);
}

int halo_nl_addrs_observed(struct halo_ctx *ctx, const struct halo_nl_addr **ret,
			   size_t *ret_n)
{
	struct snapshot *snap = ctx->nl ? &ctx->nl->snap[SNAP_ADDRS] : NULL;

	if (!snap || !snap->loaded)
		return halo_nl_addrs(ctx, ret, ret_n);
	*ret = snap->items;
	*ret_n = snap->n;
	return 0;
}

int halo_nl_routes(struct halo_ctx *ctx, const struct halo_nl_route **ret,
		   size_t *ret_n)
{
	return snapshot_get(ctx, SNAP_ROUTES, (const void **)ret, ret_n);
}

/* Sends a change request; the transport asks for and reads its ACK. */
static int change(struct halo_ctx *ctx, struct nl_msg *msg)
{
	return send_msg(ctx, msg, NULL, NULL);
}

static struct nl_msg *link_msg(int ifindex, unsigned flags, unsigned change_mask)
{
	struct ifinfomsg ifi = {
		.ifi_family = AF_UNSPEC,
		.ifi_index = ifindex,
		.ifi_flags = flags,
		.ifi_change = change_mask,
	};
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_NEWLINK, 0);

	if (msg && nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO) < 0) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

int halo_nl_set_mtu(struct halo_ctx *ctx, int ifindex, uint32_t mtu)
{
	struct nl_msg *msg;
	int err = halo_nl_open(ctx);

	if (err < 0)
		return err;
	msg = link_msg(ifindex, 0, 0);
	if (!msg || nla_put_u32(msg, IFLA_MTU, mtu) < 0) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	ctx->nl->snap[SNAP_LINKS].ok = false;
	return change(ctx, msg);
}

int halo_nl_set_up(struct halo_ctx *ctx, int ifindex)
{
	struct nl_msg *msg;
	int err = halo_nl_open(ctx);

	if (err < 0)
		return err;
	msg = link_msg(ifindex, IFF_UP, IFF_UP);
	if (!msg)
		return -ENOMEM;
	ctx->nl->snap[SNAP_LINKS].ok = false;
	return change(ctx, msg);
}

static int addr_change(struct halo_ctx *ctx, int type, int flags, int ifindex,
		       const struct halo_cidr *c)
{
	struct ifaddrmsg ifa = {
		.ifa_family = (uint8_t)c->family,
		.ifa_prefixlen = c->prefixlen,
		.ifa_scope = RT_SCOPE_UNIVERSE,
		.ifa_index = (uint32_t)ifindex,
	};
	int alen = c->family == AF_INET ? 4 : 16;
	struct nl_msg *msg;
	int err = halo_nl_open(ctx);

	if (err < 0)
		return err;
	msg = nlmsg_alloc_simple(type, flags);
	if (!msg)
		return -ENOMEM;
	if (nlmsg_append(msg, &ifa, sizeof(ifa), NLMSG_ALIGNTO) < 0 ||
	    nla_put(msg, IFA_LOCAL, alen, c->addr) < 0 ||
	    nla_put(msg, IFA_ADDRESS, alen, c->addr) < 0) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	/* The broadcast address, as networkd and NetworkManager set it (a
	 * bare `ip addr add` leaves it 0.0.0.0); none on /31 and /32. */
	if (type == RTM_NEWADDR && c->family == AF_INET && c->prefixlen < 31) {
		uint8_t brd[4];

		for (int i = 0; i < 4; i++) {
			int bits = (int)c->prefixlen - 8 * i;
			uint8_t host = bits >= 8 ? 0 : bits <= 0 ? 0xff : (uint8_t)(0xff >> bits);

			brd[i] = c->addr[i] | host;
		}
		if (nla_put(msg, IFA_BROADCAST, 4, brd) < 0) {
			nlmsg_free(msg);
			return -ENOMEM;
		}
	}
	ctx->nl->snap[SNAP_ADDRS].ok = false;
	/* Addresses bring connected routes with them. */
	ctx->nl->snap[SNAP_ROUTES].ok = false;
	return change(ctx, msg);
}

int halo_nl_addr_add(struct halo_ctx *ctx, int ifindex, const struct halo_cidr *c)
{
	return addr_change(ctx, RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL, ifindex, c);
}

int halo_nl_addr_del(struct halo_ctx *ctx, int ifindex, const struct halo_cidr *c)
{
	return addr_change(ctx, RTM_DELADDR, 0, ifindex, c);
}

int halo_nl_route_replace(struct halo_ctx *ctx, int ifindex,
			  const struct halo_cidr *dst,
			  const struct halo_cidr *gateway, uint32_t priority)
{
	struct rtmsg rtm = {
		.rtm_family = (uint8_t)dst->family,
		.rtm_dst_len = dst->prefixlen,
		.rtm_table = RT_TABLE_MAIN,
		.rtm_protocol = RTPROT_STATIC,
		.rtm_scope = gateway ? RT_SCOPE_UNIVERSE : RT_SCOPE_LINK,
		.rtm_type = RTN_UNICAST,
	};
	int alen = dst->family == AF_INET ? 4 : 16;
	struct nl_msg *msg;
	int err = halo_nl_open(ctx);

	if (err < 0)
		return err;
	msg = nlmsg_alloc_simple(RTM_NEWROUTE, NLM_F_CREATE | NLM_F_REPLACE);
	if (!msg)
		return -ENOMEM;
	if (nlmsg_append(msg, &rtm, sizeof(rtm), NLMSG_ALIGNTO) < 0 ||
	    (dst->prefixlen && nla_put(msg, RTA_DST, alen, dst->addr) < 0) ||
	    (gateway && nla_put(msg, RTA_GATEWAY, alen, gateway->addr) < 0) ||
	    nla_put_u32(msg, RTA_OIF, (uint32_t)ifindex) < 0 ||
	    (priority && nla_put_u32(msg, RTA_PRIORITY, priority) < 0)) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	ctx->nl->snap[SNAP_ROUTES].ok = false;
	return change(ctx, msg);
}
