/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtnl-parse.c: RTM_NEWLINK, RTM_NEWADDR and RTM_NEWROUTE messages into
 * the plain records of rtnl.h. Pure. The layouts are the kernel's
 * (<linux/rtnetlink.h>, <linux/if_link.h>, <linux/if_addr.h>), as
 * net/core/rtnetlink.c (rtnl_fill_ifinfo), net/ipv4/devinet.c
 * (inet_fill_ifaddr), net/ipv6/addrconf.c (inet6_fill_ifaddr) and
 * net/ipv4/fib_semantics.c (fib_dump_info) fill them. Attributes are read
 * by the strict reader (netlink/attrs.h): one that does not fit, or bytes
 * after the last one, make the message malformed; so does an attribute
 * read here whose size is not its type's.
 */
#include "config.h"

#include <errno.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/ip.h>
#include <linux/rtnetlink.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include "netlink/attrs.h"
#include "netlink/rtnl.h"

static size_t addr_len(int family)
{
	return family == AF_INET ? 4 : 16;
}

/* The message's attributes if it is whole, of TYPE and with its family
 * header: 1; 0 for another type (RET untouched); -EBADMSG. */
static int msg_attrs(const void *buf, size_t len, uint16_t type, size_t hdrlen,
		     const void **ret_attrs, size_t *ret_len)
{
	const struct nlmsghdr *nlh = buf;

	if (len >= NLMSG_HDRLEN && nlh->nlmsg_type != type)
		return 0;
	if (len < NLMSG_HDRLEN || nlh->nlmsg_len < NLMSG_HDRLEN)
		return -EBADMSG;
	return halo_attr_msg(buf, len, hdrlen, ret_attrs, ret_len) < 0 ? -EBADMSG : 1;
}

/* ---- links ---- */

static int linkinfo_attr(const struct nlattr *a, void *userdata)
{
	struct halo_rtnl_link *l = userdata;
	const char *s = (const char *)(a + 1);
	size_t n = a->nla_len - sizeof(*a);
	const char *nul;

	/* A kind's own data (IFLA_INFO_DATA, _SLAVE_DATA, _XSTATS) is not
	 * read here. */
	if ((a->nla_type & NLA_TYPE_MASK) != IFLA_INFO_KIND)
		return 0;
	nul = memchr(s, '\0', n);
	if (!nul)
		return -EBADMSG;
	/* One too long to keep is left unknown rather than cut (a kind
	 * stands in for a driver name when matching). */
	if ((size_t)(nul - s) < sizeof(l->kind))
		memcpy(l->kind, s, (size_t)(nul - s) + 1);
	return 0;
}

/* One IFLA_ALT_IFNAME of IFLA_PROP_LIST, kept when it fits. */
static int prop_attr(const struct nlattr *a, void *userdata)
{
	struct halo_rtnl_link *l = userdata;
	const char *s = (const char *)(a + 1);
	size_t n = a->nla_len - sizeof(*a);
	const char *nul;

	if ((a->nla_type & NLA_TYPE_MASK) != IFLA_ALT_IFNAME)
		return 0;
	nul = memchr(s, '\0', n);
	if (!nul)
		return -EBADMSG;
	if (l->n_altnames < HALO_RTNL_ALTNAMES && nul > s &&
	    (size_t)(nul - s) < sizeof(l->altnames[0]))
		memcpy(l->altnames[l->n_altnames++], s, (size_t)(nul - s) + 1);
	return 0;
}

/* A hardware address of any length the record can hold (an overlong one
 * is left out). */
static void hwaddr(const struct nlattr *a, uint8_t *ret, size_t *ret_len)
{
	size_t n = a->nla_len - sizeof(*a);

	if (n <= HALO_RTNL_HWADDR_MAX) {
		memcpy(ret, a + 1, n);
		*ret_len = n;
	}
}

/* IFLA_MIN_MTU and IFLA_MAX_MTU say what the device allows; one of the
 * wrong size reads as not said (an older kernel's silence), never past
 * its end. */
static bool mtu_bound(const struct nlattr *a, uint32_t *ret)
{
	if (a->nla_len - sizeof(*a) < sizeof(*ret))
		return false;
	memcpy(ret, a + 1, sizeof(*ret));
	return true;
}

/* IFLA_INET_CONF: the link's IPv4 settings, an array of u32 indexed by
 * IPV4_DEVCONF_* - 1 (net/ipv4/devinet.c inet_fill_link_af). A shorter
 * one (an older kernel) leaves the setting unknown. */
static int inet_af_attr(const struct nlattr *a, void *userdata)
{
	struct halo_rtnl_link *l = userdata;
	const size_t at = (IPV4_DEVCONF_PROMOTE_SECONDARIES - 1) * sizeof(uint32_t);
	uint32_t v;

	if ((a->nla_type & NLA_TYPE_MASK) != IFLA_INET_CONF ||
	    a->nla_len - sizeof(*a) < at + sizeof(v))
		return 0;
	memcpy(&v, (const char *)(a + 1) + at, sizeof(v));
	l->promote_secondaries = v != 0;
	return 0;
}

/* IFLA_AF_SPEC: one nest per address family; IPv4's is the one read. */
static int af_spec_attr(const struct nlattr *a, void *userdata)
{
	if ((a->nla_type & NLA_TYPE_MASK) != AF_INET)
		return 0;
	return halo_attr_walk_nested(a, inet_af_attr, userdata);
}

static int link_attr(const struct nlattr *a, void *userdata)
{
	struct halo_rtnl_link *l = userdata;
	uint32_t v;
	uint8_t carrier;
	int err = 0;

	switch (a->nla_type & NLA_TYPE_MASK) {
	case IFLA_IFNAME:
		err = halo_attr_str(a, l->name, sizeof(l->name));
		break;
	case IFLA_MTU:
		err = halo_attr_u32(a, &l->mtu);
		break;
	case IFLA_MIN_MTU:
		l->has_min_mtu = mtu_bound(a, &l->min_mtu);
		break;
	case IFLA_MAX_MTU:
		l->has_max_mtu = mtu_bound(a, &l->max_mtu);
		break;
	case IFLA_CARRIER:
		err = halo_attr_u8(a, &carrier);
		if (err == 0)
			l->carrier = carrier != 0;
		break;
	case IFLA_CARRIER_DOWN_COUNT:
		err = halo_attr_u32(a, &l->carrier_down_count);
		l->has_carrier_down_count = err == 0;
		break;
	case IFLA_ADDRESS:
		hwaddr(a, l->mac, &l->mac_len);
		break;
	case IFLA_PERM_ADDRESS:
		hwaddr(a, l->perm_mac, &l->perm_mac_len);
		break;
	case IFLA_MASTER:
		err = halo_attr_u32(a, &v);
		if (err == 0 && v <= INT32_MAX)
			l->master = (int)v;
		break;
	case IFLA_LINKINFO:
		err = halo_attr_walk_nested(a, linkinfo_attr, l);
		break;
	case IFLA_PROP_LIST:
		err = halo_attr_walk_nested(a, prop_attr, l);
		break;
	case IFLA_AF_SPEC:
		err = halo_attr_walk_nested(a, af_spec_attr, l);
		break;
	}
	return err;
}

int halo_rtnl_parse_link(const void *buf, size_t len, struct halo_rtnl_link *ret)
{
	struct halo_rtnl_link l = { .carrier = -1, .promote_secondaries = -1 };
	const struct ifinfomsg *ifi;
	const void *attrs;
	size_t alen;
	int r = msg_attrs(buf, len, RTM_NEWLINK, sizeof(*ifi), &attrs, &alen);

	if (r <= 0)
		return r;
	ifi = (const void *)((const char *)buf + NLMSG_HDRLEN);
	if (halo_attr_walk(attrs, alen, link_attr, &l) < 0)
		return -EBADMSG;
	if (!l.name[0] || ifi->ifi_index <= 0)
		return -EBADMSG;
	l.ifindex = ifi->ifi_index;
	l.flags = ifi->ifi_flags;
	*ret = l;
	return 1;
}

/* ---- addresses ---- */

struct addr_attrs {
	const struct nlattr *local, *address, *flags;
};

static int addr_attr(const struct nlattr *a, void *userdata)
{
	struct addr_attrs *aa = userdata;

	if ((a->nla_type & NLA_TYPE_MASK) == IFA_LOCAL)
		aa->local = a;
	else if ((a->nla_type & NLA_TYPE_MASK) == IFA_ADDRESS)
		aa->address = a;
	else if ((a->nla_type & NLA_TYPE_MASK) == IFA_FLAGS)
		aa->flags = a;
	return 0;
}

int halo_rtnl_parse_addr(const void *buf, size_t len, struct halo_rtnl_addr *ret)
{
	struct halo_rtnl_addr addr = { 0 };
	struct addr_attrs aa = { 0 };
	const struct ifaddrmsg *ifa;
	const struct nlattr *a;
	const void *attrs;
	size_t alen;
	int r = msg_attrs(buf, len, RTM_NEWADDR, sizeof(*ifa), &attrs, &alen);

	if (r <= 0)
		return r;
	ifa = (const void *)((const char *)buf + NLMSG_HDRLEN);
	if (ifa->ifa_family != AF_INET && ifa->ifa_family != AF_INET6)
		return 0;
	if (ifa->ifa_prefixlen > 8 * addr_len(ifa->ifa_family))
		return -EBADMSG;
	if (halo_attr_walk(attrs, alen, addr_attr, &aa) < 0)
		return -EBADMSG;
	/* IFA_LOCAL, or IFA_ADDRESS without it: IPv6 sends only that; on a
	 * point-to-point link IFA_ADDRESS is the peer. */
	a = aa.local ? aa.local : aa.address;
	if (!a || a->nla_len - sizeof(*a) != addr_len(ifa->ifa_family))
		return -EBADMSG;
	memcpy(addr.cidr.addr, a + 1, addr_len(ifa->ifa_family));
	addr.cidr.family = ifa->ifa_family;
	addr.cidr.prefixlen = ifa->ifa_prefixlen;
	addr.ifindex = (int)ifa->ifa_index;
	addr.scope = ifa->ifa_scope;
	if (ifa->ifa_family == AF_INET && aa.local && aa.address &&
	    aa.address->nla_len - sizeof(*aa.address) == sizeof(addr.peer) &&
	    memcmp(aa.address + 1, aa.local + 1, sizeof(addr.peer)) != 0) {
		memcpy(addr.peer, aa.address + 1, sizeof(addr.peer));
		addr.has_peer = true;
	}
	/* ifa_flags holds the low 8 bits; IFA_FLAGS all 32 (since 3.14). */
	addr.flags = ifa->ifa_flags;
	if (aa.flags) {
		if (aa.flags->nla_len - sizeof(*aa.flags) != sizeof(uint32_t))
			return -EBADMSG;
		memcpy(&addr.flags, aa.flags + 1, sizeof(uint32_t));
	}
	*ret = addr;
	return 1;
}

/* ---- routes ---- */

/* What a route message says, its attributes checked. */
struct route_attrs {
	int family;
	uint32_t table;
	const struct nlattr *dst;
	const struct nlattr *gateway; /* of the one next hop, NULL none */
	uint32_t oif;                 /* of the one next hop, 0 none */
	uint32_t priority;
	/* RTA_MULTIPATH: how many next hops, and the first one's. */
	size_t hops;
	const struct nlattr *hop_gateway;
	uint32_t hop_oif;
};

/* RTA_VIA is a struct rtvia: a family, then its address. */
static int via_check(const struct nlattr *a)
{
	return a->nla_len - sizeof(*a) < offsetof(struct rtvia, rtvia_addr) ? -EBADMSG : 0;
}

/* The attributes of one next hop of RTA_MULTIPATH. */
static int hop_attr(const struct nlattr *a, void *userdata)
{
	struct route_attrs *ra = userdata;

	switch (a->nla_type & NLA_TYPE_MASK) {
	case RTA_GATEWAY:
		ra->gateway = a;
		return 0;
	case RTA_VIA:
		return via_check(a);
	}
	return 0;
}

/* RTA_MULTIPATH: struct rtnexthop records, each followed by its own
 * attributes (fib_add_nexthop). Every hop must fit its header and the
 * attribute (a hop claiming more is malformed, as the kernel's rtnh_ok
 * judges it, not the end of the list); a tail too short for a hop's
 * header ends the list. */
static int multipath(const struct nlattr *a, struct route_attrs *ra)
{
	const char *p = (const char *)(a + 1);
	size_t rest = a->nla_len - sizeof(*a);

	while (rest >= sizeof(struct rtnexthop)) {
		const struct rtnexthop *rtnh = (const void *)p;
		struct route_attrs hop = { 0 };
		size_t step = RTNH_ALIGN((size_t)rtnh->rtnh_len);

		if (rtnh->rtnh_len < sizeof(*rtnh) || rtnh->rtnh_len > rest || step > rest)
			return -EBADMSG;
		if (halo_attr_walk(p + sizeof(*rtnh), rtnh->rtnh_len - sizeof(*rtnh),
				   hop_attr, &hop) < 0)
			return -EBADMSG;
		if (ra->hops++ == 0) {
			ra->hop_gateway = hop.gateway;
			ra->hop_oif = rtnh->rtnh_ifindex > 0 ? (uint32_t)rtnh->rtnh_ifindex : 0;
		}
		p += step;
		rest -= step;
	}
	return 0;
}

static int route_attr(const struct nlattr *a, void *userdata)
{
	struct route_attrs *ra = userdata;

	switch (a->nla_type & NLA_TYPE_MASK) {
	case RTA_TABLE:
		return halo_attr_u32(a, &ra->table);
	case RTA_DST:
		ra->dst = a;
		return 0;
	case RTA_PRIORITY:
		return halo_attr_u32(a, &ra->priority);
	case RTA_VIA:
		return via_check(a);
	case RTA_MULTIPATH:
		return multipath(a, ra);
	case RTA_OIF:
		return halo_attr_u32(a, &ra->oif);
	case RTA_GATEWAY:
		ra->gateway = a;
		return 0;
	}
	return 0;
}

/* A route message of family v4 or v6: 1 with RA filled, 0 another family,
 * -EBADMSG. The table is RTA_TABLE when there is one, else rtm_table. */
static int route_read(const void *buf, size_t len, const struct rtmsg **ret_rtm,
		      struct route_attrs *ra)
{
	const struct rtmsg *rtm;
	const void *attrs;
	size_t alen;
	int r = msg_attrs(buf, len, RTM_NEWROUTE, sizeof(*rtm), &attrs, &alen);

	if (r <= 0)
		return r;
	rtm = (const void *)((const char *)buf + NLMSG_HDRLEN);
	if (rtm->rtm_family != AF_INET && rtm->rtm_family != AF_INET6)
		return 0;
	if (rtm->rtm_dst_len > 8 * addr_len(rtm->rtm_family))
		return -EBADMSG;
	memset(ra, 0, sizeof(*ra));
	ra->family = rtm->rtm_family;
	ra->table = rtm->rtm_table;
	if (halo_attr_walk(attrs, alen, route_attr, ra) < 0)
		return -EBADMSG;
	/* Next hops in RTA_MULTIPATH replace the top-level one (the kernel
	 * never sends both); of several, no single device or gateway is the
	 * route's. */
	if (ra->hops) {
		ra->gateway = ra->hops == 1 ? ra->hop_gateway : NULL;
		ra->oif = ra->hops == 1 ? ra->hop_oif : 0;
	}
	if (ra->gateway &&
	    ra->gateway->nla_len - sizeof(*ra->gateway) != addr_len(ra->family))
		return -EBADMSG;
	*ret_rtm = rtm;
	return 1;
}

int halo_rtnl_parse_route(const void *buf, size_t len, struct halo_rtnl_route *ret)
{
	struct halo_rtnl_route r = { .type = RTN_UNICAST };
	struct route_attrs ra;
	const struct rtmsg *rtm;
	size_t alen;
	int err = route_read(buf, len, &rtm, &ra);

	if (err <= 0)
		return err;
	if (ra.table != RT_TABLE_MAIN || rtm->rtm_type != RTN_UNICAST)
		return 0;
	alen = addr_len(ra.family);
	r.table = ra.table;
	r.dst.family = ra.family;
	r.dst.prefixlen = rtm->rtm_dst_len;
	/* No RTA_DST (or an empty one): the default route. */
	if (ra.dst && ra.dst->nla_len > sizeof(*ra.dst)) {
		if (ra.dst->nla_len - sizeof(*ra.dst) != alen)
			return -EBADMSG;
		memcpy(r.dst.addr, ra.dst + 1, alen);
	}
	if (ra.gateway) {
		memcpy(r.gateway.addr, ra.gateway + 1, alen);
		r.has_gateway = true;
		r.gateway.family = ra.family;
		r.gateway.prefixlen = (uint8_t)(8 * alen);
	}
	r.oif = ra.oif <= INT32_MAX ? (int)ra.oif : 0;
	r.priority = ra.priority;
	*ret = r;
	return 1;
}

int halo_rtnl_parse_local(const void *buf, size_t len, int *ret_ifindex)
{
	struct route_attrs ra;
	const struct rtmsg *rtm;
	int err = route_read(buf, len, &rtm, &ra);

	if (err <= 0)
		return err;
	if (rtm->rtm_type != RTN_LOCAL || ra.oif == 0 || ra.oif > INT32_MAX)
		return 0;
	*ret_ifindex = (int)ra.oif;
	return 1;
}
