/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the netlink reply parsers of src/net/nl.c: messages built
 * by hand from the kernel UAPI layouts, good and malformed. */
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

#include "net/nl.h"

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
		cmocka_unit_test(netns_names),
	};

	return cmocka_run_group_tests_name("net-nl", tests, NULL, NULL);
}
