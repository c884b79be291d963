/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/links/nl.c: the reply parsers on messages built by hand
 * from the kernel UAPI layouts (good and malformed) and by libnl-route
 * itself; the change requests, seen through the transport's seam. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>

#include <netlink/msg.h>
#include <netlink/route/link.h>

#include "halo.h"
#include "host/host.h"
#include "links/nl.h"
#include "netlink/context.h"
#include "netlink/transport.h"

struct msgbuf {
	unsigned char b[1024] __attribute__((aligned(4)));
	size_t len;
};

static struct nlmsghdr *msg_start(struct msgbuf *m, uint16_t type,
				  const void *hdr, size_t hdrlen)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)m->b;

	memset(m, 0, sizeof(*m));
	nlh->nlmsg_type = type;
	memcpy(m->b + NLMSG_HDRLEN, hdr, hdrlen);
	m->len = NLMSG_HDRLEN + NLMSG_ALIGN(hdrlen);
	nlh->nlmsg_len = (uint32_t)m->len;
	return nlh;
}

static void put(struct msgbuf *m, uint16_t type, const void *data, size_t n)
{
	struct nlattr *a = (struct nlattr *)(m->b + m->len);

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + n);
	memcpy((char *)a + NLA_HDRLEN, data, n);
	m->len += NLA_ALIGN(a->nla_len);
	((struct nlmsghdr *)m->b)->nlmsg_len = (uint32_t)m->len;
}

static void put_u32(struct msgbuf *m, uint16_t type, uint32_t v)
{
	put(m, type, &v, 4);
}

static void link_msg(struct msgbuf *m, const char *name)
{
	struct ifinfomsg ifi = { .ifi_index = 7, .ifi_flags = IFF_UP | (1 << 16) /* IFF_LOWER_UP */ };
	const uint8_t mac[6] = { 0xb4, 0x96, 0x91, 0xaa, 0xbb, 0x01 };
	uint8_t carrier = 1;

	msg_start(m, RTM_NEWLINK, &ifi, sizeof(ifi));
	put(m, IFLA_IFNAME, name, strlen(name) + 1);
	put_u32(m, IFLA_MTU, 9000);
	put_u32(m, IFLA_MIN_MTU, 68);
	put_u32(m, IFLA_MAX_MTU, 9702);
	put(m, IFLA_CARRIER, &carrier, 1);
	put(m, IFLA_ADDRESS, mac, sizeof(mac));
}

static void parse_link_full(void **state)
{
	struct msgbuf m;
	struct halo_nl_link l;

	link_msg(&m, "rdma0");
	assert_int_equal(halo_nl_parse_link(m.b, m.len, &l), 1);
	assert_string_equal(l.name, "rdma0");
	assert_int_equal(l.ifindex, 7);
	assert_int_equal(l.mtu, 9000);
	assert_true(l.has_min_mtu);
	assert_true(l.has_max_mtu);
	assert_int_equal(l.min_mtu, 68);
	assert_int_equal(l.max_mtu, 9702);
	assert_int_equal(l.carrier, 1);
	assert_int_equal(l.mac_len, 6);
	assert_int_equal(l.mac[5], 0x01);
	assert_int_equal(l.perm_mac_len, 0);
	assert_true(l.flags & IFF_UP);
}

static void parse_link_minimal(void **state)
{
	struct ifinfomsg ifi = { .ifi_index = 3 };
	struct msgbuf m;
	struct halo_nl_link l;

	msg_start(&m, RTM_NEWLINK, &ifi, sizeof(ifi));
	put(&m, IFLA_IFNAME, "lo", 3);
	assert_int_equal(halo_nl_parse_link(m.b, m.len, &l), 1);
	assert_false(l.has_min_mtu);
	assert_false(l.has_max_mtu);
	assert_int_equal(l.carrier, -1);
}

static void parse_link_malformed(void **state)
{
	struct ifinfomsg ifi = { .ifi_index = 3 };
	struct halo_nl_link l = { .ifindex = 42 };
	struct msgbuf m;

	/* no name */
	msg_start(&m, RTM_NEWLINK, &ifi, sizeof(ifi));
	assert_int_equal(halo_nl_parse_link(m.b, m.len, &l), -EBADMSG);
	/* name without NUL */
	put(&m, IFLA_IFNAME, "abc", 3);
	assert_int_equal(halo_nl_parse_link(m.b, m.len, &l), -EBADMSG);
	/* an empty name (NUL first) */
	msg_start(&m, RTM_NEWLINK, &ifi, sizeof(ifi));
	put(&m, IFLA_IFNAME, "\0bc", 4);
	assert_int_equal(halo_nl_parse_link(m.b, m.len, &l), -EBADMSG);
	/* name longer than IFNAMSIZ */
	msg_start(&m, RTM_NEWLINK, &ifi, sizeof(ifi));
	put(&m, IFLA_IFNAME, "0123456789abcdefXYZ", 20);
	assert_int_equal(halo_nl_parse_link(m.b, m.len, &l), -EBADMSG);
	/* header claims more than the buffer holds */
	link_msg(&m, "x");
	assert_int_equal(halo_nl_parse_link(m.b, m.len - 4, &l), -EBADMSG);
	/* truncated family header */
	assert_int_equal(halo_nl_parse_link(m.b, NLMSG_HDRLEN + 4, &l), -EBADMSG);
	/* attribute length running past the message */
	link_msg(&m, "x");
	((struct nlattr *)(m.b + NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(ifi))))->nla_len = 200;
	assert_int_equal(halo_nl_parse_link(m.b, m.len, &l), -EBADMSG);
	/* a short u32: libnl-route's policy refuses the message */
	msg_start(&m, RTM_NEWLINK, &ifi, sizeof(ifi));
	put(&m, IFLA_IFNAME, "y", 2);
	put(&m, IFLA_MTU, "\x01", 1);
	assert_int_equal(halo_nl_parse_link(m.b, m.len, &l), -EBADMSG);
	/* a short IFLA_MIN_MTU (read by hand) is ignored, not read past */
	msg_start(&m, RTM_NEWLINK, &ifi, sizeof(ifi));
	put(&m, IFLA_IFNAME, "y", 2);
	put(&m, IFLA_MIN_MTU, "\x01", 1);
	assert_int_equal(halo_nl_parse_link(m.b, m.len, &l), 1);
	assert_false(l.has_min_mtu);
	/* other message types are not ours, and RET is untouched */
	l.ifindex = 42;
	msg_start(&m, RTM_NEWADDR, &ifi, sizeof(ifi));
	assert_int_equal(halo_nl_parse_link(m.b, m.len, &l), 0);
	assert_int_equal(l.ifindex, 42);
}

static void parse_addr(void **state)
{
	struct ifaddrmsg ifa = { .ifa_family = AF_INET, .ifa_prefixlen = 30,
				 .ifa_index = 5 };
	struct in_addr local, peer;
	struct msgbuf m;
	struct halo_nl_addr a;

	inet_pton(AF_INET, "192.168.100.1", &local);
	inet_pton(AF_INET, "192.168.100.2", &peer);
	msg_start(&m, RTM_NEWADDR, &ifa, sizeof(ifa));
	put(&m, IFA_ADDRESS, &peer, 4); /* point-to-point: peer here */
	put(&m, IFA_LOCAL, &local, 4);
	assert_int_equal(halo_nl_parse_addr(m.b, m.len, &a), 1);
	assert_int_equal(a.ifindex, 5);
	assert_int_equal(a.cidr.family, AF_INET);
	assert_int_equal(a.cidr.prefixlen, 30);
	assert_memory_equal(a.cidr.addr, &local, 4);

	/* IPv6 has IFA_ADDRESS only */
	struct ifaddrmsg ifa6 = { .ifa_family = AF_INET6, .ifa_prefixlen = 64,
				  .ifa_index = 5, .ifa_scope = RT_SCOPE_LINK };
	struct in6_addr ll;

	inet_pton(AF_INET6, "fe80::1", &ll);
	msg_start(&m, RTM_NEWADDR, &ifa6, sizeof(ifa6));
	put(&m, IFA_ADDRESS, &ll, 16);
	assert_int_equal(halo_nl_parse_addr(m.b, m.len, &a), 1);
	assert_int_equal(a.cidr.family, AF_INET6);
	assert_int_equal(a.scope, RT_SCOPE_LINK);

	/* wrong address length, bad prefix, other family */
	msg_start(&m, RTM_NEWADDR, &ifa, sizeof(ifa));
	put(&m, IFA_LOCAL, &ll, 16);
	assert_int_equal(halo_nl_parse_addr(m.b, m.len, &a), -EBADMSG);
	ifa.ifa_prefixlen = 33;
	msg_start(&m, RTM_NEWADDR, &ifa, sizeof(ifa));
	put(&m, IFA_LOCAL, &local, 4);
	assert_int_equal(halo_nl_parse_addr(m.b, m.len, &a), -EBADMSG);
	ifa.ifa_family = AF_PACKET;
	msg_start(&m, RTM_NEWADDR, &ifa, sizeof(ifa));
	assert_int_equal(halo_nl_parse_addr(m.b, m.len, &a), 0);
	/* no address at all */
	ifa.ifa_family = AF_INET;
	ifa.ifa_prefixlen = 24;
	msg_start(&m, RTM_NEWADDR, &ifa, sizeof(ifa));
	assert_int_equal(halo_nl_parse_addr(m.b, m.len, &a), -EBADMSG);
}

static void parse_route(void **state)
{
	struct rtmsg rtm = { .rtm_family = AF_INET, .rtm_dst_len = 24,
			     .rtm_table = RT_TABLE_MAIN, .rtm_type = RTN_UNICAST };
	struct in_addr dst, gw;
	struct msgbuf m;
	struct halo_nl_route r;

	inet_pton(AF_INET, "10.0.2.0", &dst);
	inet_pton(AF_INET, "192.168.100.2", &gw);
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	put(&m, RTA_DST, &dst, 4);
	put(&m, RTA_GATEWAY, &gw, 4);
	put_u32(&m, RTA_OIF, 9);
	put_u32(&m, RTA_PRIORITY, 100);
	put_u32(&m, RTA_TABLE, RT_TABLE_MAIN);
	assert_int_equal(halo_nl_parse_route(m.b, m.len, &r), 1);
	assert_int_equal(r.dst.prefixlen, 24);
	assert_memory_equal(r.dst.addr, &dst, 4);
	assert_true(r.has_gateway);
	assert_memory_equal(r.gateway.addr, &gw, 4);
	assert_int_equal(r.oif, 9);
	assert_int_equal(r.priority, 100);

	/* default route: no RTA_DST */
	rtm.rtm_dst_len = 0;
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	put_u32(&m, RTA_OIF, 2);
	assert_int_equal(halo_nl_parse_route(m.b, m.len, &r), 1);
	assert_int_equal(r.dst.prefixlen, 0);
	assert_false(r.has_gateway);

	/* local table (RTA_TABLE wins over rtm_table) and non-unicast: skipped */
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	put_u32(&m, RTA_TABLE, RT_TABLE_LOCAL);
	assert_int_equal(halo_nl_parse_route(m.b, m.len, &r), 0);
	rtm.rtm_type = RTN_LOCAL;
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	assert_int_equal(halo_nl_parse_route(m.b, m.len, &r), 0);

	/* malformed: gateway of the wrong size, dst_len too long */
	rtm.rtm_type = RTN_UNICAST;
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	put(&m, RTA_GATEWAY, &gw, 2);
	assert_int_equal(halo_nl_parse_route(m.b, m.len, &r), -EBADMSG);
	rtm.rtm_dst_len = 40;
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	assert_int_equal(halo_nl_parse_route(m.b, m.len, &r), -EBADMSG);
}

/* A link message as the kernel's and libnl's own layout has it: built by
 * rtnl_link_build_add_request from an rtnl_link of KIND (NULL: none). */
static void libnl_link_msg(struct msgbuf *m, const char *kind, int carrier)
{
	struct rtnl_link *link = rtnl_link_alloc();
	struct nl_msg *msg = NULL;
	struct nlmsghdr *nlh;

	assert_non_null(link);
	rtnl_link_set_ifindex(link, 12);
	rtnl_link_set_name(link, "veth-a");
	rtnl_link_set_mtu(link, 1500);
	if (carrier >= 0)
		rtnl_link_set_carrier(link, (uint8_t)carrier);
	if (kind)
		assert_int_equal(rtnl_link_set_type(link, kind), 0);
	assert_int_equal(rtnl_link_build_add_request(link, 0, &msg), 0);
	assert_int_equal(nla_put_u32(msg, IFLA_MAX_MTU, 65535), 0);
	nlh = nlmsg_hdr(msg);
	assert_true(nlh->nlmsg_len <= sizeof(m->b));
	memset(m, 0, sizeof(*m));
	memcpy(m->b, nlh, nlh->nlmsg_len);
	m->len = nlh->nlmsg_len;
	rtnl_link_put(link);
	nlmsg_free(msg);
}

static void parse_link_kind(void **state)
{
	struct msgbuf m;
	struct halo_nl_link l;

	libnl_link_msg(&m, "veth", 0);
	assert_int_equal(halo_nl_parse_link(m.b, m.len, &l), 1);
	assert_string_equal(l.name, "veth-a");
	assert_int_equal(l.ifindex, 12);
	assert_int_equal(l.mtu, 1500);
	assert_string_equal(l.kind, "veth");
	assert_int_equal(l.carrier, 0); /* present and 0: no carrier */
	assert_false(l.has_min_mtu);
	assert_true(l.has_max_mtu);
	assert_int_equal(l.max_mtu, 65535);

	/* a physical NIC has no IFLA_LINKINFO: no kind */
	libnl_link_msg(&m, NULL, -1);
	assert_int_equal(halo_nl_parse_link(m.b, m.len, &l), 1);
	assert_string_equal(l.kind, "");
	assert_int_equal(l.carrier, -1);

	/* the hand-built full message has no kind either */
	link_msg(&m, "rdma0");
	assert_int_equal(halo_nl_parse_link(m.b, m.len, &l), 1);
	assert_string_equal(l.kind, "");
}

static void put_nexthop(struct msgbuf *m, size_t at, uint16_t len, int ifindex)
{
	struct rtnexthop *rtnh = (struct rtnexthop *)(m->b + at);

	rtnh->rtnh_len = len;
	rtnh->rtnh_ifindex = ifindex;
}

/* An RTA_MULTIPATH of N_HOPS next hops of LEN bytes each (zeroed past
 * the rtnexthop header). */
static void multipath_msg(struct msgbuf *m, uint16_t len, int n_hops)
{
	struct rtmsg rtm = { .rtm_family = AF_INET, .rtm_dst_len = 24,
			     .rtm_table = RT_TABLE_MAIN, .rtm_type = RTN_UNICAST };
	uint8_t hops[64] = { 0 };
	size_t base;

	msg_start(m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	put(m, RTA_DST, "\x0a\x00\x02\x00", 4);
	base = m->len + NLA_HDRLEN;
	put(m, RTA_MULTIPATH, hops, (size_t)n_hops * RTNH_ALIGN(len ? len : 8));
	for (int i = 0; i < n_hops; i++)
		put_nexthop(m, base + (size_t)i * RTNH_ALIGN(len ? len : 8), len, 3 + i);
}

static void parse_route_multipath(void **state)
{
	struct halo_nl_route r;
	struct msgbuf m;

	/* two next hops: no single device or gateway */
	multipath_msg(&m, sizeof(struct rtnexthop), 2);
	assert_int_equal(halo_nl_parse_route(m.b, m.len, &r), 1);
	assert_int_equal(r.oif, 0);
	assert_false(r.has_gateway);
	assert_int_equal(r.dst.prefixlen, 24);

	/* a next hop of length 0: libnl would never end its walk */
	multipath_msg(&m, 0, 2);
	assert_int_equal(halo_nl_parse_route(m.b, m.len, &r), -EBADMSG);
	/* shorter than its header */
	multipath_msg(&m, 4, 2);
	assert_int_equal(halo_nl_parse_route(m.b, m.len, &r), -EBADMSG);
	/* an unaligned length whose padding passes the attribute's end */
	multipath_msg(&m, 8, 1);
	put_nexthop(&m, m.len - 8, 9, 3);
	((struct nlattr *)(m.b + m.len - 8 - NLA_HDRLEN))->nla_len = NLA_HDRLEN + 9;
	m.len += 4; /* the attribute's padding */
	((struct nlmsghdr *)m.b)->nlmsg_len = (uint32_t)m.len;
	assert_int_equal(halo_nl_parse_route(m.b, m.len, &r), -EBADMSG);
}

static void parse_route_via(void **state)
{
	struct rtmsg rtm = { .rtm_family = AF_INET, .rtm_dst_len = 0,
			     .rtm_table = RT_TABLE_MAIN, .rtm_type = RTN_UNICAST };
	struct halo_nl_route r;
	struct msgbuf m;

	/* RTA_VIA shorter than its family: a negative length to libnl */
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	put(&m, RTA_VIA, "\x02", 1);
	assert_int_equal(halo_nl_parse_route(m.b, m.len, &r), -EBADMSG);
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	put(&m, RTA_VIA, "", 0);
	assert_int_equal(halo_nl_parse_route(m.b, m.len, &r), -EBADMSG);
	/* a full one is fine (the route has no gateway of its family) */
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	put(&m, RTA_VIA, "\x02\x00\x0a\x00\x00\x01", 6);
	put_u32(&m, RTA_OIF, 4);
	assert_int_equal(halo_nl_parse_route(m.b, m.len, &r), 1);
	assert_int_equal(r.oif, 4);
}

/* ---- change requests through the transport's seam ---- */

struct seen {
	unsigned char req[1024] __attribute__((aligned(4)));
	size_t len;
	int answer; /* the kernel's errno for the ACK, 0 or negative */
};

static int seam_io(void *userdata, enum halo_nlt_proto proto,
		   const struct nlmsghdr *req, size_t len, void *out, size_t size)
{
	struct seen *s = userdata;
	struct nlmsghdr *ack = out;
	struct nlmsgerr *e = NLMSG_DATA(ack);

	assert_int_equal(proto, HALO_NLT_ROUTE);
	assert_true(len <= sizeof(s->req) && size >= 64);
	memcpy(s->req, req, len);
	s->len = len;
	memset(ack, 0, NLMSG_SPACE(sizeof(*e)));
	ack->nlmsg_len = NLMSG_LENGTH(sizeof(*e));
	ack->nlmsg_type = NLMSG_ERROR;
	ack->nlmsg_flags = NLM_F_CAPPED;
	ack->nlmsg_seq = req->nlmsg_seq;
	e->error = s->answer;
	e->msg = *req;
	return (int)ack->nlmsg_len;
}

static struct nlmsghdr *seen_hdr(struct seen *s)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)s->req;

	assert_int_equal(nlh->nlmsg_len, s->len);
	return nlh;
}

static void attr_bytes(struct nlmsghdr *nlh, size_t hdrlen, int type,
		       const void *want, int n)
{
	struct nlattr *a = nlmsg_find_attr(nlh, (int)hdrlen, type);

	assert_non_null(a);
	assert_int_equal(nla_len(a), n);
	assert_memory_equal(nla_data(a), want, (size_t)n);
}

static void attr_u32(struct nlmsghdr *nlh, size_t hdrlen, int type, uint32_t v)
{
	attr_bytes(nlh, hdrlen, type, &v, 4);
}

static struct seen seen;

static int seam_setup(void **state)
{
	static struct halo_ctx ctx;
	struct halo_nlt *t;

	memset(&ctx, 0, sizeof(ctx));
	memset(&seen, 0, sizeof(seen));
	assert_int_equal(halo_netlink_transport(&ctx, &t), 0);
	halo_nlt_set_io(t, seam_io, &seen);
	*state = &ctx;
	return 0;
}

static int seam_teardown(void **state)
{
	halo_nl_close(*state);
	halo_netlink_release(*state);
	return 0;
}

static void build_link_changes(void **state)
{
	struct halo_ctx *ctx = *state;
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifi;

	assert_int_equal(halo_nl_set_mtu(ctx, 7, 9000), 0);
	assert_int_equal(ctx->netlink_requests, 1);
	nlh = seen_hdr(&seen);
	assert_int_equal(nlh->nlmsg_type, RTM_NEWLINK);
	assert_int_equal(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);
	ifi = NLMSG_DATA(nlh);
	assert_int_equal(ifi->ifi_family, AF_UNSPEC);
	assert_int_equal(ifi->ifi_index, 7);
	assert_int_equal(ifi->ifi_change, 0);
	attr_u32(nlh, sizeof(*ifi), IFLA_MTU, 9000);
	assert_null(nlmsg_find_attr(nlh, sizeof(*ifi), IFLA_IFNAME));

	assert_int_equal(halo_nl_set_up(ctx, 7), 0);
	assert_int_equal(ctx->netlink_requests, 2);
	nlh = seen_hdr(&seen);
	ifi = NLMSG_DATA(nlh);
	assert_int_equal(nlh->nlmsg_type, RTM_NEWLINK);
	assert_int_equal(ifi->ifi_index, 7);
	assert_int_equal(ifi->ifi_flags, IFF_UP);
	assert_int_equal(ifi->ifi_change, IFF_UP);
	assert_null(nlmsg_find_attr(nlh, sizeof(*ifi), IFLA_MTU));

	/* the kernel's errno comes back as is */
	seen.answer = -EINVAL;
	assert_int_equal(halo_nl_set_mtu(ctx, 7, 70000), -EINVAL);
	assert_int_equal(ctx->netlink_requests, 3);
}

static void build_addr_changes(void **state)
{
	struct halo_ctx *ctx = *state;
	struct halo_cidr c = { .family = AF_INET, .prefixlen = 30 };
	const uint8_t local[4] = { 192, 168, 100, 1 }, brd[4] = { 192, 168, 100, 3 };
	struct nlmsghdr *nlh;
	struct ifaddrmsg *ifa;

	memcpy(c.addr, local, 4);
	assert_int_equal(halo_nl_addr_add(ctx, 5, &c), 0);
	nlh = seen_hdr(&seen);
	assert_int_equal(nlh->nlmsg_type, RTM_NEWADDR);
	assert_int_equal(nlh->nlmsg_flags,
			 NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL);
	ifa = NLMSG_DATA(nlh);
	assert_int_equal(ifa->ifa_family, AF_INET);
	assert_int_equal(ifa->ifa_prefixlen, 30);
	assert_int_equal(ifa->ifa_scope, RT_SCOPE_UNIVERSE);
	assert_int_equal(ifa->ifa_index, 5);
	attr_bytes(nlh, sizeof(*ifa), IFA_LOCAL, local, 4);
	attr_bytes(nlh, sizeof(*ifa), IFA_ADDRESS, local, 4);
	attr_bytes(nlh, sizeof(*ifa), IFA_BROADCAST, brd, 4);

	/* -EEXIST is returned as is */
	seen.answer = -EEXIST;
	assert_int_equal(halo_nl_addr_add(ctx, 5, &c), -EEXIST);
	seen.answer = 0;

	/* delete: no broadcast; /32 add: none either */
	assert_int_equal(halo_nl_addr_del(ctx, 5, &c), 0);
	nlh = seen_hdr(&seen);
	assert_int_equal(nlh->nlmsg_type, RTM_DELADDR);
	assert_int_equal(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);
	attr_bytes(nlh, sizeof(*ifa), IFA_LOCAL, local, 4);
	assert_null(nlmsg_find_attr(nlh, sizeof(*ifa), IFA_BROADCAST));
	c.prefixlen = 32;
	assert_int_equal(halo_nl_addr_add(ctx, 5, &c), 0);
	assert_null(nlmsg_find_attr(seen_hdr(&seen), sizeof(*ifa), IFA_BROADCAST));

	/* IPv6 */
	struct halo_cidr c6 = { .family = AF_INET6, .prefixlen = 64 };

	inet_pton(AF_INET6, "fd00::1", c6.addr);
	assert_int_equal(halo_nl_addr_add(ctx, 5, &c6), 0);
	nlh = seen_hdr(&seen);
	ifa = NLMSG_DATA(nlh);
	assert_int_equal(ifa->ifa_family, AF_INET6);
	assert_int_equal(ifa->ifa_prefixlen, 64);
	attr_bytes(nlh, sizeof(*ifa), IFA_LOCAL, c6.addr, 16);
	assert_null(nlmsg_find_attr(nlh, sizeof(*ifa), IFA_BROADCAST));
	assert_int_equal(ctx->netlink_requests, 5);
}

static void build_route_replace(void **state)
{
	struct halo_ctx *ctx = *state;
	struct halo_cidr dst = { .family = AF_INET, .prefixlen = 24 },
			 gw = { .family = AF_INET, .prefixlen = 32 },
			 def = { .family = AF_INET, .prefixlen = 0 };
	const uint8_t d[4] = { 10, 0, 2, 0 }, g[4] = { 192, 168, 100, 2 };
	struct nlmsghdr *nlh;
	struct rtmsg *rtm;

	memcpy(dst.addr, d, 4);
	memcpy(gw.addr, g, 4);
	assert_int_equal(halo_nl_route_replace(ctx, 9, &dst, &gw, 50), 0);
	nlh = seen_hdr(&seen);
	assert_int_equal(nlh->nlmsg_type, RTM_NEWROUTE);
	assert_int_equal(nlh->nlmsg_flags,
			 NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_REPLACE);
	rtm = NLMSG_DATA(nlh);
	assert_int_equal(rtm->rtm_family, AF_INET);
	assert_int_equal(rtm->rtm_dst_len, 24);
	assert_int_equal(rtm->rtm_table, RT_TABLE_MAIN);
	assert_int_equal(rtm->rtm_protocol, RTPROT_STATIC);
	assert_int_equal(rtm->rtm_scope, RT_SCOPE_UNIVERSE);
	assert_int_equal(rtm->rtm_type, RTN_UNICAST);
	attr_bytes(nlh, sizeof(*rtm), RTA_DST, d, 4);
	attr_bytes(nlh, sizeof(*rtm), RTA_GATEWAY, g, 4);
	attr_u32(nlh, sizeof(*rtm), RTA_OIF, 9);
	attr_u32(nlh, sizeof(*rtm), RTA_PRIORITY, 50);
	attr_u32(nlh, sizeof(*rtm), RTA_TABLE, RT_TABLE_MAIN);

	/* the default route on the link: no RTA_DST, scope link, no metric */
	assert_int_equal(halo_nl_route_replace(ctx, 9, &def, NULL, 0), 0);
	nlh = seen_hdr(&seen);
	rtm = NLMSG_DATA(nlh);
	assert_int_equal(rtm->rtm_dst_len, 0);
	assert_int_equal(rtm->rtm_scope, RT_SCOPE_LINK);
	assert_null(nlmsg_find_attr(nlh, sizeof(*rtm), RTA_DST));
	assert_null(nlmsg_find_attr(nlh, sizeof(*rtm), RTA_GATEWAY));
	assert_null(nlmsg_find_attr(nlh, sizeof(*rtm), RTA_PRIORITY));
	attr_u32(nlh, sizeof(*rtm), RTA_OIF, 9);
	assert_int_equal(ctx->netlink_requests, 2);

	/* what was built parses back to the same route */
	struct halo_nl_route r;

	assert_int_equal(halo_nl_route_replace(ctx, 9, &dst, &gw, 50), 0);
	nlh = seen_hdr(&seen);
	assert_int_equal(halo_nl_parse_route(nlh, nlh->nlmsg_len, &r), 1);
	assert_int_equal(r.oif, 9);
	assert_int_equal(r.priority, 50);
	assert_true(r.has_gateway);
	assert_memory_equal(r.gateway.addr, g, 4);
	assert_memory_equal(r.dst.addr, d, 4);
	assert_int_equal(r.dst.prefixlen, 24);
}

static void netns_names(void **state)
{
	assert_true(halo_netns_name_valid("node1"));
	assert_true(halo_netns_name_valid("halo-x-1.2"));
	assert_false(halo_netns_name_valid(""));
	assert_false(halo_netns_name_valid(NULL));
	assert_false(halo_netns_name_valid("."));
	assert_false(halo_netns_name_valid(".."));
	assert_false(halo_netns_name_valid("../x"));
	assert_false(halo_netns_name_valid("a/b"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_link_full),
		cmocka_unit_test(parse_link_minimal),
		cmocka_unit_test(parse_link_malformed),
		cmocka_unit_test(parse_addr),
		cmocka_unit_test(parse_route),
		cmocka_unit_test(parse_link_kind),
		cmocka_unit_test(parse_route_multipath),
		cmocka_unit_test(parse_route_via),
		cmocka_unit_test_setup_teardown(build_link_changes, seam_setup, seam_teardown),
		cmocka_unit_test_setup_teardown(build_addr_changes, seam_setup, seam_teardown),
		cmocka_unit_test_setup_teardown(build_route_replace, seam_setup, seam_teardown),
		cmocka_unit_test(netns_names),
	};

	return cmocka_run_group_tests_name("net-nl", tests, NULL, NULL);
}
