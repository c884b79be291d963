/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for src/netlink/rtnl-change.c: each change request byte for
 * byte against the kernel UAPI layouts (struct nlmsghdr, ifinfomsg,
 * ifaddrmsg, rtmsg, nlattr) and against the bytes libnl-route 3.7's
 * rtnl_link_build_change_request, rtnl_addr_build_add_request /
 * _delete_request and rtnl_route_build_add_request made for the same
 * change (recorded; the kernel sees what it saw before); then the changes
 * through the transport's seam: counted, acknowledged, the kernel's errno
 * returned as is.
 */
#include "config.h"

#include <arpa/inet.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>

#include "rtnl-test.h"

#include "netlink/context.h"
#include "netlink/rtnl.h"

/* ---- the expected messages, from the UAPI structs ---- */

static void want_start(struct msgbuf *m, uint16_t type, uint16_t flags,
		       const void *hdr, size_t hdrlen)
{
	struct nlmsghdr *nlh = msg_start(m, type, hdr, hdrlen);

	nlh->nlmsg_flags = flags;
}

/* The request built by a builder, its length checked. */
struct built {
	char buf[HALO_RTNL_REQ_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
};

static void same(const struct built *b, const struct msgbuf *want)
{
	assert_non_null(b->nlh);
	assert_ptr_equal(b->nlh, b->buf);
	assert_int_equal(b->nlh->nlmsg_len, want->len);
	assert_memory_equal(b->buf, want->b, want->len);
}

/* HEX: the recorded bytes (on this little-endian architecture), in
 * memory order, four to a group. */
static void same_hex(const struct built *b, const char *hex)
{
	unsigned char want[HALO_RTNL_REQ_SIZE];
	size_t n = 0;

	for (const char *p = hex; *p;) {
		unsigned v;

		if (*p == ' ') {
			p++;
			continue;
		}
		assert_int_equal(sscanf(p, "%2x", &v), 1);
		want[n++] = (unsigned char)v;
		p += 2;
	}
	assert_int_equal(b->nlh->nlmsg_len, n);
	/* The recording was made before the transport set NLM_F_REQUEST and
	 * NLM_F_ACK, which the builders set themselves. */
	want[4 + 2] |= (NLM_F_REQUEST | NLM_F_ACK) & 0xff;
	assert_memory_equal(b->buf, want, n);
}

static struct halo_cidr cidr(const char *s)
{
	struct halo_cidr c;

	assert_int_equal(halo_cidr_parse(s, true, &c), 0);
	return c;
}

static void build_link(void **state)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = 7 };
	struct msgbuf want;
	struct built b;

	/* MTU: the index names the link, no flag changes */
	assert_int_equal(halo_rtnl_req_mtu(b.buf, sizeof(b.buf), 7, 9000, &b.nlh), 0);
	want_start(&want, RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK, &ifi, sizeof(ifi));
	put_u32(&want, IFLA_MTU, 9000);
	same(&b, &want);
	same_hex(&b, "28000000 10000000 00000000 00000000 00000000 07000000 00000000 "
		     "00000000 08000400 28230000");

	/* up: IFF_UP in flags and change mask, no attribute */
	assert_int_equal(halo_rtnl_req_up(b.buf, sizeof(b.buf), 7, &b.nlh), 0);
	ifi.ifi_flags = IFF_UP;
	ifi.ifi_change = IFF_UP;
	want_start(&want, RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK, &ifi, sizeof(ifi));
	same(&b, &want);
	same_hex(&b, "20000000 10000000 00000000 00000000 00000000 07000000 01000000 "
		     "01000000");
}

static void build_addr(void **state)
{
	struct halo_cidr c = cidr("192.168.100.1/30"), c6 = cidr("fd00::1/64");
	struct ifaddrmsg ifa = { .ifa_family = AF_INET, .ifa_prefixlen = 30,
				 .ifa_scope = RT_SCOPE_UNIVERSE, .ifa_index = 5 };
	const uint8_t brd[4] = { 192, 168, 100, 3 };
	struct msgbuf want;
	struct built b;

	/* add: CREATE|EXCL (an existing address is -EEXIST), IFA_LOCAL and
	 * IFA_ADDRESS the same (no peer), the broadcast address */
	assert_int_equal(halo_rtnl_req_addr(b.buf, sizeof(b.buf), true, 5, &c, &b.nlh), 0);
	want_start(&want, RTM_NEWADDR,
		   NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL, &ifa, sizeof(ifa));
	put(&want, IFA_LOCAL, c.addr, 4);
	put(&want, IFA_ADDRESS, c.addr, 4);
	put(&want, IFA_BROADCAST, brd, 4);
	same(&b, &want);
	same_hex(&b, "30000000 14000006 00000000 00000000 021e0000 05000000 08000200 "
		     "c0a86401 08000100 c0a86401 08000400 c0a86403");

	/* delete: no broadcast, no CREATE */
	assert_int_equal(halo_rtnl_req_addr(b.buf, sizeof(b.buf), false, 5, &c, &b.nlh), 0);
	want_start(&want, RTM_DELADDR, NLM_F_REQUEST | NLM_F_ACK, &ifa, sizeof(ifa));
	put(&want, IFA_LOCAL, c.addr, 4);
	put(&want, IFA_ADDRESS, c.addr, 4);
	same(&b, &want);
	same_hex(&b, "28000000 15000000 00000000 00000000 021e0000 05000000 08000200 "
		     "c0a86401 08000100 c0a86401");

	/* /31 and /32 have no broadcast address (RFC 3021) */
	c.prefixlen = 31;
	assert_int_equal(halo_rtnl_req_addr(b.buf, sizeof(b.buf), true, 5, &c, &b.nlh), 0);
	assert_null(find_attr(b.nlh, sizeof(ifa), IFA_BROADCAST));
	c.prefixlen = 24;
	assert_int_equal(halo_rtnl_req_addr(b.buf, sizeof(b.buf), true, 5, &c, &b.nlh), 0);
	assert_memory_equal(mnl_attr_get_payload(find_attr(b.nlh, sizeof(ifa), IFA_BROADCAST)),
			    "\xc0\xa8\x64\xff", 4);

	/* IPv6: no broadcast either */
	ifa.ifa_family = AF_INET6;
	ifa.ifa_prefixlen = 64;
	assert_int_equal(halo_rtnl_req_addr(b.buf, sizeof(b.buf), true, 5, &c6, &b.nlh), 0);
	want_start(&want, RTM_NEWADDR,
		   NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL, &ifa, sizeof(ifa));
	put(&want, IFA_LOCAL, c6.addr, 16);
	put(&want, IFA_ADDRESS, c6.addr, 16);
	same(&b, &want);
	same_hex(&b, "40000000 14000006 00000000 00000000 0a400000 05000000 14000200 "
		     "fd000000 00000000 00000000 00000001 14000100 fd000000 00000000 "
		     "00000000 00000001");
}

static void build_route(void **state)
{
	struct halo_cidr dst = cidr("10.0.2.0/24"), gw = cidr("192.168.100.2/32"),
			 def = cidr("0.0.0.0/0"), dst6 = cidr("fd01::/48"),
			 gw6 = cidr("fd00::2/128");
	struct rtmsg rtm = { .rtm_family = AF_INET, .rtm_dst_len = 24,
			     .rtm_table = RT_TABLE_MAIN, .rtm_protocol = RTPROT_STATIC,
			     .rtm_scope = RT_SCOPE_UNIVERSE, .rtm_type = RTN_UNICAST };
	const uint16_t flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_REPLACE;
	struct msgbuf want;
	struct built b;

	/* through a gateway, with a metric: scope universe */
	assert_int_equal(halo_rtnl_req_route(b.buf, sizeof(b.buf), 9, &dst, &gw, 50, &b.nlh), 0);
	want_start(&want, RTM_NEWROUTE, flags, &rtm, sizeof(rtm));
	put_u32(&want, RTA_TABLE, RT_TABLE_MAIN);
	put(&want, RTA_DST, dst.addr, 4);
	put_u32(&want, RTA_PRIORITY, 50);
	put(&want, RTA_GATEWAY, gw.addr, 4);
	put_u32(&want, RTA_OIF, 9);
	same(&b, &want);
	same_hex(&b, "44000000 18000005 00000000 00000000 02180000 fe040001 00000000 "
		     "08000f00 fe000000 08000100 0a000200 08000600 32000000 08000500 "
		     "c0a86402 08000400 09000000");

	/* the default route on the link: no RTA_DST, scope link, no metric */
	assert_int_equal(halo_rtnl_req_route(b.buf, sizeof(b.buf), 9, &def, NULL, 0, &b.nlh), 0);
	rtm.rtm_dst_len = 0;
	rtm.rtm_scope = RT_SCOPE_LINK;
	want_start(&want, RTM_NEWROUTE, flags, &rtm, sizeof(rtm));
	put_u32(&want, RTA_TABLE, RT_TABLE_MAIN);
	put_u32(&want, RTA_OIF, 9);
	same(&b, &want);
	same_hex(&b, "2c000000 18000005 00000000 00000000 02000000 fe04fd01 00000000 "
		     "08000f00 fe000000 08000400 09000000");

	/* IPv6 */
	assert_int_equal(halo_rtnl_req_route(b.buf, sizeof(b.buf), 9, &dst6, &gw6, 50, &b.nlh), 0);
	same_hex(&b, "5c000000 18000005 00000000 00000000 0a300000 fe040001 00000000 "
		     "08000f00 fe000000 14000100 fd010000 00000000 00000000 00000000 "
		     "08000600 32000000 14000500 fd000000 00000000 00000000 00000002 "
		     "08000400 09000000");

	/* what was built parses back to the same route */
	struct halo_rtnl_route r;

	assert_int_equal(halo_rtnl_req_route(b.buf, sizeof(b.buf), 9, &dst, &gw, 50, &b.nlh), 0);
	assert_int_equal(halo_rtnl_parse_route(b.buf, b.nlh->nlmsg_len, &r), 1);
	assert_int_equal(r.oif, 9);
	assert_int_equal(r.priority, 50);
	assert_true(r.has_gateway);
	assert_memory_equal(r.gateway.addr, gw.addr, 4);
	assert_memory_equal(r.dst.addr, dst.addr, 4);
	assert_int_equal(r.dst.prefixlen, 24);
}

/* RTM_DELADDR of an address as a dump showed it: a peer address sends
 * its peer as IFA_ADDRESS, any other its own address. */
static void build_addr_del(void **state)
{
	struct halo_rtnl_addr a = { .ifindex = 5, .cidr = cidr("10.8.0.1/32"),
				    .has_peer = true, .peer = { 10, 8, 0, 2 } };
	struct ifaddrmsg ifa = { .ifa_family = AF_INET, .ifa_prefixlen = 32,
				 .ifa_scope = RT_SCOPE_UNIVERSE, .ifa_index = 5 };
	struct msgbuf want;
	struct built b;

	assert_int_equal(halo_rtnl_req_addr_del(b.buf, sizeof(b.buf), &a, &b.nlh), 0);
	want_start(&want, RTM_DELADDR, NLM_F_REQUEST | NLM_F_ACK, &ifa, sizeof(ifa));
	put(&want, IFA_LOCAL, a.cidr.addr, 4);
	put(&want, IFA_ADDRESS, a.peer, 4);
	same(&b, &want);
	a.has_peer = false;
	assert_int_equal(halo_rtnl_req_addr_del(b.buf, sizeof(b.buf), &a, &b.nlh), 0);
	want_start(&want, RTM_DELADDR, NLM_F_REQUEST | NLM_F_ACK, &ifa, sizeof(ifa));
	put(&want, IFA_LOCAL, a.cidr.addr, 4);
	put(&want, IFA_ADDRESS, a.cidr.addr, 4);
	same(&b, &want);
	/* a peer only IPv4 has */
	a.has_peer = true;
	a.cidr = cidr("fd00::1/128");
	assert_int_equal(halo_rtnl_req_addr_del(b.buf, sizeof(b.buf), &a, &b.nlh), -EINVAL);
}

/* RTM_DELROUTE of a route as a dump showed it: any scope, no create or
 * replace flags, the metric, gateway and link that single it out. */
static void build_route_del(void **state)
{
	struct halo_rtnl_route r = { .dst = cidr("10.0.2.0/24"), .has_gateway = true,
				     .gateway = cidr("192.168.100.2/32"), .oif = 9,
				     .priority = 100, .table = RT_TABLE_MAIN };
	struct rtmsg rtm = { .rtm_family = AF_INET, .rtm_dst_len = 24,
			     .rtm_table = RT_TABLE_MAIN, .rtm_scope = RT_SCOPE_NOWHERE };
	struct msgbuf want;
	struct built b;

	assert_int_equal(halo_rtnl_req_route_del(b.buf, sizeof(b.buf), &r, &b.nlh), 0);
	want_start(&want, RTM_DELROUTE, NLM_F_REQUEST | NLM_F_ACK, &rtm, sizeof(rtm));
	put_u32(&want, RTA_TABLE, RT_TABLE_MAIN);
	put(&want, RTA_DST, r.dst.addr, 4);
	put_u32(&want, RTA_PRIORITY, 100);
	put(&want, RTA_GATEWAY, r.gateway.addr, 4);
	put_u32(&want, RTA_OIF, 9);
	same(&b, &want);
	/* a default route on the link, metric 0: neither attribute */
	r = (struct halo_rtnl_route){ .dst = cidr("0.0.0.0/0"), .oif = 9 };
	rtm.rtm_dst_len = 0;
	assert_int_equal(halo_rtnl_req_route_del(b.buf, sizeof(b.buf), &r, &b.nlh), 0);
	want_start(&want, RTM_DELROUTE, NLM_F_REQUEST | NLM_F_ACK, &rtm, sizeof(rtm));
	put_u32(&want, RTA_TABLE, RT_TABLE_MAIN);
	put_u32(&want, RTA_OIF, 9);
	same(&b, &want);
	/* what cannot be a dumped route of a link is refused */
	r.oif = 0;
	assert_int_equal(halo_rtnl_req_route_del(b.buf, sizeof(b.buf), &r, &b.nlh), -EINVAL);
	r.oif = 9;
	r.has_gateway = true;
	r.gateway = cidr("fd00::2/128");
	assert_int_equal(halo_rtnl_req_route_del(b.buf, sizeof(b.buf), &r, &b.nlh), -EINVAL);
}

static void build_errors(void **state)
{
	struct halo_cidr c = cidr("192.168.100.1/30"), c6 = cidr("fd00::1/64");
	struct built b = { .nlh = NULL };
	char small[40] __attribute__((aligned(4)));

	/* no link 0; no other family; no mixed families */
	assert_int_equal(halo_rtnl_req_mtu(b.buf, sizeof(b.buf), 0, 9000, &b.nlh), -EINVAL);
	assert_int_equal(halo_rtnl_req_up(b.buf, sizeof(b.buf), -1, &b.nlh), -EINVAL);
	assert_int_equal(halo_rtnl_req_addr(b.buf, sizeof(b.buf), true, 0, &c, &b.nlh), -EINVAL);
	c.family = AF_PACKET;
	assert_int_equal(halo_rtnl_req_addr(b.buf, sizeof(b.buf), true, 5, &c, &b.nlh), -EINVAL);
	c.family = AF_INET;
	assert_int_equal(halo_rtnl_req_route(b.buf, sizeof(b.buf), 9, &c, &c6, 0, &b.nlh), -EINVAL);
	assert_null(b.nlh);
	/* too small a buffer: -EMSGSIZE, never a write past it */
	assert_int_equal(halo_rtnl_req_mtu(small, 36, 7, 9000, &b.nlh), -EMSGSIZE);
	assert_int_equal(halo_rtnl_req_addr(small, sizeof(small), true, 5, &c, &b.nlh), -EMSGSIZE);
	assert_int_equal(halo_rtnl_req_up(small, 16, 7, &b.nlh), -EMSGSIZE);
	assert_null(b.nlh);
}

/* ---- through the transport's seam ---- */

/* Each change is one request, the builder's bytes, acknowledged. */
static void changes_sent(void **state)
{
	struct halo_ctx *ctx = *state;
	struct halo_cidr c = cidr("192.168.100.1/30"), dst = cidr("10.0.2.0/24"),
			 gw = cidr("192.168.100.2/32");
	struct built b;

	assert_int_equal(halo_rtnl_set_mtu(ctx, 7, 9000), 0);
	assert_int_equal(halo_rtnl_req_mtu(b.buf, sizeof(b.buf), 7, 9000, &b.nlh), 0);
	seam_req_equal(&seam, 0, b.buf, b.nlh->nlmsg_len);
	assert_int_equal(halo_rtnl_set_up(ctx, 7), 0);
	assert_int_equal(halo_rtnl_req_up(b.buf, sizeof(b.buf), 7, &b.nlh), 0);
	seam_req_equal(&seam, 1, b.buf, b.nlh->nlmsg_len);
	assert_int_equal(halo_rtnl_addr_add(ctx, 5, &c), 0);
	assert_int_equal(halo_rtnl_req_addr(b.buf, sizeof(b.buf), true, 5, &c, &b.nlh), 0);
	seam_req_equal(&seam, 2, b.buf, b.nlh->nlmsg_len);
	struct halo_rtnl_addr seen = { .ifindex = 5, .cidr = c };

	assert_int_equal(halo_rtnl_addr_del(ctx, &seen), 0);
	assert_int_equal(halo_rtnl_req_addr(b.buf, sizeof(b.buf), false, 5, &c, &b.nlh), 0);
	seam_req_equal(&seam, 3, b.buf, b.nlh->nlmsg_len);
	assert_int_equal(halo_rtnl_route_replace(ctx, 9, &dst, &gw, 50), 0);
	assert_int_equal(halo_rtnl_req_route(b.buf, sizeof(b.buf), 9, &dst, &gw, 50, &b.nlh), 0);
	seam_req_equal(&seam, 4, b.buf, b.nlh->nlmsg_len);
	assert_int_equal(ctx->netlink_requests, 5);
	/* every request has its own sequence number */
	assert_int_not_equal(seam_req(&seam, 3)->nlmsg_seq, seam_req(&seam, 4)->nlmsg_seq);
}

/* The kernel's errno comes back as is: -EEXIST for an address already
 * there (the caller decides it is success), -EINVAL for an MTU out of
 * range; a request that cannot be built is never sent. */
static void changes_errors(void **state)
{
	struct halo_ctx *ctx = *state;
	struct halo_cidr c = cidr("192.168.100.1/30");

	seam.answer = -EEXIST;
	assert_int_equal(halo_rtnl_addr_add(ctx, 5, &c), -EEXIST);
	seam.answer = -EINVAL;
	assert_int_equal(halo_rtnl_set_mtu(ctx, 7, 70000), -EINVAL);
	assert_int_equal(ctx->netlink_requests, 2);
	seam.answer = 0;
	assert_int_equal(halo_rtnl_set_mtu(ctx, 0, 9000), -EINVAL);
	assert_int_equal(ctx->netlink_requests, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(build_link),
		cmocka_unit_test(build_addr),
		cmocka_unit_test(build_route),
		cmocka_unit_test(build_route_del),
		cmocka_unit_test(build_addr_del),
		cmocka_unit_test(build_errors),
		cmocka_unit_test_setup_teardown(changes_sent, seam_setup, seam_teardown),
		cmocka_unit_test_setup_teardown(changes_errors, seam_setup, seam_teardown),
	};

	return cmocka_run_group_tests_name("netlink-rtnl-change", tests, NULL, NULL);
}
