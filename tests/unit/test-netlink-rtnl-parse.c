/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for src/netlink/rtnl-parse.c: the reply parsers on messages
 * built by hand from the kernel UAPI layouts, good and malformed.
 */
#include "config.h"

#include <arpa/inet.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/ip.h>
#include <net/if.h>

#include "rtnl-test.h"

#include "netlink/rtnl.h"

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
	struct halo_rtnl_link l;

	link_msg(&m, "rdma0");
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), 1);
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

/* IFLA_AF_SPEC { AF_INET { IFLA_INET_CONF: N u32, promote_secondaries = V } } */
static void put_inet_conf(struct msgbuf *m, size_t n, uint32_t v)
{
	uint8_t b[256] = { 0 };
	struct nlattr *spec = (struct nlattr *)b, *inet = spec + 1, *conf = inet + 1;
	uint32_t *vals = (uint32_t *)(conf + 1);

	assert_true(n * sizeof(uint32_t) + 3 * sizeof(struct nlattr) <= sizeof(b));
	if (n >= IPV4_DEVCONF_PROMOTE_SECONDARIES)
		vals[IPV4_DEVCONF_PROMOTE_SECONDARIES - 1] = v;
	conf->nla_type = IFLA_INET_CONF;
	conf->nla_len = (uint16_t)(sizeof(*conf) + n * sizeof(uint32_t));
	inet->nla_type = AF_INET | NLA_F_NESTED;
	inet->nla_len = (uint16_t)(sizeof(*inet) + conf->nla_len);
	put(m, IFLA_AF_SPEC, inet, inet->nla_len);
}

static void parse_link_promote_secondaries(void **state)
{
	struct msgbuf m;
	struct halo_rtnl_link l;

	link_msg(&m, "eth0");
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), 1);
	assert_int_equal(l.promote_secondaries, -1); /* not said */
	link_msg(&m, "eth0");
	put_inet_conf(&m, IPV4_DEVCONF_MAX, 1);
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), 1);
	assert_int_equal(l.promote_secondaries, 1);
	link_msg(&m, "eth0");
	put_inet_conf(&m, IPV4_DEVCONF_MAX, 0);
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), 1);
	assert_int_equal(l.promote_secondaries, 0);
	/* an array too short to hold it (an older kernel's): unknown */
	link_msg(&m, "eth0");
	put_inet_conf(&m, IPV4_DEVCONF_PROMOTE_SECONDARIES - 1, 1);
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), 1);
	assert_int_equal(l.promote_secondaries, -1);
}

static void parse_link_minimal(void **state)
{
	struct ifinfomsg ifi = { .ifi_index = 3 };
	struct msgbuf m;
	struct halo_rtnl_link l;

	msg_start(&m, RTM_NEWLINK, &ifi, sizeof(ifi));
	put(&m, IFLA_IFNAME, "lo", 3);
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), 1);
	assert_false(l.has_min_mtu);
	assert_false(l.has_max_mtu);
	assert_int_equal(l.carrier, -1);
}

static void parse_link_malformed(void **state)
{
	struct ifinfomsg ifi = { .ifi_index = 3 };
	struct halo_rtnl_link l = { .ifindex = 42 };
	struct msgbuf m;

	/* no name */
	msg_start(&m, RTM_NEWLINK, &ifi, sizeof(ifi));
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), -EBADMSG);
	/* name without NUL */
	put(&m, IFLA_IFNAME, "abc", 3);
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), -EBADMSG);
	/* an empty name (NUL first) */
	msg_start(&m, RTM_NEWLINK, &ifi, sizeof(ifi));
	put(&m, IFLA_IFNAME, "\0bc", 4);
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), -EBADMSG);
	/* name longer than IFNAMSIZ */
	msg_start(&m, RTM_NEWLINK, &ifi, sizeof(ifi));
	put(&m, IFLA_IFNAME, "0123456789abcdefXYZ", 20);
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), -EBADMSG);
	/* header claims more than the buffer holds */
	link_msg(&m, "x");
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len - 4, &l), -EBADMSG);
	/* truncated family header */
	assert_int_equal(halo_rtnl_parse_link(m.b, NLMSG_HDRLEN + 4, &l), -EBADMSG);
	/* attribute length running past the message */
	link_msg(&m, "x");
	((struct nlattr *)(m.b + NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(ifi))))->nla_len = 200;
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), -EBADMSG);
	/* a u32 of the wrong size: the message is malformed */
	msg_start(&m, RTM_NEWLINK, &ifi, sizeof(ifi));
	put(&m, IFLA_IFNAME, "y", 2);
	put(&m, IFLA_MTU, "\x01", 1);
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), -EBADMSG);
	/* a short IFLA_MIN_MTU (read by hand) is ignored, not read past */
	msg_start(&m, RTM_NEWLINK, &ifi, sizeof(ifi));
	put(&m, IFLA_IFNAME, "y", 2);
	put(&m, IFLA_MIN_MTU, "\x01", 1);
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), 1);
	assert_false(l.has_min_mtu);
	/* other message types are not ours, and RET is untouched */
	l.ifindex = 42;
	msg_start(&m, RTM_NEWADDR, &ifi, sizeof(ifi));
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), 0);
	assert_int_equal(l.ifindex, 42);
}

static void parse_addr(void **state)
{
	struct ifaddrmsg ifa = { .ifa_family = AF_INET, .ifa_prefixlen = 30,
				 .ifa_index = 5 };
	struct in_addr local, peer;
	struct msgbuf m;
	struct halo_rtnl_addr a;

	inet_pton(AF_INET, "192.168.100.1", &local);
	inet_pton(AF_INET, "192.168.100.2", &peer);
	msg_start(&m, RTM_NEWADDR, &ifa, sizeof(ifa));
	put(&m, IFA_ADDRESS, &peer, 4); /* point-to-point: peer here */
	put(&m, IFA_LOCAL, &local, 4);
	assert_int_equal(halo_rtnl_parse_addr(m.b, m.len, &a), 1);
	assert_int_equal(a.ifindex, 5);
	assert_int_equal(a.cidr.family, AF_INET);
	assert_int_equal(a.cidr.prefixlen, 30);
	assert_memory_equal(a.cidr.addr, &local, 4);
	assert_true(a.has_peer);
	assert_memory_equal(a.peer, &peer, 4);
	/* IFA_ADDRESS the local address too: no peer */
	msg_start(&m, RTM_NEWADDR, &ifa, sizeof(ifa));
	put(&m, IFA_ADDRESS, &local, 4);
	put(&m, IFA_LOCAL, &local, 4);
	assert_int_equal(halo_rtnl_parse_addr(m.b, m.len, &a), 1);
	assert_false(a.has_peer);

	/* IPv6 has IFA_ADDRESS only */
	struct ifaddrmsg ifa6 = { .ifa_family = AF_INET6, .ifa_prefixlen = 64,
				  .ifa_index = 5, .ifa_scope = RT_SCOPE_LINK };
	struct in6_addr ll;

	inet_pton(AF_INET6, "fe80::1", &ll);
	msg_start(&m, RTM_NEWADDR, &ifa6, sizeof(ifa6));
	put(&m, IFA_ADDRESS, &ll, 16);
	assert_int_equal(halo_rtnl_parse_addr(m.b, m.len, &a), 1);
	assert_int_equal(a.cidr.family, AF_INET6);
	assert_int_equal(a.scope, RT_SCOPE_LINK);
	assert_int_equal(a.flags, 0);

	/* the flags: ifa_flags (8 bits), IFA_FLAGS (32) when sent */
	uint32_t flags = IFA_F_DADFAILED | IFA_F_TENTATIVE | IFA_F_NOPREFIXROUTE;

	ifa6.ifa_flags = IFA_F_DADFAILED | IFA_F_TENTATIVE;
	msg_start(&m, RTM_NEWADDR, &ifa6, sizeof(ifa6));
	put(&m, IFA_ADDRESS, &ll, 16);
	assert_int_equal(halo_rtnl_parse_addr(m.b, m.len, &a), 1);
	assert_int_equal(a.flags, IFA_F_DADFAILED | IFA_F_TENTATIVE);
	put(&m, IFA_FLAGS, &flags, sizeof(flags));
	assert_int_equal(halo_rtnl_parse_addr(m.b, m.len, &a), 1);
	assert_int_equal(a.flags, flags);
	/* an IFA_FLAGS of the wrong size: the message is malformed */
	msg_start(&m, RTM_NEWADDR, &ifa6, sizeof(ifa6));
	put(&m, IFA_ADDRESS, &ll, 16);
	put(&m, IFA_FLAGS, &flags, 2);
	assert_int_equal(halo_rtnl_parse_addr(m.b, m.len, &a), -EBADMSG);

	/* wrong address length, bad prefix, other family */
	msg_start(&m, RTM_NEWADDR, &ifa, sizeof(ifa));
	put(&m, IFA_LOCAL, &ll, 16);
	assert_int_equal(halo_rtnl_parse_addr(m.b, m.len, &a), -EBADMSG);
	ifa.ifa_prefixlen = 33;
	msg_start(&m, RTM_NEWADDR, &ifa, sizeof(ifa));
	put(&m, IFA_LOCAL, &local, 4);
	assert_int_equal(halo_rtnl_parse_addr(m.b, m.len, &a), -EBADMSG);
	ifa.ifa_family = AF_PACKET;
	msg_start(&m, RTM_NEWADDR, &ifa, sizeof(ifa));
	assert_int_equal(halo_rtnl_parse_addr(m.b, m.len, &a), 0);
	/* no address at all */
	ifa.ifa_family = AF_INET;
	ifa.ifa_prefixlen = 24;
	msg_start(&m, RTM_NEWADDR, &ifa, sizeof(ifa));
	assert_int_equal(halo_rtnl_parse_addr(m.b, m.len, &a), -EBADMSG);
}

static void parse_route(void **state)
{
	struct rtmsg rtm = { .rtm_family = AF_INET, .rtm_dst_len = 24,
			     .rtm_table = RT_TABLE_MAIN, .rtm_type = RTN_UNICAST };
	struct in_addr dst, gw;
	struct msgbuf m;
	struct halo_rtnl_route r;

	inet_pton(AF_INET, "10.0.2.0", &dst);
	inet_pton(AF_INET, "192.168.100.2", &gw);
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	put(&m, RTA_DST, &dst, 4);
	put(&m, RTA_GATEWAY, &gw, 4);
	put_u32(&m, RTA_OIF, 9);
	put_u32(&m, RTA_PRIORITY, 100);
	put_u32(&m, RTA_TABLE, RT_TABLE_MAIN);
	assert_int_equal(halo_rtnl_parse_route(m.b, m.len, &r), 1);
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
	assert_int_equal(halo_rtnl_parse_route(m.b, m.len, &r), 1);
	assert_int_equal(r.dst.prefixlen, 0);
	assert_false(r.has_gateway);

	/* local table (RTA_TABLE wins over rtm_table) and non-unicast: skipped */
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	put_u32(&m, RTA_TABLE, RT_TABLE_LOCAL);
	assert_int_equal(halo_rtnl_parse_route(m.b, m.len, &r), 0);
	rtm.rtm_type = RTN_LOCAL;
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	assert_int_equal(halo_rtnl_parse_route(m.b, m.len, &r), 0);

	/* malformed: gateway of the wrong size, dst_len too long */
	rtm.rtm_type = RTN_UNICAST;
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	put(&m, RTA_GATEWAY, &gw, 2);
	assert_int_equal(halo_rtnl_parse_route(m.b, m.len, &r), -EBADMSG);
	rtm.rtm_dst_len = 40;
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	assert_int_equal(halo_rtnl_parse_route(m.b, m.len, &r), -EBADMSG);
}

/* A link message as rtnl_fill_ifinfo lays it out, with IFLA_LINKINFO
 * { IFLA_INFO_KIND, IFLA_INFO_DATA } when KIND (a veth's data holds its
 * peer, VETH_INFO_PEER: a whole ifinfomsg and attributes, never read). */
static void kernel_link_msg(struct msgbuf *m, const char *kind, int carrier)
{
	struct ifinfomsg ifi = { .ifi_index = 12, .ifi_flags = IFF_UP };

	msg_start(m, RTM_NEWLINK, &ifi, sizeof(ifi));
	put(m, IFLA_IFNAME, "veth-a", 7);
	put_u32(m, IFLA_MTU, 1500);
	if (carrier >= 0) {
		uint8_t c = (uint8_t)carrier;

		put(m, IFLA_CARRIER, &c, 1);
	}
	if (kind) {
		struct nlattr *info = nest_start(m, IFLA_LINKINFO), *data, *peer;
		struct ifinfomsg peer_ifi = { .ifi_index = 13 };

		put(m, IFLA_INFO_KIND, kind, strlen(kind) + 1);
		data = nest_start(m, IFLA_INFO_DATA);
		peer = nest_start(m, 1 /* VETH_INFO_PEER */);
		memcpy(m->b + m->len, &peer_ifi, sizeof(peer_ifi));
		m->len += sizeof(peer_ifi);
		put(m, IFLA_IFNAME, "veth-b", 7);
		nest_end(m, peer);
		nest_end(m, data);
		nest_end(m, info);
	}
	put_u32(m, IFLA_MAX_MTU, 65535);
}

static void parse_link_kind(void **state)
{
	struct msgbuf m;
	struct halo_rtnl_link l;

	kernel_link_msg(&m, "veth", 0);
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), 1);
	assert_string_equal(l.name, "veth-a");
	assert_int_equal(l.ifindex, 12);
	assert_int_equal(l.mtu, 1500);
	assert_string_equal(l.kind, "veth");
	assert_int_equal(l.carrier, 0); /* present and 0: no carrier */
	assert_false(l.has_min_mtu);
	assert_true(l.has_max_mtu);
	assert_int_equal(l.max_mtu, 65535);

	/* a physical NIC has no IFLA_LINKINFO: no kind */
	kernel_link_msg(&m, NULL, -1);
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), 1);
	assert_string_equal(l.kind, "");
	assert_int_equal(l.carrier, -1);

	/* the hand-built full message has no kind either */
	link_msg(&m, "rdma0");
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), 1);
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
	struct halo_rtnl_route r;
	struct msgbuf m;

	/* two next hops: no single device or gateway */
	multipath_msg(&m, sizeof(struct rtnexthop), 2);
	assert_int_equal(halo_rtnl_parse_route(m.b, m.len, &r), 1);
	assert_int_equal(r.oif, 0);
	assert_false(r.has_gateway);
	assert_int_equal(r.dst.prefixlen, 24);

	/* a next hop of length 0: a walk that never ends */
	multipath_msg(&m, 0, 2);
	assert_int_equal(halo_rtnl_parse_route(m.b, m.len, &r), -EBADMSG);
	/* shorter than its header */
	multipath_msg(&m, 4, 2);
	assert_int_equal(halo_rtnl_parse_route(m.b, m.len, &r), -EBADMSG);
	/* a second hop claiming more than the attribute holds: malformed,
	 * not a route of one hop (whose device and gateway it would take) */
	multipath_msg(&m, sizeof(struct rtnexthop), 2);
	put_nexthop(&m, m.len - sizeof(struct rtnexthop), 64, 4);
	assert_int_equal(halo_rtnl_parse_route(m.b, m.len, &r), -EBADMSG);
	/* an unaligned length whose padding passes the attribute's end */
	multipath_msg(&m, 8, 1);
	put_nexthop(&m, m.len - 8, 9, 3);
	((struct nlattr *)(m.b + m.len - 8 - NLA_HDRLEN))->nla_len = NLA_HDRLEN + 9;
	m.len += 4; /* the attribute's padding */
	((struct nlmsghdr *)m.b)->nlmsg_len = (uint32_t)m.len;
	assert_int_equal(halo_rtnl_parse_route(m.b, m.len, &r), -EBADMSG);
}

static void parse_route_via(void **state)
{
	struct rtmsg rtm = { .rtm_family = AF_INET, .rtm_dst_len = 0,
			     .rtm_table = RT_TABLE_MAIN, .rtm_type = RTN_UNICAST };
	struct halo_rtnl_route r;
	struct msgbuf m;

	/* RTA_VIA shorter than its family field */
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	put(&m, RTA_VIA, "\x02", 1);
	assert_int_equal(halo_rtnl_parse_route(m.b, m.len, &r), -EBADMSG);
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	put(&m, RTA_VIA, "", 0);
	assert_int_equal(halo_rtnl_parse_route(m.b, m.len, &r), -EBADMSG);
	/* a full one is fine (the route has no gateway of its family) */
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	put(&m, RTA_VIA, "\x02\x00\x0a\x00\x00\x01", 6);
	put_u32(&m, RTA_OIF, 4);
	assert_int_equal(halo_rtnl_parse_route(m.b, m.len, &r), 1);
	assert_int_equal(r.oif, 4);
}


/* Link "x" with IFLA_LINKINFO { IFLA_INFO_KIND of the N bytes KIND };
 * the nest returned. */
static struct nlattr *kind_msg(struct msgbuf *m, const char *kind, size_t n)
{
	struct ifinfomsg ifi = { .ifi_index = 3 };
	struct nlattr *info;

	msg_start(m, RTM_NEWLINK, &ifi, sizeof(ifi));
	put(m, IFLA_IFNAME, "x", 2);
	info = nest_start(m, IFLA_LINKINFO);
	put(m, IFLA_INFO_KIND, kind, n);
	nest_end(m, info);
	return info;
}

static void parse_link_master(void **state)
{
	struct halo_rtnl_link l;
	struct msgbuf m;

	/* a bond's port: IFLA_MASTER names the bond */
	link_msg(&m, "e810a");
	put_u32(&m, IFLA_MASTER, 9);
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), 1);
	assert_int_equal(l.master, 9);
	/* none: 0 */
	link_msg(&m, "e810a");
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), 1);
	assert_int_equal(l.master, 0);
	/* a u16 where a u32 belongs */
	link_msg(&m, "e810a");
	put(&m, IFLA_MASTER, "\x09\x00", 2);
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), -EBADMSG);

	/* the bond itself: its kind */
	kind_msg(&m, "bond", 5);
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), 1);
	assert_string_equal(l.kind, "bond");

	/* a kind without its NUL is malformed; one too long is unknown */
	kind_msg(&m, "bond", 4);
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), -EBADMSG);
	kind_msg(&m, "a-kind-of-exactly-thirty-two-chr", 33);
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), 1);
	assert_string_equal(l.kind, "");
	/* a nest whose attribute runs past it */
	kind_msg(&m, "veth", 5)->nla_len -= 4;
	assert_int_equal(halo_rtnl_parse_link(m.b, m.len, &l), -EBADMSG);
}

/* The answer to an RTM_F_FIB_MATCH lookup: the local route of the
 * address, through the link that holds it. */
static void parse_local(void **state)
{
	struct rtmsg rtm = { .rtm_family = AF_INET, .rtm_dst_len = 32,
			     .rtm_table = RT_TABLE_LOCAL, .rtm_type = RTN_LOCAL,
			     .rtm_scope = RT_SCOPE_HOST };
	struct halo_rtnl_route r;
	struct msgbuf m;
	int ifindex = -1;

	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	put_u32(&m, RTA_TABLE, RT_TABLE_LOCAL);
	put(&m, RTA_DST, "\xc0\xa8\x64\x01", 4);
	put_u32(&m, RTA_OIF, 5);
	assert_int_equal(halo_rtnl_parse_local(m.b, m.len, &ifindex), 1);
	assert_int_equal(ifindex, 5);
	/* not a main-table unicast route */
	assert_int_equal(halo_rtnl_parse_route(m.b, m.len, &r), 0);

	/* a unicast route is no holder; a local one without a device none */
	ifindex = -1;
	rtm.rtm_type = RTN_UNICAST;
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	put_u32(&m, RTA_OIF, 5);
	assert_int_equal(halo_rtnl_parse_local(m.b, m.len, &ifindex), 0);
	rtm.rtm_type = RTN_LOCAL;
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	assert_int_equal(halo_rtnl_parse_local(m.b, m.len, &ifindex), 0);
	assert_int_equal(ifindex, -1);
	/* malformed as any route */
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	put(&m, RTA_OIF, "\x05", 1);
	assert_int_equal(halo_rtnl_parse_local(m.b, m.len, &ifindex), -EBADMSG);
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	put(&m, RTA_VIA, "\x02", 1);
	assert_int_equal(halo_rtnl_parse_local(m.b, m.len, &ifindex), -EBADMSG);
	/* another message type: not ours */
	msg_start(&m, RTM_NEWADDR, &rtm, sizeof(rtm));
	assert_int_equal(halo_rtnl_parse_local(m.b, m.len, &ifindex), 0);
}

/* A multipath route of one next hop: its device and gateway are the
 * route's; a top-level next hop beside an empty RTA_MULTIPATH stays. */
static void parse_route_one_hop(void **state)
{
	struct rtmsg rtm = { .rtm_family = AF_INET, .rtm_dst_len = 24,
			     .rtm_table = RT_TABLE_MAIN, .rtm_type = RTN_UNICAST };
	struct {
		struct rtnexthop rtnh;
		struct nlattr gw;
		uint8_t addr[4];
	} hop = { { .rtnh_len = sizeof(hop), .rtnh_ifindex = 6 },
		  { .nla_len = NLA_HDRLEN + 4, .nla_type = RTA_GATEWAY },
		  { 192, 168, 100, 2 } };
	struct halo_rtnl_route r;
	struct msgbuf m;

	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	put(&m, RTA_DST, "\x0a\x00\x02\x00", 4);
	put(&m, RTA_MULTIPATH, &hop, sizeof(hop));
	assert_int_equal(halo_rtnl_parse_route(m.b, m.len, &r), 1);
	assert_int_equal(r.oif, 6);
	assert_true(r.has_gateway);
	assert_memory_equal(r.gateway.addr, hop.addr, 4);
	/* its gateway of the wrong size */
	hop.gw.nla_len = NLA_HDRLEN + 2;
	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	put(&m, RTA_MULTIPATH, &hop, sizeof(hop));
	assert_int_equal(halo_rtnl_parse_route(m.b, m.len, &r), -EBADMSG);

	msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
	put_u32(&m, RTA_OIF, 4);
	put(&m, RTA_MULTIPATH, "", 0);
	assert_int_equal(halo_rtnl_parse_route(m.b, m.len, &r), 1);
	assert_int_equal(r.oif, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_link_full),
		cmocka_unit_test(parse_link_minimal),
		cmocka_unit_test(parse_link_malformed),
		cmocka_unit_test(parse_link_kind),
		cmocka_unit_test(parse_link_master),
		cmocka_unit_test(parse_link_promote_secondaries),
		cmocka_unit_test(parse_addr),
		cmocka_unit_test(parse_route),
		cmocka_unit_test(parse_route_multipath),
		cmocka_unit_test(parse_route_one_hop),
		cmocka_unit_test(parse_route_via),
		cmocka_unit_test(parse_local),
	};

	return cmocka_run_group_tests_name("netlink-rtnl-parse", tests, NULL, NULL);
}
