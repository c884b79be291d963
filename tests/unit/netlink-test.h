/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netlink-test.h: the fake kernel the netlink codec and roce unit tests
 * share. Each test answers the transport's seam (halo_nlt_set_io) with
 * replies built here: the NLMSG_ERROR ACK (with an extended-ACK message),
 * the generic netlink family lookup, a generic netlink family's whole
 * answer around the test's own reply, and a transport wired to the
 * test's io function; and the checks of the requests the codecs build.
 */
#pragma once

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/dcbnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <cmocka.h>

#include "netlink/transport.h"

/* The u16 at byte OFF of P (unaligned). */
static inline uint16_t u16_at(const void *p, size_t off)
{
	uint16_t v;

	memcpy(&v, (const uint8_t *)p + off, sizeof(v));
	return v;
}

/* Checks the attribute at byte OFF of P: TYPE, with a payload of PLEN
 * bytes. Returns the offset of the attribute after it. */
static inline size_t check_attr(const void *p, size_t off, uint16_t type, size_t plen)
{
	assert_int_equal(u16_at(p, off), 4 + plen);
	assert_int_equal(u16_at(p, off + 2) & NLA_TYPE_MASK, type);
	return off + MNL_ALIGN(4 + plen);
}

/* check_attr for a nest of PLEN bytes: returns the offset of its first
 * attribute. */
static inline size_t check_nest(const void *p, size_t off, uint16_t type, size_t plen)
{
	check_attr(p, off, type, plen);
	return off + 4;
}

/* Checks the headers of a generic netlink request to FAMILY (CMD,
 * VERSION) with FLAGS: NLM_F_REQUEST | NLM_F_ACK as built, NLM_F_REQUEST
 * alone for a GET as sent (halo_nlt_get). Returns the offset of its first
 * attribute. */
static inline size_t check_genl_request(const struct nlmsghdr *nlh, uint16_t family,
					uint8_t cmd, uint8_t version, uint16_t flags)
{
	const uint8_t *b = (const uint8_t *)nlh;

	assert_int_equal(nlh->nlmsg_type, family);
	assert_int_equal(nlh->nlmsg_flags, flags);
	assert_int_equal(b[16], cmd);
	assert_int_equal(b[17], version);
	assert_int_equal(u16_at(b, 18), 0);
	return NLMSG_HDRLEN + GENL_HDRLEN;
}

/* Appends at BUF + *OFF the ACK of REQ: ERROR (0 or -errno) and, when MSG,
 * the extended ACK's message (NLMSGERR_ATTR_MSG), as netlink_ack does. */
static inline void put_ack(char *buf, size_t *off, const struct nlmsghdr *req,
			   int error, const char *msg)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf + *off);
	struct nlmsgerr *e;

	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = NLM_F_CAPPED | (msg ? NLM_F_ACK_TLVS : 0);
	nlh->nlmsg_seq = req->nlmsg_seq;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = error;
	e->msg = *req;
	if (msg)
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, msg);
	*off += MNL_ALIGN(nlh->nlmsg_len);
}

/* What netlink_rcv_skb sends after a request's answer: the ACK only when
 * the request asked for one (NLM_F_ACK) or failed. */
static inline void put_ack_asked(char *buf, size_t *off, const struct nlmsghdr *req,
				 int error)
{
	if (error || (req->nlmsg_flags & NLM_F_ACK))
		put_ack(buf, off, req, error, NULL);
}

/* The family name a CTRL_CMD_GETFAMILY request asks for (its first
 * attribute, right after the genl header). */
static inline const char *family_asked(const struct nlmsghdr *req)
{
	assert_int_equal(req->nlmsg_type, GENL_ID_CTRL);
	return mnl_attr_get_str((const struct nlattr *)((const char *)req + 20));
}

/* The answer to a family lookup: ID, or -ENOENT (no such family) when ID
 * is 0. Returns the reply's length. */
static inline int put_family(char *buf, const struct nlmsghdr *req, uint16_t id)
{
	size_t off = 0;
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;

	if (!id) {
		put_ack(buf, &off, req, -ENOENT, NULL);
		return (int)off;
	}
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_seq = req->nlmsg_seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_NEWFAMILY;
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, id);
	off += MNL_ALIGN(nlh->nlmsg_len);
	put_ack_asked(buf, &off, req, 0);
	return (int)off;
}

/* Starts a generic netlink reply of FAMILY (CMD, VERSION) to sequence SEQ
 * at BUF. */
static inline struct nlmsghdr *genl_reply(char *buf, uint16_t family, uint32_t seq,
					  uint8_t cmd, uint8_t version)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = family;
	nlh->nlmsg_seq = seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

/* Starts a dcbnl reply (TYPE, CMD) to sequence SEQ at BUF, as dcb_doit
 * and dcbnl_ieee_fill do. */
static inline struct nlmsghdr *dcb_reply(char *buf, uint16_t type, uint8_t cmd, uint32_t seq)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct dcbmsg *d;

	nlh->nlmsg_type = type;
	nlh->nlmsg_seq = seq;
	d = mnl_nlmsg_put_extra_header(nlh, sizeof(*d));
	d->dcb_family = AF_UNSPEC;
	d->cmd = cmd;
	return nlh;
}

/* What every fake kernel of these tests keeps: the last request, how many
 * were sent, and the error (with its extended ACK) to answer with. */
#define FAKE_REQ_MAX 8192
struct fake_kernel {
	int error;
	const char *extack;
	int requests;
	int family_lookups;
	char req[FAKE_REQ_MAX];
};

/* The start of every fake's answer: counts REQ (LEN bytes) and keeps a
 * copy, and clears the reply buffer OUT, which must hold at least MIN. */
static inline void fake_begin(struct fake_kernel *k, const struct nlmsghdr *req,
			      size_t len, void *out, size_t size, size_t min)
{
	assert_true(len <= sizeof(k->req) && size >= min);
	memset(out, 0, min);
	memcpy(k->req, req, len);
	k->requests++;
}

/* fake_begin for a generic netlink fake of family NAME: a family lookup
 * is answered here, with ID (0: no such family), and its length returned;
 * 0 when the request is the fake's to answer. */
static inline int fake_genl_begin(struct fake_kernel *k, enum halo_nlt_proto proto,
				  const struct nlmsghdr *req, size_t len, void *out,
				  size_t size, size_t min, const char *name, uint16_t id)
{
	assert_int_equal(proto, HALO_NLT_GENERIC);
	fake_begin(k, req, len, out, size, min);
	if (req->nlmsg_type != GENL_ID_CTRL)
		return 0;
	k->family_lookups++;
	assert_string_equal(family_asked(req), name);
	return put_family(out, req, id);
}

/* What a generic netlink fake answers a request other than the family
 * lookup with: its reply and the ACK, the ACK alone, or the fake
 * kernel's error (with its extended ACK). */
enum fake_answer { FAKE_REPLY, FAKE_ACK, FAKE_ERROR };

/* The most a generic netlink fake's answer takes (the part of the
 * transport's buffer it clears). */
#define FAKE_GENL_MAX 4096

/* Builds the reply of the fake that starts with G to sequence SEQ at BUF. */
struct fake_genl;
typedef struct nlmsghdr *(*fake_reply_fn)(const struct fake_genl *g, char *buf, uint32_t seq);

/* A generic netlink fake of one family, answering as fake_genl_io does.
 * A test puts it first in its own fake, which keeps what REPLY needs. */
struct fake_genl {
	const char *family; /* the name a family lookup asks for */
	uint16_t id;        /* the family's id */
	bool no_family;     /* the kernel has no such family */
	enum fake_answer answer;
	fake_reply_fn reply;
	struct fake_kernel k;
};

/* A zeroed fake of SIZE bytes that starts with a struct fake_genl of
 * family NAME (ID) replying with REPLY; the caller frees it. */
static inline void *fake_genl_new(size_t size, const char *name, uint16_t id,
				  fake_reply_fn reply)
{
	struct fake_genl *g = calloc(1, size);

	assert_non_null(g);
	g->family = name;
	g->id = id;
	g->reply = reply;
	return g;
}

/* The transport's io (halo_nlt_io_fn) for a struct fake_genl in
 * USERDATA: the family lookup, else the answer the fake is set to. */
static inline int fake_genl_io(void *userdata, enum halo_nlt_proto proto,
			       const struct nlmsghdr *req, size_t len, void *out, size_t size)
{
	struct fake_genl *g = userdata;
	bool error = g->answer == FAKE_ERROR;
	size_t off = 0;
	int r = fake_genl_begin(&g->k, proto, req, len, out, size, FAKE_GENL_MAX, g->family,
				g->no_family ? 0 : g->id);

	if (r)
		return r;
	/* FAKE_ACK: a broken answer, an ACK where the message should be. */
	if (g->answer == FAKE_REPLY)
		off += MNL_ALIGN(g->reply(g, out, req->nlmsg_seq)->nlmsg_len);
	if (g->answer == FAKE_REPLY)
		put_ack_asked(out, &off, req, 0);
	else
		put_ack(out, &off, req, error ? g->k.error : 0, error ? g->k.extack : NULL);
	return (int)off;
}

/* A transport that asks IO (with USERDATA) instead of the kernel. */
static inline struct halo_nlt *fake_transport(halo_nlt_io_fn io, void *userdata,
					      unsigned long *counter)
{
	struct halo_nlt *t = NULL;

	assert_int_equal(halo_nlt_new(counter, &t), 0);
	halo_nlt_set_io(t, io, userdata);
	return t;
}
