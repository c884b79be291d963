/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-netlink.c: the rtnetlink reply parsers of src/netlink/rtnl-parse.c
 * (halo_rtnl_parse_link/_addr/_route/_local). Regression inputs in the
 * corpus: a zero-length RTA_MULTIPATH next hop, a short RTA_VIA, a veth's
 * own data (VETH_INFO_PEER). Input: a dump reply as the kernel sends it,
 * one or more messages back to back; each is given to every parser, with
 * its own nlmsg_len as the length (as the dump callback does) and with
 * the rest of the buffer.
 *
 * Properties: results 1, 0 or -EBADMSG; a parsed name is NUL-terminated
 * inside IF_NAMESIZE and not empty; lengths, indexes and prefixes in
 * range; formatting the parsed values never overflows.
 *
 * The same input is then the whole reply to one request of the netlink
 * transport (src/netlink/transport.c, answered through its test seam):
 * its reading of ACKs, errors, extended ACKs, DONE and verdict attributes
 * ends with 0 or a negative errno, and the kept message is a string.
 */
#include "config.h"

#include <errno.h>
#include <linux/netlink.h>
#include <sys/socket.h>

#include "config/cidr.h"
#include "fuzz/fuzz.h"
#include "host/match.h"
#include "netlink/rtnl.h"
#include "netlink/transport.h"

static void check_cidr(const struct halo_cidr *c)
{
	char buf[64];

	FUZZ_CHECK(c->family == AF_INET || c->family == AF_INET6);
	FUZZ_CHECK(c->prefixlen <= (c->family == AF_INET ? 32 : 128));
	halo_cidr_format(c, buf, sizeof(buf));
	FUZZ_CHECK(memchr(buf, '\0', sizeof(buf)));
}

static void parse_all(const void *msg, size_t len)
{
	struct halo_rtnl_link l;
	struct halo_rtnl_addr a;
	struct halo_rtnl_route rt;
	char mac[3 * HALO_RTNL_HWADDR_MAX + 1];
	int r, ifindex;

	r = halo_rtnl_parse_link(msg, len, &l);
	FUZZ_CHECK(r == 1 || r == 0 || r == -EBADMSG);
	if (r == 1) {
		FUZZ_CHECK(l.ifindex > 0 && l.master >= 0);
		FUZZ_CHECK(memchr(l.name, '\0', sizeof(l.name)) && l.name[0]);
		FUZZ_CHECK(l.mac_len <= HALO_RTNL_HWADDR_MAX);
		FUZZ_CHECK(l.perm_mac_len <= HALO_RTNL_HWADDR_MAX);
		FUZZ_CHECK(l.carrier >= -1 && l.carrier <= 1);
		FUZZ_CHECK(memchr(l.kind, '\0', sizeof(l.kind)));
		halo_hwaddr_format(l.mac, l.mac_len, mac, sizeof(mac));
		FUZZ_CHECK(strlen(mac) == (l.mac_len ? 3 * l.mac_len - 1 : 0));
		halo_hwaddr_format(l.perm_mac, l.perm_mac_len, mac, sizeof(mac));
	}
	r = halo_rtnl_parse_addr(msg, len, &a);
	FUZZ_CHECK(r == 1 || r == 0 || r == -EBADMSG);
	if (r == 1)
		check_cidr(&a.cidr);
	r = halo_rtnl_parse_route(msg, len, &rt);
	FUZZ_CHECK(r == 1 || r == 0 || r == -EBADMSG);
	if (r == 1) {
		check_cidr(&rt.dst);
		if (rt.has_gateway)
			check_cidr(&rt.gateway);
		FUZZ_CHECK(rt.table == 254 && rt.oif >= 0);
	}
	r = halo_rtnl_parse_local(msg, len, &ifindex);
	FUZZ_CHECK(r == 1 || r == 0 || r == -EBADMSG);
	if (r == 1)
		FUZZ_CHECK(ifindex > 0);
}

/* Answers with the fuzz input, every message given the request's sequence
 * number (a kernel answer always has it; others are skipped unread). */
static int reply_io(void *userdata, enum halo_nlt_proto proto,
		    const struct nlmsghdr *req, size_t len, void *out, size_t size)
{
	const struct fuzz_reply *r = userdata;

	(void)proto;
	(void)len;
	return fuzz_reply_copy(r, req, out, size);
}

static int count_msg(const struct nlmsghdr *nlh, void *userdata)
{
	(void)nlh;
	++*(size_t *)userdata;
	return 0;
}

static void transport_read(const uint8_t *data, size_t size, bool dump)
{
	const struct halo_nlt_verdict verdict = { .hdrlen = 4, .attr = 1 };
	struct nlmsghdr req = { .nlmsg_len = NLMSG_HDRLEN, .nlmsg_type = 18,
				.nlmsg_flags = dump ? NLM_F_DUMP : 0 };
	struct fuzz_reply r = { data, size };
	struct halo_nlt *t = NULL;
	unsigned long counter = 0;
	size_t seen = 0;
	int err;

	if (halo_nlt_new(&counter, &t) < 0)
		abort();
	halo_nlt_set_io(t, reply_io, &r);
	err = halo_nlt_request(t, dump ? HALO_NLT_ROUTE : HALO_NLT_DCB, &req,
			       count_msg, &seen, dump ? NULL : &verdict);
	FUZZ_CHECK(err <= 0);
	FUZZ_CHECK(counter == 1);
	fuzz_check_extack(halo_nlt_extack(t));
	halo_nlt_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf = fuzz_copy(data, size);

	fuzz_each_message(buf, size, parse_all);
	transport_read(buf, size, true);
	transport_read(buf, size, false);
	free(buf);
	return 0;
}
