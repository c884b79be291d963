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
#include <netlink/route/link.h>
#include <netlink/route/nexthop.h>
#include <netlink/route/route.h>

#include "links/nl.h"
#include "netlink/context.h"
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
	struct halo_nlt *t; /* the run's transport (ctx->nlt) */
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

static int max_prefix(int family)
{
	return family == AF_INET ? 32 : 128;
}

static void take_obj(struct nl_object *obj, void *arg)
{
	struct nl_object **ret = arg;

	if (!*ret) {
		nl_object_get(obj);
		*ret = obj;
	}
}

/* Zeroed room after the copy of a message. Some of libnl-route's parsers
 * read attributes no policy checks (IFLA_LINK_NETNSID, RTA_TABLE, a kind's
 * own data) with nla_get_u32/_u64 whatever their length: a short one at
 * the end then reads this, not past the allocation. */
#define PARSE_SLACK 256

/* Hides from libnl the link attributes nothing here reads and whose
 * parsers are its riskiest: a kind's own data (IFLA_INFO_DATA, _XSTATS,
 * _SLAVE_DATA: libnl 3.7's veth parser dereferences NULL on a
 * VETH_INFO_PEER) and the SR-IOV VF list. Retyped to UNSPEC in our copy,
 * they are skipped; IFLA_INFO_KIND is kept. */
static void link_hide_unread(struct nlmsghdr *nlh)
{
	struct nlattr *a, *i;
	int rem, irem;

	nlmsg_for_each_attr(a, nlh, sizeof(struct ifinfomsg), rem) {
		if (nla_type(a) == IFLA_VFINFO_LIST)
			a->nla_type = IFLA_UNSPEC;
		if (nla_type(a) != IFLA_LINKINFO)
			continue;
		nla_for_each_nested(i, a, irem) {
			if (nla_type(i) == IFLA_INFO_DATA ||
			    nla_type(i) == IFLA_INFO_XSTATS ||
			    nla_type(i) == IFLA_INFO_SLAVE_DATA)
				i->nla_type = IFLA_INFO_UNSPEC;
		}
	}
}

/* libnl-route's own parser for one rtnetlink message (whose header and
 * length msg_check accepted): its object (rtnl_link, rtnl_addr or
 * rtnl_route), or -EBADMSG when libnl refuses the message. */
static int rtnl_obj(const struct nlmsghdr *nlh, struct nl_object **ret)
{
	struct nl_msg *msg;
	int err;

	*ret = NULL;
	msg = nlmsg_alloc_size(NLMSG_ALIGN(nlh->nlmsg_len) + PARSE_SLACK);
	if (!msg)
		return -ENOMEM;
	/* nlmsg_alloc_size zeroes its buffer, which now holds the message. */
	memcpy(nlmsg_hdr(msg), nlh, nlh->nlmsg_len);
	if (nlh->nlmsg_type == RTM_NEWLINK)
		link_hide_unread(nlmsg_hdr(msg));
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

/* Attribute NAME among those libnl says OBJ has (its comma-separated list):
 * libnl-route has no "is it set" getter for IFLA_CARRIER, whose absence
 * means "unknown", not "no carrier". */
static bool obj_has(struct nl_object *obj, const char *name)
{
	char list[1024];
	size_t n = strlen(name);

	nl_object_attr_list(obj, list, sizeof(list));
	for (const char *p = list; (p = strstr(p, name)); p += n) {
		if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
			return true;
	}
	return false;
}

/* A u32 attribute read by hand (see link_by_hand). */
static bool find_u32(const struct nlmsghdr *nlh, size_t hdrlen, int type,
		     uint32_t *ret)
{
	struct nlattr *a = nlmsg_find_attr((struct nlmsghdr *)nlh, (int)hdrlen, type);

	if (!a || nla_len(a) < 4)
		return false;
	*ret = nla_get_u32(a);
	return true;
}

/* The only link attributes still read by hand: libnl-route 3.7 parses
 * none of IFLA_MIN_MTU, IFLA_MAX_MTU (4.19) and IFLA_PERM_ADDRESS (5.6) and
 * has no getter for them. The attribute stream was walked by libnl first. */
static void link_by_hand(const struct nlmsghdr *nlh, struct halo_nl_link *l)
{
	size_t hdrlen = sizeof(struct ifinfomsg);
	struct nlattr *perm;

	l->has_min_mtu = find_u32(nlh, hdrlen, IFLA_MIN_MTU, &l->min_mtu);
	l->has_max_mtu = find_u32(nlh, hdrlen, IFLA_MAX_MTU, &l->max_mtu);
	perm = nlmsg_find_attr((struct nlmsghdr *)nlh, (int)hdrlen, IFLA_PERM_ADDRESS);
	if (perm && nla_len(perm) <= HALO_NL_HWADDR_MAX) {
		l->perm_mac_len = (size_t)nla_len(perm);
		memcpy(l->perm_mac, nla_data(perm), l->perm_mac_len);
	}
}

int halo_nl_parse_link(const void *buf, size_t len, struct halo_nl_link *ret)
{
	const struct nlmsghdr *nlh = buf;
	struct halo_nl_link l = { 0 };
	struct nl_object *obj;
	struct rtnl_link *link;
	struct nl_addr *mac;
	const char *name, *kind;
	int err;

	if (len >= NLMSG_HDRLEN && nlh->nlmsg_type != RTM_NEWLINK)
		return 0;
	nlh = msg_check(buf, len, RTM_NEWLINK, sizeof(struct ifinfomsg));
	if (!nlh)
		return -EBADMSG;
	err = rtnl_obj(nlh, &obj);
	if (err < 0)
		return err;
	link = (struct rtnl_link *)obj;
	/* libnl checked IFLA_IFNAME: present, NUL-terminated, IFNAMSIZ. */
	name = rtnl_link_get_name(link);
	if (!name || !name[0] || rtnl_link_get_ifindex(link) <= 0) {
		nl_object_put(obj);
		return -EBADMSG;
	}
	snprintf(l.name, sizeof(l.name), "%s", name);
	l.ifindex = rtnl_link_get_ifindex(link);
	l.flags = rtnl_link_get_flags(link);
	l.mtu = rtnl_link_get_mtu(link);
	l.carrier = obj_has(obj, "carrier") ? rtnl_link_get_carrier(link) != 0 : -1;
	mac = rtnl_link_get_addr(link);
	if (mac && nl_addr_get_len(mac) <= HALO_NL_HWADDR_MAX) {
		l.mac_len = nl_addr_get_len(mac);
		memcpy(l.mac, nl_addr_get_binary_addr(mac), l.mac_len);
	}
	/* IFLA_INFO_KIND; a kind too long to keep is left unknown rather
	 * than cut (it stands in for a driver name when matching). */
	kind = rtnl_link_get_type(link);
	if (kind && strlen(kind) < sizeof(l.kind))
		snprintf(l.kind, sizeof(l.kind), "%s", kind);
	nl_object_put(obj);
	link_by_hand(nlh, &l);
	*ret = l;
	return 1;
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

/* What libnl-route 3.7's route parser must not be given (found by
 * tests/fuzz/fuzz-netlink): an RTA_MULTIPATH next hop of rtnh_len 0
 * never advances its walk, so it allocates next hops until memory runs
 * out; one whose aligned length passes the attribute's end makes the
 * remaining length wrap, and the walk goes on past it; an RTA_VIA shorter than its family field makes a negative length
 * that wraps in nl_addr_build. The kernel sends neither. */
static bool route_libnl_safe(const struct nlmsghdr *nlh)
{
	struct nlattr *tb[RTA_MAX + 1] = { 0 };
	const size_t via_min = offsetof(struct rtvia, rtvia_addr);
	const struct rtnexthop *rtnh;
	size_t rest;

	if (nlmsg_parse((struct nlmsghdr *)nlh, sizeof(struct rtmsg), tb, RTA_MAX,
			NULL) < 0)
		return false;
	if (tb[RTA_VIA] && (size_t)nla_len(tb[RTA_VIA]) < via_min)
		return false;
	if (!tb[RTA_MULTIPATH])
		return true;
	/* The walk of libnl's parse_multipath, each hop checked. */
	rtnh = nla_data(tb[RTA_MULTIPATH]);
	rest = (size_t)nla_len(tb[RTA_MULTIPATH]);
	while (rest >= sizeof(*rtnh) && rest >= rtnh->rtnh_len) {
		struct nlattr *ntb[RTA_MAX + 1] = { 0 };

		if (rtnh->rtnh_len < sizeof(*rtnh))
			return false;
		if (nla_parse(ntb, RTA_MAX, (struct nlattr *)RTNH_DATA(rtnh),
			      (int)(rtnh->rtnh_len - sizeof(*rtnh)), NULL) < 0)
			return false;
		if (ntb[RTA_VIA] && (size_t)nla_len(ntb[RTA_VIA]) < via_min)
			return false;
		/* libnl's size_t would wrap below zero and walk on. */
		if ((size_t)RTNH_ALIGN(rtnh->rtnh_len) > rest)
			return false;
		rest -= (size_t)RTNH_ALIGN(rtnh->rtnh_len);
		rtnh = RTNH_NEXT(rtnh);
	}
	return true;
}

int halo_nl_parse_route(const void *buf, size_t len, struct halo_nl_route *ret)
{
	const struct nlmsghdr *nlh = buf;
	struct halo_nl_route r = { 0 };
	const struct rtmsg *rtm;
	struct nl_object *obj;
	struct rtnl_route *route;
	struct nl_addr *dst;
	int err;

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
	if (!route_libnl_safe(nlh))
		return -EBADMSG;
	err = rtnl_obj(nlh, &obj);
	if (err < 0)
		return err;
	route = (struct rtnl_route *)obj;
	/* RTA_TABLE when there is one, else rtm_table. */
	r.table = rtnl_route_get_table(route);
	if (r.table != RT_TABLE_MAIN || rtnl_route_get_type(route) != RTN_UNICAST) {
		nl_object_put(obj);
		return 0;
	}
	r.type = RTN_UNICAST;
	r.dst.family = rtm->rtm_family;
	r.dst.prefixlen = rtm->rtm_dst_len;
	/* No RTA_DST: libnl's empty address (the default route). */
	dst = rtnl_route_get_dst(route);
	err = -EBADMSG;
	if (dst && nl_addr_get_len(dst) && !addr_of(dst, rtm->rtm_family, r.dst.addr))
		goto out;
	/* One next hop: RTA_OIF and RTA_GATEWAY. A multipath route has no
	 * single device or gateway: neither is set, as the kernel's message
	 * has neither at its top level. */
	if (rtnl_route_get_nnexthops(route) == 1) {
		struct rtnl_nexthop *nh = rtnl_route_nexthop_n(route, 0);
		struct nl_addr *gw = rtnl_route_nh_get_gateway(nh);

		if (gw) {
			if (!addr_of(gw, rtm->rtm_family, r.gateway.addr))
				goto out;
			r.has_gateway = true;
			r.gateway.family = rtm->rtm_family;
			r.gateway.prefixlen = (uint8_t)max_prefix(rtm->rtm_family);
		}
		r.oif = rtnl_route_nh_get_ifindex(nh);
	}
	r.priority = rtnl_route_get_priority(route);
	*ret = r;
	err = 1;
out:
	nl_object_put(obj);
	return err;
}

/* ---- socket ---- */

int halo_nl_open(struct halo_ctx *ctx)
{
	struct halo_nl *nl;
	int err;

	if (ctx->nl)
		return 0;
	/* main has entered --netns before anything was opened (host/). */
	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	err = halo_netlink_transport(ctx, &nl->t);
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
	for (size_t k = 0; k < SNAP_N; k++)
		free(nl->snap[k].items);
	free(nl->names);
	free(nl->scope);
	free(nl);
	ctx->nl = NULL;
}

void halo_nl_unscope(struct halo_ctx *ctx)
{
	struct halo_nl *nl = ctx->nl;

	if (!nl)
		return;
	free(nl->names);
	nl->names = NULL;
	nl->n_names = 0;
	free(nl->scope);
	nl->scope = NULL;
	nl->n_scope = 0;
	nl->scoped = false;
	for (size_t k = 0; k < SNAP_N; k++)
		nl->snap[k].ok = nl->snap[k].loaded = false;
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
	const struct rtmsg *rtm;
	struct nl_object *obj;
	struct rtnl_route *route;
	int r = 0, err;

	if (len >= NLMSG_HDRLEN && nlh->nlmsg_type != RTM_NEWROUTE)
		return 0;
	nlh = msg_check(buf, len, RTM_NEWROUTE, sizeof(*rtm));
	if (!nlh)
		return -EBADMSG;
	rtm = NLMSG_DATA(nlh);
	if (rtm->rtm_type != RTN_LOCAL ||
	    (rtm->rtm_family != AF_INET && rtm->rtm_family != AF_INET6))
		return 0;
	if (!route_libnl_safe(nlh))
		return -EBADMSG;
	err = rtnl_obj(nlh, &obj);
	if (err < 0)
		return err;
	route = (struct rtnl_route *)obj;
	if (rtnl_route_get_nnexthops(route) == 1 &&
	    rtnl_route_nh_get_ifindex(rtnl_route_nexthop_n(route, 0)) > 0) {
		*(int *)ret = rtnl_route_nh_get_ifindex(rtnl_route_nexthop_n(route, 0));
		r = 1;
	}
	nl_object_put(obj);
	return r;
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

/* Sends a change request built by libnl-route; the transport asks for and
 * reads its ACK. ERR: the builder's libnl error, if it failed. */
static int change(struct halo_ctx *ctx, int err, struct nl_msg *msg)
{
	if (err < 0 || !msg) {
		nlmsg_free(msg);
		return err == -NLE_NOMEM || err == 0 ? -ENOMEM : -EINVAL;
	}
	return send_msg(ctx, msg, NULL, NULL);
}

/* An nl_addr of C's address and prefix length (the default route's
 * destination: an empty address, so no RTA_DST is sent). */
static struct nl_addr *cidr_addr(const struct halo_cidr *c, bool empty_default)
{
	struct nl_addr *a;

	if (empty_default && c->prefixlen == 0) {
		a = nl_addr_alloc(0);
		if (a)
			nl_addr_set_family(a, c->family);
		return a;
	}
	a = nl_addr_build(c->family, c->addr, c->family == AF_INET ? 4 : 16);
	if (a)
		nl_addr_set_prefixlen(a, c->prefixlen);
	return a;
}

/* RTM_NEWLINK for IFINDEX with CHANGES (rtnl_link_build_change_request:
 * ORIG names the link by its index alone). */
static int link_change(struct halo_ctx *ctx, int ifindex,
		       struct rtnl_link *changes)
{
	struct rtnl_link *orig = rtnl_link_alloc();
	struct nl_msg *msg = NULL;
	int err;

	if (!orig)
		return -ENOMEM;
	rtnl_link_set_ifindex(orig, ifindex);
	err = rtnl_link_build_change_request(orig, changes, 0, &msg);
	rtnl_link_put(orig);
	ctx->nl->snap[SNAP_LINKS].ok = false;
	return change(ctx, err, msg);
}

int halo_nl_set_mtu(struct halo_ctx *ctx, int ifindex, uint32_t mtu)
{
	struct rtnl_link *changes;
	int err = halo_nl_open(ctx);

	if (err < 0)
		return err;
	changes = rtnl_link_alloc();
	if (!changes)
		return -ENOMEM;
	rtnl_link_set_mtu(changes, mtu);
	err = link_change(ctx, ifindex, changes);
	rtnl_link_put(changes);
	return err;
}

int halo_nl_set_up(struct halo_ctx *ctx, int ifindex)
{
	struct rtnl_link *changes;
	int err = halo_nl_open(ctx);

	if (err < 0)
		return err;
	changes = rtnl_link_alloc();
	if (!changes)
		return -ENOMEM;
	rtnl_link_set_flags(changes, IFF_UP);
	err = link_change(ctx, ifindex, changes);
	rtnl_link_put(changes);
	return err;
}

/* The broadcast address of an IPv4 C, as networkd and NetworkManager set
 * it (a bare `ip addr add` leaves it 0.0.0.0). */
static void broadcast_of(const struct halo_cidr *c, uint8_t brd[4])
{
	for (int i = 0; i < 4; i++) {
		int bits = (int)c->prefixlen - 8 * i;
		uint8_t host = bits >= 8 ? 0 : bits <= 0 ? 0xff : (uint8_t)(0xff >> bits);

		brd[i] = c->addr[i] | host;
	}
}

/* The rtnl_addr of C on IFINDEX: IFA_LOCAL (IFA_ADDRESS the same, as libnl
 * sends it without a peer), scope universe; with ADD, the broadcast
 * address too (none on /31 and /32). */
static int addr_obj(int ifindex, const struct halo_cidr *c, bool add,
		    struct rtnl_addr **ret)
{
	struct rtnl_addr *ra = rtnl_addr_alloc();
	struct nl_addr *local = cidr_addr(c, false), *brd = NULL;
	int err = ra && local ? 0 : -ENOMEM;

	if (err == 0) {
		rtnl_addr_set_ifindex(ra, ifindex);
		rtnl_addr_set_family(ra, c->family);
		rtnl_addr_set_scope(ra, RT_SCOPE_UNIVERSE);
		/* Sets the prefix length from LOCAL's. */
		if (rtnl_addr_set_local(ra, local) < 0)
			err = -EINVAL;
	}
	if (err == 0 && add && c->family == AF_INET && c->prefixlen < 31) {
		uint8_t b[4];

		broadcast_of(c, b);
		brd = nl_addr_build(AF_INET, b, 4);
		if (!brd || rtnl_addr_set_broadcast(ra, brd) < 0)
			err = brd ? -EINVAL : -ENOMEM;
	}
	nl_addr_put(local);
	nl_addr_put(brd);
	if (err < 0) {
		rtnl_addr_put(ra);
		return err;
	}
	*ret = ra;
	return 0;
}

static int addr_change(struct halo_ctx *ctx, bool add, int ifindex,
		       const struct halo_cidr *c)
{
	struct rtnl_addr *ra;
	struct nl_msg *msg = NULL;
	int err = halo_nl_open(ctx);

	if (err < 0)
		return err;
	err = addr_obj(ifindex, c, add, &ra);
	if (err < 0)
		return err;
	/* The add builder adds NLM_F_CREATE. */
	err = add ? rtnl_addr_build_add_request(ra, NLM_F_EXCL, &msg)
		  : rtnl_addr_build_delete_request(ra, 0, &msg);
	rtnl_addr_put(ra);
	ctx->nl->snap[SNAP_ADDRS].ok = false;
	/* Addresses bring connected routes with them. */
	ctx->nl->snap[SNAP_ROUTES].ok = false;
	return change(ctx, err, msg);
}

int halo_nl_addr_add(struct halo_ctx *ctx, int ifindex, const struct halo_cidr *c)
{
	return addr_change(ctx, true, ifindex, c);
}

int halo_nl_addr_del(struct halo_ctx *ctx, int ifindex, const struct halo_cidr *c)
{
	return addr_change(ctx, false, ifindex, c);
}

/* The main-table unicast route to DST through IFINDEX (and GATEWAY):
 * protocol static, scope link without a gateway. */
static int route_obj(int ifindex, const struct halo_cidr *dst,
		     const struct halo_cidr *gateway, uint32_t priority,
		     struct rtnl_route **ret)
{
	struct rtnl_route *route = rtnl_route_alloc();
	struct rtnl_nexthop *nh = rtnl_route_nh_alloc();
	struct nl_addr *d = cidr_addr(dst, true), *gw = NULL;
	int err = route && nh && d ? 0 : -ENOMEM;

	if (err == 0 && gateway) {
		gw = cidr_addr(gateway, false);
		err = gw ? 0 : -ENOMEM;
	}
	if (err == 0) {
		rtnl_route_set_family(route, dst->family);
		rtnl_route_set_table(route, RT_TABLE_MAIN);
		rtnl_route_set_protocol(route, RTPROT_STATIC);
		rtnl_route_set_type(route, RTN_UNICAST);
		rtnl_route_set_scope(route, gateway ? RT_SCOPE_UNIVERSE : RT_SCOPE_LINK);
		if (priority)
			rtnl_route_set_priority(route, priority);
		if (rtnl_route_set_dst(route, d) < 0)
			err = -EINVAL;
	}
	if (err == 0) {
		rtnl_route_nh_set_ifindex(nh, ifindex);
		if (gw)
			rtnl_route_nh_set_gateway(nh, gw);
		rtnl_route_add_nexthop(route, nh); /* the route owns it now */
		nh = NULL;
	}
	nl_addr_put(d);
	nl_addr_put(gw);
	if (nh)
		rtnl_route_nh_free(nh);
	if (err < 0) {
		rtnl_route_put(route);
		return err;
	}
	*ret = route;
	return 0;
}

int halo_nl_route_replace(struct halo_ctx *ctx, int ifindex,
			  const struct halo_cidr *dst,
			  const struct halo_cidr *gateway, uint32_t priority)
{
	struct rtnl_route *route;
	struct nl_msg *msg = NULL;
	int err = halo_nl_open(ctx);

	if (err < 0)
		return err;
	err = route_obj(ifindex, dst, gateway, priority, &route);
	if (err < 0)
		return err;
	/* The add builder adds NLM_F_CREATE. */
	err = rtnl_route_build_add_request(route, NLM_F_REPLACE, &msg);
	rtnl_route_put(route);
	ctx->nl->snap[SNAP_ROUTES].ok = false;
	return change(ctx, err, msg);
}
