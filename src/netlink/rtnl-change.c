/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtnl-change.c: the changes the links subsystem makes, as the kernel
 * reads them: RTM_NEWLINK (net/core/rtnetlink.c, rtnl_newlink: ifi_index
 * names the link, IFLA_MTU, ifi_flags under ifi_change), RTM_NEWADDR and
 * RTM_DELADDR (net/ipv4/devinet.c inet_rtm_newaddr, net/ipv6/addrconf.c
 * inet6_rtm_newaddr), RTM_NEWROUTE (net/ipv4/fib_frontend.c
 * rtm_to_fib_config). Each is built in a caller's buffer (pure, tested
 * byte for byte), sent through the run's transport and acknowledged; the
 * snapshot it changes is marked stale.
 */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <sys/socket.h>

#include "netlink/request.h"
#include "netlink/rtnl-int.h"
#include "netlink/rtnl.h"

static bool family_ok(const struct halo_cidr *c)
{
	return c->family == AF_INET || c->family == AF_INET6;
}

static size_t addr_len(const struct halo_cidr *c)
{
	return c->family == AF_INET ? 4 : 16;
}

/* RTM_NEWLINK of IFINDEX (named by its index alone): IFLA_MTU when MTU,
 * IFF_UP when UP (only the bits in ifi_change change: dev_change_flags). */
static int link_req(void *buf, size_t size, int ifindex, const uint32_t *mtu,
		    bool up, struct nlmsghdr **ret_nlh)
{
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifi;
	void *hdr;
	int err;

	if (ifindex <= 0)
		return -EINVAL;
	err = halo_req_start(buf, size, RTM_NEWLINK, sizeof(*ifi), &nlh, &hdr);
	if (err < 0)
		return err;
	ifi = hdr;
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	if (up) {
		ifi->ifi_flags = IFF_UP;
		ifi->ifi_change = IFF_UP;
	}
	if (mtu && !mnl_attr_put_u32_check(nlh, size, IFLA_MTU, *mtu))
		return -EMSGSIZE;
	*ret_nlh = nlh;
	return 0;
}

int halo_rtnl_req_mtu(void *buf, size_t size, int ifindex, uint32_t mtu,
		      struct nlmsghdr **ret_nlh)
{
	return link_req(buf, size, ifindex, &mtu, false, ret_nlh);
}

int halo_rtnl_req_up(void *buf, size_t size, int ifindex,
		     struct nlmsghdr **ret_nlh)
{
	return link_req(buf, size, ifindex, NULL, true, ret_nlh);
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

/* RTM_NEWADDR or RTM_DELADDR of C, IFA_ADDRESS holding ADDRESS (C's own,
 * or an IPv4 peer's). */
static int req_addr(void *buf, size_t size, bool add, int ifindex, const struct halo_cidr *c,
		    const uint8_t *address, struct nlmsghdr **ret_nlh)
{
	struct nlmsghdr *nlh;
	struct ifaddrmsg *ifa;
	void *hdr;
	int err;

	if (ifindex <= 0 || !family_ok(c) || c->prefixlen > 8 * addr_len(c))
		return -EINVAL;
	err = halo_req_start(buf, size, add ? RTM_NEWADDR : RTM_DELADDR,
			     sizeof(*ifa), &nlh, &hdr);
	if (err < 0)
		return err;
	/* An address already there is -EEXIST, never a silent replace. */
	if (add)
		nlh->nlmsg_flags |= NLM_F_CREATE | NLM_F_EXCL;
	ifa = hdr;
	ifa->ifa_family = (uint8_t)c->family;
	ifa->ifa_prefixlen = c->prefixlen;
	ifa->ifa_scope = RT_SCOPE_UNIVERSE;
	ifa->ifa_index = (uint32_t)ifindex;
	if (!mnl_attr_put_check(nlh, size, IFA_LOCAL, addr_len(c), c->addr) ||
	    !mnl_attr_put_check(nlh, size, IFA_ADDRESS, addr_len(c), address))
		return -EMSGSIZE;
	if (add && c->family == AF_INET && c->prefixlen < 31) {
		uint8_t brd[4];

		broadcast_of(c, brd);
		if (!mnl_attr_put_check(nlh, size, IFA_BROADCAST, sizeof(brd), brd))
			return -EMSGSIZE;
	}
	*ret_nlh = nlh;
	return 0;
}

int halo_rtnl_req_route(void *buf, size_t size, int ifindex,
			const struct halo_cidr *dst,
			const struct halo_cidr *gateway, uint32_t priority,
			struct nlmsghdr **ret_nlh)
{
	struct nlmsghdr *nlh;
	struct rtmsg *rtm;
	void *hdr;
	int err;

	if (ifindex <= 0 || !family_ok(dst) || dst->prefixlen > 8 * addr_len(dst) ||
	    (gateway && gateway->family != dst->family))
		return -EINVAL;
	err = halo_req_start(buf, size, RTM_NEWROUTE, sizeof(*rtm), &nlh, &hdr);
	if (err < 0)
		return err;
	nlh->nlmsg_flags |= NLM_F_CREATE | NLM_F_REPLACE;
	rtm = hdr;
	rtm->rtm_family = (uint8_t)dst->family;
	rtm->rtm_dst_len = dst->prefixlen;
	rtm->rtm_table = RT_TABLE_MAIN;
	rtm->rtm_protocol = RTPROT_STATIC;
	/* A route through a gateway reaches past the link. */
	rtm->rtm_scope = gateway ? RT_SCOPE_UNIVERSE : RT_SCOPE_LINK;
	rtm->rtm_type = RTN_UNICAST;
	if (!mnl_attr_put_u32_check(nlh, size, RTA_TABLE, RT_TABLE_MAIN) ||
	    (dst->prefixlen &&
	     !mnl_attr_put_check(nlh, size, RTA_DST, addr_len(dst), dst->addr)) ||
	    (priority && !mnl_attr_put_u32_check(nlh, size, RTA_PRIORITY, priority)) ||
	    (gateway &&
	     !mnl_attr_put_check(nlh, size, RTA_GATEWAY, addr_len(gateway), gateway->addr)) ||
	    !mnl_attr_put_u32_check(nlh, size, RTA_OIF, (uint32_t)ifindex))
		return -EMSGSIZE;
	*ret_nlh = nlh;
	return 0;
}

int halo_rtnl_req_addr(void *buf, size_t size, bool add, int ifindex,
		       const struct halo_cidr *c, struct nlmsghdr **ret_nlh)
{
	/* No peer: IFA_ADDRESS is the local address too. */
	return req_addr(buf, size, add, ifindex, c, c->addr, ret_nlh);
}

int halo_rtnl_req_addr_del(void *buf, size_t size, const struct halo_rtnl_addr *a,
			   struct nlmsghdr **ret_nlh)
{
	if (a->has_peer && a->cidr.family != AF_INET)
		return -EINVAL;
	return req_addr(buf, size, false, a->ifindex, &a->cidr,
			a->has_peer ? a->peer : a->cidr.addr, ret_nlh);
}

int halo_rtnl_req_route_del(void *buf, size_t size, const struct halo_rtnl_route *r,
			    struct nlmsghdr **ret_nlh)
{
	struct nlmsghdr *nlh;
	struct rtmsg *rtm;
	void *hdr;
	int err;

	if (r->oif <= 0 || !family_ok(&r->dst) || r->dst.prefixlen > 8 * addr_len(&r->dst) ||
	    (r->has_gateway && r->gateway.family != r->dst.family))
		return -EINVAL;
	err = halo_req_start(buf, size, RTM_DELROUTE, sizeof(*rtm), &nlh, &hdr);
	if (err < 0)
		return err;
	rtm = hdr;
	rtm->rtm_family = (uint8_t)r->dst.family;
	rtm->rtm_dst_len = r->dst.prefixlen;
	rtm->rtm_table = RT_TABLE_MAIN;
	/* Any scope (net/ipv4/fib_trie.c fib_table_delete); the metric,
	 * gateway and link single the route out (fib_nh_match, and IPv6's
	 * ip6_route_del). */
	rtm->rtm_scope = RT_SCOPE_NOWHERE;
	if (!mnl_attr_put_u32_check(nlh, size, RTA_TABLE, RT_TABLE_MAIN) ||
	    (r->dst.prefixlen &&
	     !mnl_attr_put_check(nlh, size, RTA_DST, addr_len(&r->dst), r->dst.addr)) ||
	    (r->priority && !mnl_attr_put_u32_check(nlh, size, RTA_PRIORITY, r->priority)) ||
	    (r->has_gateway &&
	     !mnl_attr_put_check(nlh, size, RTA_GATEWAY, addr_len(&r->gateway), r->gateway.addr)) ||
	    !mnl_attr_put_u32_check(nlh, size, RTA_OIF, (uint32_t)r->oif))
		return -EMSGSIZE;
	*ret_nlh = nlh;
	return 0;
}

/* Sends the request built into BUF (BUILT: the builder's return), after
 * marking the snapshots it changes stale. */
static int change(struct halo_ctx *ctx, int built, struct nlmsghdr *nlh,
		  enum halo_rtnl_snap stale, bool routes_too)
{
	if (built < 0)
		return built;
	halo_rtnl_stale(ctx, stale);
	if (routes_too)
		halo_rtnl_stale(ctx, HALO_RTNL_SNAP_ROUTES);
	return halo_rtnl_send(ctx, nlh, NULL, NULL);
}

int halo_rtnl_set_mtu(struct halo_ctx *ctx, int ifindex, uint32_t mtu)
{
	char buf[HALO_RTNL_REQ_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = NULL;
	int err = halo_rtnl_req_mtu(buf, sizeof(buf), ifindex, mtu, &nlh);

	return change(ctx, err, nlh, HALO_RTNL_SNAP_LINKS, false);
}

int halo_rtnl_set_up(struct halo_ctx *ctx, int ifindex)
{
	char buf[HALO_RTNL_REQ_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = NULL;
	int err = halo_rtnl_req_up(buf, sizeof(buf), ifindex, &nlh);

	return change(ctx, err, nlh, HALO_RTNL_SNAP_LINKS, false);
}

/* Addresses bring connected routes with them: both snapshots go stale. */
int halo_rtnl_addr_add(struct halo_ctx *ctx, int ifindex, const struct halo_cidr *c)
{
	char buf[HALO_RTNL_REQ_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = NULL;
	int err = halo_rtnl_req_addr(buf, sizeof(buf), true, ifindex, c, &nlh);

	return change(ctx, err, nlh, HALO_RTNL_SNAP_ADDRS, true);
}

int halo_rtnl_addr_del(struct halo_ctx *ctx, const struct halo_rtnl_addr *a)
{
	char buf[HALO_RTNL_REQ_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = NULL;
	int err = halo_rtnl_req_addr_del(buf, sizeof(buf), a, &nlh);

	return change(ctx, err, nlh, HALO_RTNL_SNAP_ADDRS, true);
}

int halo_rtnl_route_replace(struct halo_ctx *ctx, int ifindex,
			    const struct halo_cidr *dst,
			    const struct halo_cidr *gateway, uint32_t priority)
{
	char buf[HALO_RTNL_REQ_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = NULL;
	int err = halo_rtnl_req_route(buf, sizeof(buf), ifindex, dst, gateway,
				      priority, &nlh);

	return change(ctx, err, nlh, HALO_RTNL_SNAP_ROUTES, false);
}

int halo_rtnl_route_del(struct halo_ctx *ctx, const struct halo_rtnl_route *r)
{
	char buf[HALO_RTNL_REQ_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = NULL;
	int err = halo_rtnl_req_route_del(buf, sizeof(buf), r, &nlh);

	return change(ctx, err, nlh, HALO_RTNL_SNAP_ROUTES, false);
}
