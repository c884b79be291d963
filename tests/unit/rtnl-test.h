/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtnl-test.h: rtnetlink messages built by hand from the kernel UAPI
 * layouts (<linux/rtnetlink.h>, <linux/if_link.h>, <linux/if_addr.h>) for
 * the test-netlink-rtnl-*.c unit tests, and a seam that records every
 * request the run's transport sends and answers it with canned replies.
 */
#pragma once

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "halo.h"
#include "netlink/context.h"
#include "netlink/transport.h"

struct msgbuf {
	unsigned char b[1024] __attribute__((aligned(4)));
	size_t len;
};

/* A netlink header of TYPE (zero flags, sequence and port) and the family
 * header HDR; attributes are appended by put(). */
static inline struct nlmsghdr *msg_start(struct msgbuf *m, uint16_t type,
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

static inline void put(struct msgbuf *m, uint16_t type, const void *data, size_t n)
{
	struct nlattr *a = (struct nlattr *)(m->b + m->len);

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + n);
	memcpy((char *)a + NLA_HDRLEN, data, n);
	m->len += NLA_ALIGN(a->nla_len);
	((struct nlmsghdr *)m->b)->nlmsg_len = (uint32_t)m->len;
}

static inline void put_u32(struct msgbuf *m, uint16_t type, uint32_t v)
{
	put(m, type, &v, 4);
}

/* Opens a nested attribute at the end of M; nest_end closes it. */
static inline struct nlattr *nest_start(struct msgbuf *m, uint16_t type)
{
	struct nlattr *a = (struct nlattr *)(m->b + m->len);

	a->nla_type = type;
	m->len += NLA_HDRLEN;
	return a;
}

static inline void nest_end(struct msgbuf *m, struct nlattr *a)
{
	a->nla_len = (uint16_t)((m->b + m->len) - (unsigned char *)a);
	((struct nlmsghdr *)m->b)->nlmsg_len = (uint32_t)m->len;
}

/* The top-level attribute TYPE of NLH after a family header of HDRLEN
 * bytes, or NULL. */
static inline const struct nlattr *find_attr(const struct nlmsghdr *nlh,
					     size_t hdrlen, uint16_t type)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, hdrlen)
		if (mnl_attr_get_type(a) == type)
			return a;
	return NULL;
}

/* ---- the seam: requests recorded, replies canned ---- */

#define SEAM_MAX 32

struct seam {
	struct msgbuf req[SEAM_MAX]; /* every request, in order */
	size_t n;
	int answer; /* the ACK's error for every request: 0 or -errno */
	/* Optional: data messages put before the ACK or DONE. */
	void (*reply)(struct seam *s, const struct nlmsghdr *req, struct msgbuf *out);
};

/* Appends message MSG to OUT (a reply's data messages). */
static inline void seam_add(struct msgbuf *out, const struct msgbuf *msg)
{
	assert_true(out->len + msg->len <= sizeof(out->b));
	memcpy(out->b + out->len, msg->b, msg->len);
	out->len += msg->len;
}

static inline int seam_io(void *userdata, enum halo_nlt_proto proto,
			  const struct nlmsghdr *req, size_t len, void *out, size_t size)
{
	struct seam *s = userdata;
	struct msgbuf data = { .len = 0 }, end;
	bool dump = (req->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
	size_t off = 0;

	assert_int_equal(proto, HALO_NLT_ROUTE);
	assert_true(s->n < SEAM_MAX && len <= sizeof(s->req[0].b));
	memcpy(s->req[s->n].b, req, len);
	s->req[s->n++].len = len;
	if (s->reply && s->answer == 0)
		s->reply(s, req, &data);
	/* A dump ends with NLMSG_DONE, anything else with its ACK: sent, as
	 * netlink_rcv_skb does, when asked for or on error; an answer of
	 * nothing at all gets one too, so that the reader is not left
	 * waiting. */
	end.len = 0;
	if (dump && s->answer == 0) {
		int zero = 0;

		msg_start(&end, NLMSG_DONE, &zero, sizeof(zero));
	} else if (s->answer || !data.len || (req->nlmsg_flags & NLM_F_ACK)) {
		struct nlmsgerr e = { .error = s->answer, .msg = *req };

		msg_start(&end, NLMSG_ERROR, &e, sizeof(e));
		((struct nlmsghdr *)end.b)->nlmsg_flags = NLM_F_CAPPED;
	}
	assert_true(data.len + end.len <= size);
	memcpy(data.b + data.len, end.b, end.len);
	data.len += end.len;
	/* Every message answers this request. */
	while (off < data.len) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)(data.b + off);

		nlh->nlmsg_seq = req->nlmsg_seq;
		if (dump)
			nlh->nlmsg_flags |= NLM_F_MULTI;
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	memcpy(out, data.b, data.len);
	return (int)data.len;
}

/* The seam of a test file, and its run context. */
static _unused_ struct seam seam;
static _unused_ struct halo_ctx seam_ctx;

/* A run context whose transport answers through the seam. */
static inline int seam_setup(void **state)
{
	struct halo_nlt *t;

	memset(&seam_ctx, 0, sizeof(seam_ctx));
	memset(&seam, 0, sizeof(seam));
	assert_int_equal(halo_netlink_transport(&seam_ctx, &t), 0);
	halo_nlt_set_io(t, seam_io, &seam);
	*state = &seam_ctx;
	return 0;
}

static inline int seam_teardown(void **state)
{
	halo_netlink_release(*state);
	return 0;
}

/* The Ith request the seam saw, its length checked against its header. */
static inline const struct nlmsghdr *seam_req(const struct seam *s, size_t i)
{
	const struct nlmsghdr *nlh;

	assert_true(i < s->n);
	nlh = (const struct nlmsghdr *)s->req[i].b;
	assert_int_equal(nlh->nlmsg_len, s->req[i].len);
	return nlh;
}

/* The request I, its sequence number and port zeroed (the transport's),
 * equals the LEN bytes of WANT. */
static inline void seam_req_equal(const struct seam *s, size_t i,
				  const void *want, size_t len)
{
	struct msgbuf got;

	memcpy(got.b, seam_req(s, i), s->req[i].len);
	((struct nlmsghdr *)got.b)->nlmsg_seq = 0;
	((struct nlmsghdr *)got.b)->nlmsg_pid = 0;
	assert_int_equal(s->req[i].len, len);
	assert_memory_equal(got.b, want, len);
}
