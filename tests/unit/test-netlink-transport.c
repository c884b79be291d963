/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/netlink/transport.c: a fake kernel answers through
 * the seam (ACK, errors with extended ACK, a dcbnl-style verdict, an
 * interrupted dump, family resolution), then the real kernel of the
 * test's network namespace. */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <dirent.h>
#include <linux/dcbnl.h>
#include <linux/genetlink.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sys/socket.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "netlink/transport.h"

/* What the fake kernel answers: a list of messages it builds per request. */
enum answer { ANS_DATA_ACK, ANS_DATA, ANS_ERROR_EXTACK, ANS_VERDICT, ANS_DUMP_INTR,
	      ANS_DONE_ERROR, ANS_FAMILY, ANS_NONE, ANS_HUGE_LEN };

struct fake {
	enum answer answer;
	uint8_t verdict;
	int requests;
	uint16_t last_type;
	uint16_t last_flags;
};

static struct nlmsghdr *put_msg(char *buf, size_t *off, uint16_t type,
				uint16_t flags, uint32_t seq)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf + *off);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = seq;
	return nlh;
}

static void end_msg(struct nlmsghdr *nlh, size_t *off)
{
	*off += MNL_ALIGN(nlh->nlmsg_len);
}

static void put_err(char *buf, size_t *off, const struct nlmsghdr *req,
		    int error, const char *msg)
{
	struct nlmsghdr *nlh = put_msg(buf, off, NLMSG_ERROR,
				       NLM_F_CAPPED | (msg ? NLM_F_ACK_TLVS : 0),
				       req->nlmsg_seq);
	struct nlmsgerr *e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));

	e->error = error;
	e->msg = *req;
	if (msg)
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, msg);
	end_msg(nlh, off);
}

static int fake_io(void *userdata, enum halo_nlt_proto proto,
		   const struct nlmsghdr *req, size_t len, void *out, size_t size)
{
	struct fake *f = userdata;
	char *buf = out;
	size_t off = 0;
	struct nlmsghdr *nlh;

	(void)proto;
	assert_int_equal(len, req->nlmsg_len);
	assert_true(size >= 4096);
	f->requests++;
	f->last_type = req->nlmsg_type;
	f->last_flags = req->nlmsg_flags;
	memset(buf, 0, 4096);
	switch (f->answer) {
	case ANS_DATA_ACK:
	case ANS_DATA: /* a GET that asked for no ACK gets none */
		nlh = put_msg(buf, &off, RTM_NEWLINK, 0, req->nlmsg_seq);
		mnl_nlmsg_put_extra_header(nlh, sizeof(struct ifinfomsg));
		mnl_attr_put_strz(nlh, IFLA_IFNAME, "rdma0");
		end_msg(nlh, &off);
		if (f->answer == ANS_DATA_ACK)
			put_err(buf, &off, req, 0, NULL);
		break;
	case ANS_ERROR_EXTACK:
		put_err(buf, &off, req, -EOPNOTSUPP, "device does not support this");
		break;
	case ANS_VERDICT: /* dcbnl: struct dcbmsg (4 bytes), then a u8 status */
		nlh = put_msg(buf, &off, RTM_SETDCB, 0, req->nlmsg_seq);
		mnl_nlmsg_put_extra_header(nlh, 4);
		mnl_attr_put_u8(nlh, 13 /* DCB_ATTR_IEEE */, f->verdict);
		end_msg(nlh, &off);
		put_err(buf, &off, req, 0, NULL);
		break;
	case ANS_DUMP_INTR:
		nlh = put_msg(buf, &off, RTM_NEWLINK, NLM_F_MULTI | NLM_F_DUMP_INTR,
			      req->nlmsg_seq);
		mnl_nlmsg_put_extra_header(nlh, sizeof(struct ifinfomsg));
		end_msg(nlh, &off);
		nlh = put_msg(buf, &off, NLMSG_DONE, NLM_F_MULTI, req->nlmsg_seq);
		*(int *)mnl_nlmsg_put_extra_header(nlh, sizeof(int)) = 0;
		end_msg(nlh, &off);
		break;
	case ANS_DONE_ERROR:
		nlh = put_msg(buf, &off, NLMSG_DONE, NLM_F_MULTI | NLM_F_ACK_TLVS,
			      req->nlmsg_seq);
		*(int *)mnl_nlmsg_put_extra_header(nlh, sizeof(int)) = -EINVAL;
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "invalid header for dump");
		end_msg(nlh, &off);
		break;
	case ANS_FAMILY:
		nlh = put_msg(buf, &off, GENL_ID_CTRL, 0, req->nlmsg_seq);
		((struct genlmsghdr *)mnl_nlmsg_put_extra_header(nlh, sizeof(struct genlmsghdr)))->cmd =
			CTRL_CMD_NEWFAMILY;
		mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, "devlink");
		mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 0x1234);
		end_msg(nlh, &off);
		put_err(buf, &off, req, 0, NULL);
		break;
	case ANS_NONE:
		return -ECONNREFUSED;
	case ANS_HUGE_LEN: /* 0xffffffff: -1 as an int, 0 once aligned */
		nlh = put_msg(buf, &off, RTM_NEWLINK, 0, req->nlmsg_seq);
		end_msg(nlh, &off);
		nlh->nlmsg_len = 0xffffffff;
		break;
	}
	return (int)off;
}

struct seen {
	int n;
	char name[IF_NAMESIZE];
};

static int on_link(const struct nlmsghdr *nlh, void *userdata)
{
	struct seen *s = userdata;
	const struct nlattr *a;

	s->n++;
	mnl_attr_for_each(a, nlh, sizeof(struct ifinfomsg))
		if (mnl_attr_get_type(a) == IFLA_IFNAME)
			snprintf(s->name, sizeof(s->name), "%s", mnl_attr_get_str(a));
	return 0;
}

static struct nlmsghdr *getlink(char *buf, const char *name, uint16_t flags)
{
	struct nlmsghdr *nlh;

	memset(buf, 0, 4096);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = flags;
	mnl_nlmsg_put_extra_header(nlh, sizeof(struct ifinfomsg));
	if (name)
		mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	return nlh;
}

static struct halo_nlt *fake_transport(struct fake *f, unsigned long *counter)
{
	struct halo_nlt *t = NULL;

	assert_int_equal(halo_nlt_new(counter, &t), 0);
	halo_nlt_set_io(t, fake_io, f);
	return t;
}

static void reply_and_ack(void **state)
{
	char buf[4096] __attribute__((aligned(4)));
	struct fake f = { .answer = ANS_DATA_ACK };
	struct seen s = { 0 };
	unsigned long counter = 0;
	struct halo_nlt *t = fake_transport(&f, &counter);

	(void)state;
	assert_int_equal(halo_nlt_request(t, HALO_NLT_ROUTE, getlink(buf, "rdma0", 0),
					  on_link, &s, NULL), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.name, "rdma0");
	assert_int_equal(counter, 1);
	/* Not a dump: the ACK is asked for, so the reply has a known end. */
	assert_true(f.last_flags & NLM_F_ACK);
	assert_true(f.last_flags & NLM_F_REQUEST);
	assert_null(halo_nlt_extack(t));
	/* CREATE|EXCL shares bits with NLM_F_DUMP: still a change, acked. */
	getlink(buf, NULL, NLM_F_CREATE | NLM_F_EXCL)->nlmsg_type = RTM_NEWADDR;
	assert_int_equal(halo_nlt_request(t, HALO_NLT_ROUTE, (struct nlmsghdr *)buf,
					  NULL, NULL, NULL), 0);
	assert_true(f.last_flags & NLM_F_ACK);
	halo_nlt_free(t);
}

/* A GET: sent without NLM_F_ACK even when the request has it, and its
 * one message ends the answer, where a request read up to its ACK would
 * find the answer cut short. */
static void get_without_ack(void **state)
{
	char buf[4096] __attribute__((aligned(4)));
	struct fake f = { .answer = ANS_DATA };
	struct seen s = { 0 };
	unsigned long counter = 0;
	struct halo_nlt *t = fake_transport(&f, &counter);

	(void)state;
	assert_int_equal(halo_nlt_get(t, HALO_NLT_ROUTE, getlink(buf, "rdma0", NLM_F_ACK),
				      on_link, &s), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.name, "rdma0");
	assert_int_equal(f.last_flags, NLM_F_REQUEST);
	assert_int_equal(halo_nlt_request(t, HALO_NLT_ROUTE, getlink(buf, "rdma0", 0),
					  on_link, &s, NULL), -EPROTO);
	assert_int_equal(s.n, 2);
	/* An error takes the answer's place, with the kernel's words. */
	f.answer = ANS_ERROR_EXTACK;
	assert_int_equal(halo_nlt_get(t, HALO_NLT_GENERIC, getlink(buf, NULL, 0),
				      on_link, &s), -EOPNOTSUPP);
	assert_string_equal(halo_nlt_extack(t), "device does not support this");
	assert_int_equal(s.n, 2);
	/* An answer with an ACK after it is read the same. */
	f.answer = ANS_DATA_ACK;
	assert_int_equal(halo_nlt_get(t, HALO_NLT_DCB, getlink(buf, NULL, 0),
				      on_link, &s), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(counter, 4);
	halo_nlt_free(t);
}

static void error_keeps_errno_and_extack(void **state)
{
	char buf[4096] __attribute__((aligned(4)));
	struct fake f = { .answer = ANS_ERROR_EXTACK };
	unsigned long counter = 0;
	struct halo_nlt *t = fake_transport(&f, &counter);

	(void)state;
	assert_int_equal(halo_nlt_request(t, HALO_NLT_GENERIC, getlink(buf, NULL, 0),
					  NULL, NULL, NULL), -EOPNOTSUPP);
	assert_non_null(halo_nlt_extack(t));
	assert_string_equal(halo_nlt_extack(t), "device does not support this");
	/* The next request starts without the old message. */
	f.answer = ANS_DATA_ACK;
	assert_int_equal(halo_nlt_request(t, HALO_NLT_GENERIC, getlink(buf, NULL, 0),
					  NULL, NULL, NULL), 0);
	assert_null(halo_nlt_extack(t));
	assert_int_equal(counter, 2);
	halo_nlt_free(t);
}

static void verdict_in_reply(void **state)
{
	char buf[4096] __attribute__((aligned(4)));
	const struct halo_nlt_verdict v = { .hdrlen = 4, .attr = 13 };
	struct fake f = { .answer = ANS_VERDICT, .verdict = 1 };
	struct halo_nlt *t = fake_transport(&f, NULL);

	(void)state;
	/* The ACK says 0, the attribute says the NIC refused. */
	assert_int_equal(halo_nlt_request(t, HALO_NLT_DCB, getlink(buf, NULL, 0),
					  NULL, NULL, &v), -EIO);
	/* A driver's -EINVAL, as dcbnl's u8 carries it: the errno is kept. */
	f.verdict = (uint8_t)-EINVAL;
	assert_int_equal(halo_nlt_request(t, HALO_NLT_DCB, getlink(buf, NULL, 0),
					  NULL, NULL, &v), -EINVAL);
	f.verdict = (uint8_t)-EEXIST;
	assert_int_equal(halo_nlt_request(t, HALO_NLT_DCB, getlink(buf, NULL, 0),
					  NULL, NULL, &v), -EEXIST);
	f.verdict = 0;
	assert_int_equal(halo_nlt_request(t, HALO_NLT_DCB, getlink(buf, NULL, 0),
					  NULL, NULL, &v), 0);
	halo_nlt_free(t);
}

static void dump_endings(void **state)
{
	char buf[4096] __attribute__((aligned(4)));
	struct fake f = { .answer = ANS_DUMP_INTR };
	struct seen s = { 0 };
	struct halo_nlt *t = fake_transport(&f, NULL);

	(void)state;
	assert_int_equal(halo_nlt_request(t, HALO_NLT_ROUTE,
					  getlink(buf, NULL, NLM_F_DUMP), on_link, &s,
					  NULL), -EINTR);
	assert_false(f.last_flags & NLM_F_ACK);
	f.answer = ANS_DONE_ERROR;
	assert_int_equal(halo_nlt_request(t, HALO_NLT_ROUTE,
					  getlink(buf, NULL, NLM_F_DUMP), on_link, &s,
					  NULL), -EINVAL);
	assert_string_equal(halo_nlt_extack(t), "invalid header for dump");
	f.answer = ANS_NONE;
	assert_int_equal(halo_nlt_request(t, HALO_NLT_ROUTE, getlink(buf, NULL, 0),
					  NULL, NULL, NULL), -ECONNREFUSED);
	/* A length that wraps: not walked forever, and the answer ends
	 * there, a malformed one (a GET too: its socket would wait for a
	 * message that never comes). */
	f.answer = ANS_HUGE_LEN;
	assert_int_equal(halo_nlt_request(t, HALO_NLT_ROUTE, getlink(buf, NULL, 0),
					  on_link, &s, NULL), -EBADMSG);
	assert_int_equal(halo_nlt_get(t, HALO_NLT_ROUTE, getlink(buf, NULL, 0), on_link, &s),
			 -EBADMSG);
	halo_nlt_free(t);
}

static void family_resolved_once(void **state)
{
	struct fake f = { .answer = ANS_FAMILY };
	unsigned long counter = 0;
	struct halo_nlt *t = fake_transport(&f, &counter);
	uint16_t id = 0;

	(void)state;
	assert_int_equal(halo_nlt_family(t, "devlink", &id), 0);
	assert_int_equal(id, 0x1234);
	assert_int_equal(f.last_type, GENL_ID_CTRL);
	assert_int_equal(halo_nlt_family(t, "devlink", &id), 0);
	assert_int_equal(id, 0x1234);
	assert_int_equal(counter, 1); /* remembered, not asked again */
	f.answer = ANS_ERROR_EXTACK;
	assert_int_equal(halo_nlt_family(t, "ethtool", &id), -EOPNOTSUPP);
	halo_nlt_free(t);
}

/* ---- the real kernel (the test runs in its own network namespace) ---- */

static void kernel_families(void **state)
{
	unsigned long counter = 0;
	struct halo_nlt *t = NULL;
	uint16_t id = 0;
	const char *optional[] = { "devlink", "ethtool" };
	int err;

	(void)state;
	assert_int_equal(halo_nlt_new(&counter, &t), 0);
	err = halo_nlt_family(t, "nlctrl", &id);
	if (err == -EAFNOSUPPORT || err == -EPROTONOSUPPORT) {
		print_message("# no generic netlink here: %s\n", strerror(-err));
		halo_nlt_free(t);
		skip();
	}
	assert_int_equal(err, 0);
	assert_int_equal(id, GENL_ID_CTRL);
	for (size_t i = 0; i < 2; i++) {
		err = halo_nlt_family(t, optional[i], &id);
		if (err == -ENOENT) {
			print_message("# family %s: absent in this kernel\n", optional[i]);
			continue;
		}
		assert_int_equal(err, 0);
		assert_true(id >= GENL_MIN_ID);
		print_message("# family %s: id %u\n", optional[i], id);
	}
	assert_int_equal(halo_nlt_family(t, "halo-nofamily", &id), -ENOENT);
	halo_nlt_free(t);
}

/* Descriptors open in this process. */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static void kernel_route(void **state)
{
	char buf[4096] __attribute__((aligned(4)));
	struct dcbmsg *dcb;
	int fds;
	unsigned long counter = 0;
	struct halo_nlt *t = NULL;
	struct seen s = { 0 };
	const uint8_t addr[4] = { 10, 0, 0, 1 };
	struct nlmsghdr *nlh;
	struct ifaddrmsg *ifa;

	(void)state;
	assert_int_equal(halo_nlt_new(&counter, &t), 0);
	assert_int_equal(halo_nlt_request(t, HALO_NLT_ROUTE, getlink(buf, "lo", 0),
					  on_link, &s, NULL), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.name, "lo");
	assert_int_equal(halo_nlt_request(t, HALO_NLT_ROUTE,
					  getlink(buf, "halo-none0", 0), on_link, &s,
					  NULL), -ENODEV);
	/* A change the kernel refuses: its errno and its own words. */
	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWADDR;
	nlh->nlmsg_flags = NLM_F_CREATE | NLM_F_EXCL;
	ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	ifa->ifa_family = AF_INET;
	ifa->ifa_prefixlen = 33; /* no IPv4 prefix is that long */
	ifa->ifa_index = if_nametoindex("lo");
	mnl_attr_put(nlh, IFA_LOCAL, sizeof(addr), addr);
	assert_int_equal(halo_nlt_request(t, HALO_NLT_ROUTE, nlh, NULL, NULL, NULL),
			 -EINVAL);
	assert_non_null(halo_nlt_extack(t));
	print_message("# the kernel said: %s\n", halo_nlt_extack(t));
	assert_non_null(strstr(halo_nlt_extack(t), "prefix"));
	/* GETs without an ACK: the answer ends each, nothing is left in
	 * the socket for the next request to trip over. */
	s.n = 0;
	assert_int_equal(halo_nlt_get(t, HALO_NLT_ROUTE, getlink(buf, "lo", 0),
				      on_link, &s), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(halo_nlt_get(t, HALO_NLT_ROUTE, getlink(buf, "halo-none0", 0),
				      on_link, &s), -ENODEV);
	/* dcbnl is rtnetlink: the same socket, no second one. lo has no
	 * dcbnl_ops, so dcb_doit refuses. */
	fds = open_fds();
	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETDCB;
	dcb = mnl_nlmsg_put_extra_header(nlh, sizeof(*dcb));
	dcb->dcb_family = AF_UNSPEC;
	dcb->cmd = DCB_CMD_IEEE_GET;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, "lo");
	assert_int_equal(halo_nlt_get(t, HALO_NLT_DCB, nlh, NULL, NULL), -EOPNOTSUPP);
	assert_int_equal(open_fds(), fds);
	/* A dump through the same socket after all that. */
	s.n = 0;
	assert_int_equal(halo_nlt_request(t, HALO_NLT_ROUTE,
					  getlink(buf, NULL, NLM_F_DUMP), on_link, &s,
					  NULL), 0);
	assert_true(s.n >= 1);
	assert_int_equal(counter, 7);
	halo_nlt_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reply_and_ack),
		cmocka_unit_test(get_without_ack),
		cmocka_unit_test(error_keeps_errno_and_extack),
		cmocka_unit_test(verdict_in_reply),
		cmocka_unit_test(dump_endings),
		cmocka_unit_test(family_resolved_once),
		cmocka_unit_test(kernel_families),
		cmocka_unit_test(kernel_route),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
