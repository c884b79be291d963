/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for src/netlink/rtnl-snapshot.c, through the transport's
 * seam: the GET and dump requests byte for byte with their kernel-side
 * filters (IFLA_EXT_MASK without statistics, IFLA_IFNAME for a link by
 * name, ifa_index in an address dump, the main table and unicast type of
 * the route dump, RTM_F_FIB_MATCH and RTA_DST of a lookup), what the
 * snapshots cover as they are scoped, and when they are fetched again.
 */
#include "config.h"

#include <arpa/inet.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <net/if.h>

#include "rtnl-test.h"

#include "netlink/context.h"
#include "netlink/rtnl.h"


/* The fake host: links 2 "rdma0" and 3 "rdma1" (3 a port of 4), 4
 * "bond0"; 192.168.100.1/30 on 2 and 10.9.9.1/24 on 3. */
static const struct { int ifindex; const char *name, *kind; int master; } host[] = {
	{ 2, "rdma0", NULL, 0 },
	{ 3, "rdma1", NULL, 4 },
	{ 4, "bond0", "bond", 0 },
};

static void add_link(struct msgbuf *out, size_t i)
{
	struct ifinfomsg ifi = { .ifi_index = host[i].ifindex, .ifi_flags = IFF_UP };
	struct msgbuf m;

	msg_start(&m, RTM_NEWLINK, &ifi, sizeof(ifi));
	put(&m, IFLA_IFNAME, host[i].name, strlen(host[i].name) + 1);
	put_u32(&m, IFLA_MTU, 9000);
	if (host[i].master)
		put_u32(&m, IFLA_MASTER, (uint32_t)host[i].master);
	if (host[i].kind) {
		struct nlattr *info = nest_start(&m, IFLA_LINKINFO);

		put(&m, IFLA_INFO_KIND, host[i].kind, strlen(host[i].kind) + 1);
		nest_end(&m, info);
	}
	seam_add(out, &m);
}

static void add_addr(struct msgbuf *out, int ifindex)
{
	struct ifaddrmsg ifa = { .ifa_family = AF_INET, .ifa_index = (uint32_t)ifindex };
	struct msgbuf m;

	ifa.ifa_prefixlen = ifindex == 2 ? 30 : 24;
	msg_start(&m, RTM_NEWADDR, &ifa, sizeof(ifa));
	put(&m, IFA_LOCAL, ifindex == 2 ? "\xc0\xa8\x64\x01" : "\x0a\x09\x09\x01", 4);
	seam_add(out, &m);
}

/* Answers as the kernel would for the fake host. A kernel without strict
 * checking would ignore ifa_index: this one answers every address, and
 * the snapshot must keep only the link's. */
static void reply(struct seam *s, const struct nlmsghdr *req, struct msgbuf *out)
{
	const struct nlattr *a;

	(void)s;
	switch (req->nlmsg_type) {
	case RTM_GETLINK: {
		const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(req);

		a = find_attr(req, sizeof(*ifi), IFLA_IFNAME);
		for (size_t i = 0; i < ARRAY_SIZE(host); i++)
			if ((req->nlmsg_flags & NLM_F_DUMP) ||
			    (a && strcmp(mnl_attr_get_str(a), host[i].name) == 0) ||
			    (!a && ifi->ifi_index == host[i].ifindex))
				add_link(out, i);
		break;
	}
	case RTM_GETADDR:
		add_addr(out, 2);
		add_addr(out, 3);
		break;
	case RTM_GETROUTE: {
		struct rtmsg rtm = { .rtm_family = AF_INET, .rtm_dst_len = 32,
				     .rtm_table = RT_TABLE_LOCAL, .rtm_type = RTN_LOCAL };
		struct msgbuf m;

		if (req->nlmsg_flags & NLM_F_DUMP)
			break;
		a = find_attr(req, sizeof(rtm), RTA_DST);
		if (!a || memcmp(mnl_attr_get_payload(a), "\xc0\xa8\x64\x01", 4) != 0)
			break;
		msg_start(&m, RTM_NEWROUTE, &rtm, sizeof(rtm));
		put_u32(&m, RTA_OIF, 2);
		seam_add(out, &m);
		break;
	}
	}
}

/* The seam answering as the fake host. */
static int host_setup(void **state)
{
	seam_setup(state);
	seam.reply = reply;
	return 0;
}

/* RTM_GETLINK of IFINDEX or NAME, as the kernel's rtnl_getlink reads it:
 * a GET, answered by its message, no ACK asked for. */
static void want_getlink(struct msgbuf *want, int ifindex, const char *name)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = ifindex };
	struct nlmsghdr *nlh = msg_start(want, RTM_GETLINK, &ifi, sizeof(ifi));

	nlh->nlmsg_flags = NLM_F_REQUEST;
	put_u32(want, IFLA_EXT_MASK, RTEXT_FILTER_SKIP_STATS);
	if (name)
		put(want, IFLA_IFNAME, name, strlen(name) + 1);
}

/* Unscoped: one dump of every link, without statistics. */
static void links_dump(void **state)
{
	struct halo_ctx *ctx = *state;
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	const struct halo_rtnl_link *links;
	struct msgbuf want;
	size_t n;

	assert_int_equal(halo_rtnl_links(ctx, &links, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(links[1].master, 4);
	assert_string_equal(links[2].kind, "bond");
	msg_start(&want, RTM_GETLINK, &ifi, sizeof(ifi));
	((struct nlmsghdr *)want.b)->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	put_u32(&want, IFLA_EXT_MASK, RTEXT_FILTER_SKIP_STATS);
	seam_req_equal(&seam, 0, want.b, want.len);
	/* kept: no second request */
	assert_int_equal(halo_rtnl_links(ctx, &links, &n), 0);
	assert_int_equal(ctx->netlink_requests, 1);
	/* a change makes it stale */
	assert_int_equal(halo_rtnl_set_mtu(ctx, 2, 1500), 0);
	assert_int_equal(halo_rtnl_links(ctx, &links, &n), 0);
	assert_int_equal(ctx->netlink_requests, 3);
}

/* Scoped to names: one RTM_GETLINK by name each, a name no link has
 * leaves nothing, a name no link can have is not asked. */
static void links_by_name(void **state)
{
	struct halo_ctx *ctx = *state;
	const char *names[] = { "rdma1", "gone", "a-name-longer-than-ifnamsiz" };
	const struct halo_rtnl_link *links;
	struct msgbuf want;
	size_t n;

	assert_int_equal(halo_rtnl_scope_names(ctx, names, ARRAY_SIZE(names)), 0);
	assert_int_equal(halo_rtnl_links(ctx, &links, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(links[0].name, "rdma1");
	assert_int_equal(ctx->netlink_requests, 2);
	want_getlink(&want, 0, "rdma1");
	seam_req_equal(&seam, 0, want.b, want.len);
	want_getlink(&want, 0, "gone");
	seam_req_equal(&seam, 1, want.b, want.len);
}

/* Scoped to the managed links: links by index, addresses by a dump the
 * kernel filters by ifa_index (and this side too). */
static void scoped_to_ifindexes(void **state)
{
	struct halo_ctx *ctx = *state;
	const int managed[] = { 2, 2 };
	const char *names[] = { "rdma0" };
	struct ifaddrmsg ifa = { .ifa_family = AF_UNSPEC, .ifa_index = 2 };
	const struct halo_rtnl_link *links;
	const struct halo_rtnl_addr *addrs;
	struct halo_cidr c;
	struct msgbuf want;
	size_t n;

	assert_int_equal(halo_rtnl_scope_names(ctx, names, 1), 0);
	assert_int_equal(halo_rtnl_links(ctx, &links, &n), 0);
	assert_int_equal(halo_rtnl_scope_ifindexes(ctx, managed, ARRAY_SIZE(managed)), 0);
	assert_int_equal(halo_rtnl_addrs(ctx, &addrs, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(addrs[0].ifindex, 2);
	assert_int_equal(ctx->netlink_requests, 2); /* the duplicate is asked once */
	msg_start(&want, RTM_GETADDR, &ifa, sizeof(ifa));
	((struct nlmsghdr *)want.b)->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	seam_req_equal(&seam, 1, want.b, want.len);

	/* after an address change, apply still acts on what observe saw;
	 * the next read fetches again */
	assert_int_equal(halo_cidr_parse("192.168.100.5/30", true, &c), 0);
	assert_int_equal(halo_rtnl_addr_add(ctx, 2, &c), 0);
	assert_int_equal(halo_rtnl_addrs_observed(ctx, &addrs, &n), 0);
	assert_int_equal(ctx->netlink_requests, 3);
	assert_int_equal(halo_rtnl_addrs(ctx, &addrs, &n), 0);
	assert_int_equal(ctx->netlink_requests, 4);

	/* a stale link snapshot is fetched by index now */
	assert_int_equal(halo_rtnl_set_up(ctx, 2), 0);
	assert_int_equal(halo_rtnl_links(ctx, &links, &n), 0);
	assert_int_equal(n, 1);
	want_getlink(&want, 2, NULL);
	seam_req_equal(&seam, 5, want.b, want.len);

	/* unscoped again: the next read is a dump */
	halo_rtnl_unscope(ctx);
	assert_int_equal(halo_rtnl_links(ctx, &links, &n), 0);
	assert_int_equal(n, 3);
	assert_true(seam_req(&seam, 6)->nlmsg_flags & NLM_F_DUMP);
}

/* Routes: one dump of the main table's unicast routes. */
static void routes_dump(void **state)
{
	struct halo_ctx *ctx = *state;
	struct rtmsg rtm = { .rtm_family = AF_UNSPEC, .rtm_table = RT_TABLE_MAIN,
			     .rtm_type = RTN_UNICAST };
	const struct halo_rtnl_route *routes;
	struct msgbuf want;
	size_t n;

	assert_int_equal(halo_rtnl_routes(ctx, &routes, &n), 0);
	assert_int_equal(n, 0);
	msg_start(&want, RTM_GETROUTE, &rtm, sizeof(rtm));
	((struct nlmsghdr *)want.b)->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	seam_req_equal(&seam, 0, want.b, want.len);
}

/* An address's holder: one FIB-match lookup of its host route. */
static void addr_holder(void **state)
{
	struct halo_ctx *ctx = *state;
	struct rtmsg rtm = { .rtm_family = AF_INET, .rtm_dst_len = 32,
			     .rtm_flags = RTM_F_FIB_MATCH };
	struct halo_cidr c;
	struct msgbuf want;
	int holder = -1;

	assert_int_equal(halo_cidr_parse("192.168.100.1/30", true, &c), 0);
	assert_int_equal(halo_rtnl_addr_holder(ctx, &c, &holder), 0);
	assert_int_equal(holder, 2);
	msg_start(&want, RTM_GETROUTE, &rtm, sizeof(rtm));
	((struct nlmsghdr *)want.b)->nlmsg_flags = NLM_F_REQUEST;
	put(&want, RTA_DST, c.addr, 4);
	seam_req_equal(&seam, 0, want.b, want.len);

	/* nobody: no answer, or no route at all */
	assert_int_equal(halo_cidr_parse("10.1.1.1/24", true, &c), 0);
	assert_int_equal(halo_rtnl_addr_holder(ctx, &c, &holder), 0);
	assert_int_equal(holder, 0);
	seam.answer = -ENETUNREACH;
	assert_int_equal(halo_rtnl_addr_holder(ctx, &c, &holder), 0);
	assert_int_equal(holder, 0);
	seam.answer = -EPERM;
	assert_int_equal(halo_rtnl_addr_holder(ctx, &c, &holder), -EPERM);
}

/* A link fetched now, whatever the snapshot holds; its name by lookup. */
static void link_fetch_and_lookup(void **state)
{
	struct halo_ctx *ctx = *state;
	const char *names[] = { "rdma1" };
	struct halo_rtnl_link l;
	struct msgbuf want;
	char name[IF_NAMESIZE];

	assert_int_equal(halo_rtnl_link_fetch(ctx, 4, &l), 0);
	assert_string_equal(l.name, "bond0");
	want_getlink(&want, 4, NULL);
	seam_req_equal(&seam, 0, want.b, want.len);
	assert_int_equal(halo_rtnl_link_fetch(ctx, 99, &l), -ENODEV);
	assert_int_equal(halo_rtnl_link_fetch(ctx, 0, &l), -ENODEV);
	assert_int_equal(ctx->netlink_requests, 2);

	/* in the snapshot: no request; not in it: one */
	assert_int_equal(halo_rtnl_scope_names(ctx, names, 1), 0);
	assert_int_equal(halo_rtnl_link_name(ctx, 3, name), 0);
	assert_string_equal(name, "rdma1");
	assert_int_equal(ctx->netlink_requests, 3);
	assert_int_equal(halo_rtnl_link_lookup(ctx, 4, &l), 0);
	assert_string_equal(l.kind, "bond");
	assert_int_equal(ctx->netlink_requests, 4);
	seam.answer = -ENODEV;
	assert_int_equal(halo_rtnl_link_name(ctx, 9, name), -ENODEV);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(links_dump, host_setup, seam_teardown),
		cmocka_unit_test_setup_teardown(links_by_name, host_setup, seam_teardown),
		cmocka_unit_test_setup_teardown(scoped_to_ifindexes, host_setup, seam_teardown),
		cmocka_unit_test_setup_teardown(routes_dump, host_setup, seam_teardown),
		cmocka_unit_test_setup_teardown(addr_holder, host_setup, seam_teardown),
		cmocka_unit_test_setup_teardown(link_fetch_and_lookup, host_setup, seam_teardown),
	};

	return cmocka_run_group_tests_name("netlink-rtnl-snapshot", tests, NULL, NULL);
}
