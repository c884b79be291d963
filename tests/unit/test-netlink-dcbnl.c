/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for src/netlink/dcbnl.c: the requests byte by byte against the
 * UAPI layouts; a fake kernel answering through the transport's seam as
 * net/dcb/dcbnl.c does (the driver's verdict in a reply attribute with
 * ACK 0, errors with an extended ACK); the parsers on valid and malformed
 * replies; and the real kernel of the test's network namespace, whose
 * loopback has no DCB (EOPNOTSUPP).
 */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <cmocka.h>

#include "netlink-test.h"
#include "netlink/dcbnl.h"

#define BUFSZ 8192

/* ---- UAPI layouts: what the bytes below are checked against ---- */

static void uapi_layouts(void **state)
{
	(void)state;
	assert_int_equal(sizeof(struct dcbmsg), 4);
	assert_int_equal(sizeof(struct dcb_app), 4);
	assert_int_equal(offsetof(struct dcb_app, selector), 0);
	assert_int_equal(offsetof(struct dcb_app, priority), 1);
	assert_int_equal(offsetof(struct dcb_app, protocol), 2);
	/* Not 40: two arrays of eight u64 counters follow the flags. */
	assert_int_equal(sizeof(struct ieee_pfc), 136);
	assert_int_equal(offsetof(struct ieee_pfc, pfc_en), 1);
	assert_int_equal(offsetof(struct ieee_pfc, mbc), 2);
	assert_int_equal(offsetof(struct ieee_pfc, delay), 4);
	assert_int_equal(offsetof(struct ieee_pfc, requests), 8);
	assert_int_equal(offsetof(struct ieee_pfc, indications), 72);
	assert_int_equal(RTM_GETDCB, 78);
	assert_int_equal(RTM_SETDCB, 79);
	assert_int_equal(DCB_CMD_IEEE_SET, 20);
	assert_int_equal(DCB_CMD_IEEE_GET, 21);
	assert_int_equal(DCB_CMD_GDCBX, 22);
	assert_int_equal(DCB_CMD_SDCBX, 23);
	assert_int_equal(DCB_CMD_IEEE_DEL, 27);
	assert_int_equal(DCB_ATTR_IFNAME, 1);
	assert_int_equal(DCB_ATTR_IEEE, 13);
	assert_int_equal(DCB_ATTR_DCBX, 14);
	assert_int_equal(DCB_ATTR_IEEE_PFC, 2);
	assert_int_equal(DCB_ATTR_IEEE_APP_TABLE, 3);
	assert_int_equal(DCB_ATTR_IEEE_APP, 1);
}

/* ---- byte-level reading helpers ---- */

static const uint8_t *bytes(const void *p) { return p; }

/* The common start: nlmsghdr, dcbmsg, DCB_ATTR_IFNAME "rdma0" (6 bytes,
 * aligned to 8): the next attribute is at 16 + 4 + 12 = 32. A request as
 * built asks for an ACK; a GET as sent does not (halo_nlt_get). */
static void check_flags(const struct nlmsghdr *nlh, uint16_t type, uint8_t cmd,
			uint16_t flags)
{
	const uint8_t *b = bytes(nlh);

	assert_int_equal(nlh->nlmsg_type, type);
	assert_int_equal(nlh->nlmsg_flags, flags);
	assert_int_equal(b[16], AF_UNSPEC);
	assert_int_equal(b[17], cmd);
	assert_int_equal(u16_at(b, 18), 0);
	assert_int_equal(u16_at(b, 20), 4 + 6);          /* nla_len */
	assert_int_equal(u16_at(b, 22), DCB_ATTR_IFNAME); /* nla_type */
	assert_memory_equal(b + 24, "rdma0\0\0\0", 8);    /* NUL, zero pad */
}

static void check_start(const struct nlmsghdr *nlh, uint16_t type, uint8_t cmd)
{
	check_flags(nlh, type, cmd, NLM_F_REQUEST | NLM_F_ACK);
}

static void check_sent_get(const struct nlmsghdr *nlh, uint8_t cmd)
{
	check_flags(nlh, RTM_GETDCB, cmd, NLM_F_REQUEST);
}

static void encode_get(void **state)
{
	char buf[BUFSZ] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = NULL;

	(void)state;
	memset(buf, 0xaa, sizeof(buf));
	assert_int_equal(halo_dcbnl_req_ieee_get(buf, sizeof(buf), "rdma0", &nlh), 0);
	assert_ptr_equal(nlh, buf);
	assert_int_equal(nlh->nlmsg_len, 32);
	check_start(nlh, RTM_GETDCB, DCB_CMD_IEEE_GET);
	assert_int_equal(halo_dcbnl_req_gdcbx(buf, sizeof(buf), "rdma0", &nlh), 0);
	assert_int_equal(nlh->nlmsg_len, 32);
	check_start(nlh, RTM_GETDCB, DCB_CMD_GDCBX);
}

static void encode_sdcbx(void **state)
{
	char buf[BUFSZ] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = NULL;
	const uint8_t *b = (const uint8_t *)buf;

	(void)state;
	memset(buf, 0xaa, sizeof(buf));
	assert_int_equal(halo_dcbnl_req_sdcbx(buf, sizeof(buf), "rdma0",
					      DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE,
					      &nlh), 0);
	check_start(nlh, RTM_SETDCB, DCB_CMD_SDCBX);
	assert_int_equal(nlh->nlmsg_len, 32 + 8);
	assert_int_equal(u16_at(b, 32), 5);
	assert_int_equal(u16_at(b, 34), DCB_ATTR_DCBX);
	assert_int_equal(b[36], 0x09);
	assert_memory_equal(b + 37, "\0\0\0", 3);
}

static void encode_pfc(void **state)
{
	char buf[BUFSZ] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = NULL;
	struct ieee_pfc pfc;
	const uint8_t *b = (const uint8_t *)buf;

	(void)state;
	memset(&pfc, 0, sizeof(pfc));
	pfc.pfc_cap = 8;
	pfc.pfc_en = 1 << 3;
	pfc.mbc = 1;
	pfc.delay = 0x1234;
	pfc.requests[7] = 0x0102030405060708ull;
	memset(buf, 0xaa, sizeof(buf));
	assert_int_equal(halo_dcbnl_req_pfc_set(buf, sizeof(buf), "rdma0", &pfc, &nlh), 0);
	check_start(nlh, RTM_SETDCB, DCB_CMD_IEEE_SET);
	/* DCB_ATTR_IEEE nest holding exactly DCB_ATTR_IEEE_PFC. */
	assert_int_equal(nlh->nlmsg_len, 32 + 4 + 4 + 136);
	assert_int_equal(u16_at(b, 32), 4 + 4 + 136);
	assert_int_equal(u16_at(b, 34) & NLA_TYPE_MASK, DCB_ATTR_IEEE);
	assert_int_equal(u16_at(b, 36), 4 + 136);
	assert_int_equal(u16_at(b, 38), DCB_ATTR_IEEE_PFC);
	assert_int_equal(b[40], 8);     /* pfc_cap */
	assert_int_equal(b[41], 0x08);  /* pfc_en: bit 3 = priority 3 */
	assert_int_equal(b[42], 1);     /* mbc */
	assert_int_equal(u16_at(b, 44), 0x1234);
	assert_memory_equal(b + 40, &pfc, sizeof(pfc)); /* the whole struct */
}

static void encode_app(void **state)
{
	char buf[BUFSZ] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = NULL;
	const struct dcb_app app[] = {
		{ .selector = IEEE_8021QAZ_APP_SEL_DSCP, .priority = 3, .protocol = 26 },
		{ .selector = IEEE_8021QAZ_APP_SEL_DSCP, .priority = 6, .protocol = 48 },
		{ .selector = 255 /* PCP */, .priority = 1, .protocol = 2 },
	};
	const uint8_t *b = (const uint8_t *)buf;

	(void)state;
	for (int add = 1; add >= 0; add--) {
		memset(buf, 0xaa, sizeof(buf));
		assert_int_equal(halo_dcbnl_req_app(buf, sizeof(buf), "rdma0", add,
						    app, 3, &nlh), 0);
		check_start(nlh, RTM_SETDCB, add ? DCB_CMD_IEEE_SET : DCB_CMD_IEEE_DEL);
		assert_int_equal(nlh->nlmsg_len, 32 + 4 + 4 + 3 * 8);
		assert_int_equal(u16_at(b, 32), 4 + 4 + 3 * 8);
		assert_int_equal(u16_at(b, 34) & NLA_TYPE_MASK, DCB_ATTR_IEEE);
		assert_int_equal(u16_at(b, 36), 4 + 3 * 8);
		assert_int_equal(u16_at(b, 38) & NLA_TYPE_MASK, DCB_ATTR_IEEE_APP_TABLE);
		for (int i = 0; i < 3; i++) {
			size_t at = 40 + 8 * (size_t)i;

			assert_int_equal(u16_at(b, at), 8);
			/* PCP is not an IEEE selector: DCB_ATTR_DCB_APP (2). */
			assert_int_equal(u16_at(b, at + 2), i == 2 ? 2 : DCB_ATTR_IEEE_APP);
			assert_int_equal(b[at + 4], app[i].selector);
			assert_int_equal(b[at + 5], app[i].priority);
			assert_int_equal(u16_at(b, at + 6), app[i].protocol); /* host order */
		}
	}
}

static void encode_errors(void **state)
{
	char buf[BUFSZ] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = NULL;
	struct dcb_app app[HALO_DCBNL_APP_MAX] = { 0 };
	struct ieee_pfc pfc = { 0 };

	(void)state;
	assert_int_equal(halo_dcbnl_req_ieee_get(buf, sizeof(buf), "", &nlh), -EINVAL);
	assert_int_equal(halo_dcbnl_req_ieee_get(buf, sizeof(buf), "0123456789abcdef", &nlh),
			 -EINVAL);
	assert_int_equal(halo_dcbnl_req_ieee_get(buf, sizeof(buf), NULL, &nlh), -EINVAL);
	assert_int_equal(halo_dcbnl_req_app(buf, sizeof(buf), "rdma0", true, app, 0, &nlh),
			 -EINVAL);
	/* Too small a buffer: -EMSGSIZE, never a write past it. */
	assert_int_equal(halo_dcbnl_req_ieee_get(buf, 16, "rdma0", &nlh), -EMSGSIZE);
	assert_int_equal(halo_dcbnl_req_ieee_get(buf, 24, "rdma0", &nlh), -EMSGSIZE);
	assert_int_equal(halo_dcbnl_req_pfc_set(buf, 100, "rdma0", &pfc, &nlh), -EMSGSIZE);
	assert_int_equal(halo_dcbnl_req_app(buf, 64, "rdma0", true, app, 8, &nlh), -EMSGSIZE);
	assert_null(nlh);
	/* The largest table fits the request size the header promises. */
	assert_int_equal(halo_dcbnl_req_app(buf, HALO_DCBNL_REQ_SIZE, "rdma0", true, app,
					    HALO_DCBNL_APP_MAX, &nlh), 0);
	assert_true(nlh->nlmsg_len <= HALO_DCBNL_REQ_SIZE);
}

/* ---- replies as the kernel builds them ---- */

static const struct dcb_app kernel_apps[] = {
	{ .selector = IEEE_8021QAZ_APP_SEL_DSCP, .priority = 3, .protocol = 26 },
	{ .selector = IEEE_8021QAZ_APP_SEL_ETHERTYPE, .priority = 4, .protocol = 0x8906 },
};

/* dcbnl_ieee_fill: IFNAME, IEEE { ETS, PFC, APP_TABLE, PEER_PFC }, DCBX. */
static struct nlmsghdr *ieee_reply(char *buf, uint32_t seq, uint8_t pfc_en,
				   size_t n_app)
{
	struct nlmsghdr *nlh = dcb_reply(buf, RTM_GETDCB, DCB_CMD_IEEE_GET, seq);
	struct nlattr *ieee, *table;
	struct ieee_ets ets = { .ets_cap = 8 };
	struct ieee_pfc pfc = { .pfc_cap = 8, .pfc_en = pfc_en, .delay = 7 };

	pfc.requests[3] = 42;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, "rdma0");
	ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	mnl_attr_put(nlh, DCB_ATTR_IEEE_ETS, sizeof(ets), &ets);
	mnl_attr_put(nlh, DCB_ATTR_IEEE_PFC, sizeof(pfc), &pfc);
	table = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE_APP_TABLE);
	for (size_t i = 0; i < n_app; i++)
		mnl_attr_put(nlh, DCB_ATTR_IEEE_APP, sizeof(struct dcb_app),
			     &kernel_apps[i % 2]);
	mnl_attr_nest_end(nlh, table);
	mnl_attr_put(nlh, DCB_ATTR_IEEE_PEER_PFC, sizeof(pfc), &pfc);
	mnl_attr_nest_end(nlh, ieee);
	mnl_attr_put_u8(nlh, DCB_ATTR_DCBX, DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE);
	return nlh;
}

/* ---- the fake kernel behind the transport's seam ---- */

enum answer { ANS_IEEE, ANS_DCBX, ANS_VERDICT, ANS_ACK_ONLY, ANS_ERROR };

struct fake {
	enum answer answer;
	uint8_t pfc_en;
	uint8_t verdict_attr;
	uint8_t verdict;
	struct fake_kernel k;
};

static int fake_io(void *userdata, enum halo_nlt_proto proto,
		   const struct nlmsghdr *req, size_t len, void *out, size_t size)
{
	struct fake *f = userdata;
	const struct dcbmsg *d = mnl_nlmsg_get_payload(req);
	char *buf = out;
	size_t off = 0;
	struct nlmsghdr *nlh;

	assert_int_equal(proto, HALO_NLT_DCB);
	fake_begin(&f->k, req, len, out, size, 4096);
	switch (f->answer) {
	case ANS_IEEE:
		nlh = ieee_reply(buf, req->nlmsg_seq, f->pfc_en, 2);
		off += MNL_ALIGN(nlh->nlmsg_len);
		break;
	case ANS_DCBX:
		nlh = dcb_reply(buf, RTM_GETDCB, DCB_CMD_GDCBX, req->nlmsg_seq);
		mnl_attr_put_u8(nlh, DCB_ATTR_DCBX, DCB_CAP_DCBX_LLD_MANAGED |
				DCB_CAP_DCBX_VER_IEEE);
		off += MNL_ALIGN(nlh->nlmsg_len);
		break;
	case ANS_VERDICT: /* dcb_doit: the reply has the request's type */
		nlh = dcb_reply(buf, req->nlmsg_type, d->cmd, req->nlmsg_seq);
		mnl_attr_put_u8(nlh, f->verdict_attr, f->verdict);
		off += MNL_ALIGN(nlh->nlmsg_len);
		break;
	case ANS_ACK_ONLY:
	case ANS_ERROR:
		break;
	}
	if (f->answer == ANS_IEEE || f->answer == ANS_DCBX)
		put_ack_asked(buf, &off, req, 0);
	else
		put_ack(buf, &off, req, f->answer == ANS_ERROR ? f->k.error : 0,
			f->answer == ANS_ERROR ? f->k.extack : NULL);
	return (int)off;
}

static void get_through_transport(void **state)
{
	struct fake *f = calloc(1, sizeof(*f));
	struct halo_dcbnl_ieee *r = calloc(1, sizeof(*r));
	unsigned long counter = 0;
	struct halo_nlt *t = fake_transport(fake_io, f, &counter);
	uint8_t mode = 0;

	(void)state;
	f->answer = ANS_IEEE;
	f->pfc_en = 0x18;
	assert_int_equal(halo_dcbnl_ieee_get(t, "rdma0", r), 0);
	assert_int_equal(counter, 1);
	check_sent_get((struct nlmsghdr *)f->k.req, DCB_CMD_IEEE_GET);
	assert_true(r->has_pfc);
	assert_int_equal(r->pfc.pfc_cap, 8);
	assert_int_equal(r->pfc.pfc_en, 0x18);
	assert_int_equal(r->pfc.delay, 7);
	assert_int_equal(r->pfc.requests[3], 42); /* kept whole */
	assert_true(r->has_app);
	assert_int_equal(r->n_app, 2);
	assert_memory_equal(&r->app[0], &kernel_apps[0], sizeof(struct dcb_app));
	assert_memory_equal(&r->app[1], &kernel_apps[1], sizeof(struct dcb_app));
	assert_true(r->has_dcbx);
	assert_int_equal(r->dcbx, DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE);

	f->answer = ANS_DCBX;
	assert_int_equal(halo_dcbnl_get_dcbx(t, "rdma0", &mode), 0);
	check_sent_get((struct nlmsghdr *)f->k.req, DCB_CMD_GDCBX);
	assert_int_equal(mode, DCB_CAP_DCBX_LLD_MANAGED | DCB_CAP_DCBX_VER_IEEE);

	/* An ACK without the answer is no answer. */
	f->answer = ANS_ACK_ONLY;
	assert_int_equal(halo_dcbnl_ieee_get(t, "rdma0", r), -EBADMSG);
	assert_int_equal(halo_dcbnl_get_dcbx(t, "rdma0", &mode), -EBADMSG);
	assert_int_equal(counter, 4);
	halo_nlt_free(t);
	free(r);
	free(f);
}

static void set_verdicts(void **state)
{
	struct fake *f = calloc(1, sizeof(*f));
	unsigned long counter = 0;
	struct halo_nlt *t = fake_transport(fake_io, f, &counter);
	struct ieee_pfc pfc = { .pfc_cap = 8, .pfc_en = 0x08 };
	const struct dcb_app app = { .selector = 5, .priority = 3, .protocol = 26 };

	(void)state;
	/* Accepted: verdict 0 in DCB_ATTR_IEEE, ACK 0. */
	f->answer = ANS_VERDICT;
	f->verdict_attr = DCB_ATTR_IEEE;
	f->verdict = 0;
	assert_int_equal(halo_dcbnl_set_pfc(t, "rdma0", &pfc), 0);
	check_start((struct nlmsghdr *)f->k.req, RTM_SETDCB, DCB_CMD_IEEE_SET);
	assert_int_equal(halo_dcbnl_app_add(t, "rdma0", &app, 1), 0);
	assert_int_equal(halo_dcbnl_app_del(t, "rdma0", &app, 1), 0);
	check_start((struct nlmsghdr *)f->k.req, RTM_SETDCB, DCB_CMD_IEEE_DEL);

	/* Refused by the driver (ice with the firmware agent on: -EINVAL as
	 * a u8) while the ACK says 0: still a failure, with the driver's
	 * own errno. */
	f->verdict = (uint8_t)-EINVAL;
	assert_int_equal(halo_dcbnl_set_pfc(t, "rdma0", &pfc), -EINVAL);
	f->verdict = (uint8_t)-EEXIST;
	assert_int_equal(halo_dcbnl_app_add(t, "rdma0", &app, 1), -EEXIST);
	assert_int_equal(halo_dcbnl_app_del(t, "rdma0", &app, 1), -EEXIST);

	/* SDCBX: the verdict is DCB_ATTR_DCBX (setdcbx's return value). */
	f->verdict_attr = DCB_ATTR_DCBX;
	f->verdict = 0;
	assert_int_equal(halo_dcbnl_set_dcbx(t, "rdma0", DCB_CAP_DCBX_HOST |
					     DCB_CAP_DCBX_VER_IEEE), 0);
	check_start((struct nlmsghdr *)f->k.req, RTM_SETDCB, DCB_CMD_SDCBX);
	f->verdict = 1; /* ice: ICE_DCB_NO_HW_CHG */
	assert_int_equal(halo_dcbnl_set_dcbx(t, "rdma0", DCB_CAP_DCBX_HOST), -EIO);

	/* The kernel's own refusal: its errno and extended ACK text. */
	f->answer = ANS_ERROR;
	f->k.error = -EOPNOTSUPP;
	f->k.extack = "device has no DCB";
	assert_int_equal(halo_dcbnl_set_pfc(t, "rdma0", &pfc), -EOPNOTSUPP);
	assert_string_equal(halo_nlt_extack(t), "device has no DCB");
	f->k.error = -ENODEV;
	f->k.extack = NULL;
	assert_int_equal(halo_dcbnl_set_dcbx(t, "nosuch", 0), -ENODEV);
	assert_null(halo_nlt_extack(t));
	assert_int_equal(counter, 10);

	/* Bad input is refused before anything is sent. */
	assert_int_equal(halo_dcbnl_app_add(t, "rdma0", &app, 0), -EINVAL);
	assert_int_equal(halo_dcbnl_set_pfc(t, "a-name-far-too-long", &pfc), -EINVAL);
	assert_int_equal(counter, 10);
	halo_nlt_free(t);
	free(f);
}

/* ---- parsers on malformed replies ---- */

static void parse_valid(void **state)
{
	char buf[BUFSZ] __attribute__((aligned(4)));
	struct halo_dcbnl_ieee *r = calloc(1, sizeof(*r));
	struct nlmsghdr *nlh;
	uint8_t mode = 0;

	(void)state;
	memset(buf, 0, sizeof(buf));
	nlh = ieee_reply(buf, 1, 0x08, HALO_DCBNL_APP_MAX); /* the largest table */
	assert_int_equal(halo_dcbnl_parse_ieee(nlh, nlh->nlmsg_len, r), 0);
	assert_int_equal(r->n_app, HALO_DCBNL_APP_MAX);
	assert_int_equal(r->pfc.pfc_en, 0x08);
	/* Readable bytes beyond the message are not part of it. */
	assert_int_equal(halo_dcbnl_parse_ieee(nlh, sizeof(buf), r), 0);

	/* A driver without PFC, APP or getdcbx: parts marked absent. */
	memset(buf, 0, sizeof(buf));
	nlh = dcb_reply(buf, RTM_GETDCB, DCB_CMD_IEEE_GET, 1);
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, "rdma0");
	mnl_attr_nest_end(nlh, mnl_attr_nest_start(nlh, DCB_ATTR_IEEE));
	assert_int_equal(halo_dcbnl_parse_ieee(nlh, nlh->nlmsg_len, r), 0);
	assert_false(r->has_pfc);
	assert_false(r->has_app);
	assert_false(r->has_dcbx);
	assert_int_equal(r->n_app, 0);

	memset(buf, 0, sizeof(buf));
	nlh = dcb_reply(buf, RTM_GETDCB, DCB_CMD_GDCBX, 1);
	mnl_attr_put_u8(nlh, DCB_ATTR_DCBX, 0x0a);
	assert_int_equal(halo_dcbnl_parse_dcbx(nlh, nlh->nlmsg_len, &mode), 0);
	assert_int_equal(mode, 0x0a);
	free(r);
}

/* Offset of the first attribute of TYPE (top level or nested once or
 * twice) in the message at BUF, found by walking it. */
static size_t find_attr(const struct nlmsghdr *nlh, size_t from, uint16_t type)
{
	for (size_t off = from; off + 4 <= nlh->nlmsg_len;) {
		uint16_t len = u16_at(nlh, off), t = u16_at(nlh, off + 2);

		if ((t & NLA_TYPE_MASK) == type)
			return off;
		off += (t & NLA_F_NESTED) ? 4 : MNL_ALIGN(len);
	}
	fail();
	return 0;
}

static void parse_malformed(void **state)
{
	char buf[BUFSZ] __attribute__((aligned(4)));
	struct halo_dcbnl_ieee *r = calloc(1, sizeof(*r)), *before = calloc(1, sizeof(*r));
	struct nlmsghdr *nlh;
	size_t at, full;
	uint8_t mode = 0x55;

	(void)state;
	memset(r, 0x5a, sizeof(*r));
	memcpy(before, r, sizeof(*r));
	memset(buf, 0, sizeof(buf));
	nlh = ieee_reply(buf, 1, 0x08, 2);
	full = nlh->nlmsg_len;

	/* Every truncation of the message: nlmsg_len beyond what was read. */
	for (size_t len = 0; len < full; len++)
		assert_int_equal(halo_dcbnl_parse_ieee(nlh, len, r), -EBADMSG);
	assert_int_equal(halo_dcbnl_parse_ieee(NULL, 0, r), -EBADMSG);

	/* Every shorter nlmsg_len: attributes cut short. A length that ends
	 * between top-level attributes is a shorter valid reply (the last
	 * attribute's padding may be missing, as for the kernel's nla_ok). */
	at = find_attr(nlh, 32, DCB_ATTR_DCBX);
	for (size_t len = 0; len < full; len++) {
		bool whole = len == 20 || (len >= 30 && len <= 32) ||
			     len == at || len >= at + 5;

		nlh->nlmsg_len = (uint32_t)len;
		assert_int_equal(halo_dcbnl_parse_ieee(nlh, full, r),
				 whole ? 0 : -EBADMSG);
	}
	nlh->nlmsg_len = (uint32_t)full;
	memcpy(r, before, sizeof(*r));

	/* PFC one byte short, one byte long (kept inside the nest). */
	at = find_attr(nlh, 32, DCB_ATTR_IEEE_PFC);
	((struct nlattr *)(buf + at))->nla_len = 4 + 135;
	assert_int_equal(halo_dcbnl_parse_ieee(nlh, full, r), -EBADMSG);
	((struct nlattr *)(buf + at))->nla_len = 4 + 136;

	/* An APP entry of 3 bytes. */
	at = find_attr(nlh, find_attr(nlh, 32, DCB_ATTR_IEEE_APP_TABLE) + 4,
		       DCB_ATTR_IEEE_APP);
	((struct nlattr *)(buf + at))->nla_len = 4 + 3;
	assert_int_equal(halo_dcbnl_parse_ieee(nlh, full, r), -EBADMSG);
	((struct nlattr *)(buf + at))->nla_len = 4 + 4;

	/* A nested attribute claiming more than its nest holds. */
	((struct nlattr *)(buf + at))->nla_len = 200;
	assert_int_equal(halo_dcbnl_parse_ieee(nlh, full, r), -EBADMSG);
	((struct nlattr *)(buf + at))->nla_len = 2; /* shorter than its header */
	assert_int_equal(halo_dcbnl_parse_ieee(nlh, full, r), -EBADMSG);
	((struct nlattr *)(buf + at))->nla_len = 4 + 4;

	/* DCBX as a u16. */
	at = find_attr(nlh, 32, DCB_ATTR_DCBX);
	((struct nlattr *)(buf + at))->nla_len = 6;
	assert_int_equal(halo_dcbnl_parse_ieee(nlh, full, r), -EBADMSG);
	((struct nlattr *)(buf + at))->nla_len = 5;

	/* Another command's reply, another message type. */
	buf[17] = DCB_CMD_GDCBX;
	assert_int_equal(halo_dcbnl_parse_ieee(nlh, full, r), -EBADMSG);
	buf[17] = DCB_CMD_IEEE_GET;
	nlh->nlmsg_type = RTM_SETDCB;
	assert_int_equal(halo_dcbnl_parse_ieee(nlh, full, r), -EBADMSG);
	nlh->nlmsg_type = RTM_GETDCB;
	assert_memory_equal(r, before, sizeof(*r)); /* untouched by failures */
	assert_int_equal(halo_dcbnl_parse_ieee(nlh, full, r), 0);

	/* One entry more than the table holds. */
	memset(buf, 0, sizeof(buf));
	nlh = ieee_reply(buf, 1, 0x08, HALO_DCBNL_APP_MAX + 1);
	assert_int_equal(halo_dcbnl_parse_ieee(nlh, nlh->nlmsg_len, r), -EBADMSG);

	/* GDCBX: no mode, a mode of two bytes, garbage after the last
	 * attribute. */
	memset(buf, 0, sizeof(buf));
	nlh = dcb_reply(buf, RTM_GETDCB, DCB_CMD_GDCBX, 1);
	assert_int_equal(halo_dcbnl_parse_dcbx(nlh, nlh->nlmsg_len, &mode), -EBADMSG);
	mnl_attr_put_u16(nlh, DCB_ATTR_DCBX, 8);
	assert_int_equal(halo_dcbnl_parse_dcbx(nlh, nlh->nlmsg_len, &mode), -EBADMSG);
	memset(buf, 0, sizeof(buf));
	nlh = dcb_reply(buf, RTM_GETDCB, DCB_CMD_GDCBX, 1);
	mnl_attr_put_u8(nlh, DCB_ATTR_DCBX, 8);
	nlh->nlmsg_len += 2;
	assert_int_equal(halo_dcbnl_parse_dcbx(nlh, nlh->nlmsg_len, &mode), -EBADMSG);
	assert_int_equal(mode, 0x55);
	free(before);
	free(r);
}

/* ---- the real kernel: loopback has no dcbnl_ops ---- */

static void kernel_eopnotsupp(void **state)
{
	struct halo_dcbnl_ieee *r = calloc(1, sizeof(*r));
	struct halo_nlt *t = NULL;
	struct ieee_pfc pfc = { 0 };
	unsigned long counter = 0;
	uint8_t mode;

	(void)state;
	assert_int_equal(halo_nlt_new(&counter, &t), 0);
	assert_int_equal(halo_dcbnl_ieee_get(t, "lo", r), -EOPNOTSUPP);
	assert_int_equal(halo_dcbnl_get_dcbx(t, "lo", &mode), -EOPNOTSUPP);
	assert_int_equal(halo_dcbnl_set_pfc(t, "lo", &pfc), -EOPNOTSUPP);
	assert_int_equal(halo_dcbnl_ieee_get(t, "halo-nosuch0", r), -ENODEV);
	assert_int_equal(counter, 4);
	halo_nlt_free(t);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(uapi_layouts),
		cmocka_unit_test(encode_get),
		cmocka_unit_test(encode_sdcbx),
		cmocka_unit_test(encode_pfc),
		cmocka_unit_test(encode_app),
		cmocka_unit_test(encode_errors),
		cmocka_unit_test(get_through_transport),
		cmocka_unit_test(set_verdicts),
		cmocka_unit_test(parse_valid),
		cmocka_unit_test(parse_malformed),
		cmocka_unit_test(kernel_eopnotsupp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
