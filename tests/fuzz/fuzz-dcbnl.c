/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-dcbnl.c: the dcbnl reply parsers of src/netlink/dcbnl.c
 * (halo_dcbnl_parse_ieee, halo_dcbnl_parse_dcbx). Input: replies as the kernel
 * sends them, messages back to back; each is parsed with its own
 * nlmsg_len, in an allocation of exactly that size, and with the rest of
 * the buffer.
 *
 * Properties: 0 or -EBADMSG; an APP table within HALO_DCBNL_APP_MAX and
 * only when the reply had one.
 *
 * The same input then answers, through the transport's seam, each dcbnl
 * request (IEEE_GET, GDCBX, and the SETs whose verdict is a reply
 * attribute): every one ends with 0 or a negative errno, once counted.
 */
#include "config.h"

#include <errno.h>
#include <linux/netlink.h>

#include "fuzz/fuzz.h"
#include "netlink/transport.h"
#include "netlink/dcbnl.h"

static struct halo_dcbnl_ieee ieee;

static void parse_all(const void *msg, size_t len)
{
	uint8_t mode;
	int r;

	r = halo_dcbnl_parse_ieee(msg, len, &ieee);
	FUZZ_CHECK(r == 0 || r == -EBADMSG);
	if (r == 0) {
		FUZZ_CHECK(ieee.n_app <= HALO_DCBNL_APP_MAX);
		FUZZ_CHECK(ieee.has_app || ieee.n_app == 0);
	}
	r = halo_dcbnl_parse_dcbx(msg, len, &mode);
	FUZZ_CHECK(r == 0 || r == -EBADMSG);
}

/* Answers with the input, every message given the request's sequence
 * number (others would be skipped unread). */
static int reply_io(void *userdata, enum halo_nlt_proto proto,
		    const struct nlmsghdr *req, size_t len, void *out, size_t size)
{
	const struct fuzz_reply *r = userdata;

	(void)proto;
	(void)len;
	return fuzz_reply_copy(r, req, out, size);
}

static void requests(const uint8_t *data, size_t size)
{
	const struct dcb_app app = { .selector = 5, .priority = 3, .protocol = 26 };
	const struct ieee_pfc pfc = { .pfc_cap = 8, .pfc_en = 0x08 };
	struct fuzz_reply r = { data, size };
	struct halo_nlt *t = NULL;
	unsigned long counter = 0;
	uint8_t mode;
	int err;

	if (halo_nlt_new(&counter, &t) < 0)
		abort();
	halo_nlt_set_io(t, reply_io, &r);
	err = halo_dcbnl_ieee_get(t, "rdma0", &ieee);
	FUZZ_CHECK(err <= 0);
	if (err == 0)
		FUZZ_CHECK(ieee.n_app <= HALO_DCBNL_APP_MAX);
	FUZZ_CHECK(halo_dcbnl_get_dcbx(t, "rdma0", &mode) <= 0);
	FUZZ_CHECK(halo_dcbnl_set_pfc(t, "rdma0", &pfc) <= 0);
	FUZZ_CHECK(halo_dcbnl_app_add(t, "rdma0", &app, 1) <= 0);
	FUZZ_CHECK(halo_dcbnl_app_del(t, "rdma0", &app, 1) <= 0);
	FUZZ_CHECK(halo_dcbnl_set_dcbx(t, "rdma0", 0x09) <= 0);
	FUZZ_CHECK(counter == 6);
	fuzz_check_extack(halo_nlt_extack(t));
	halo_nlt_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf = fuzz_copy(data, size);

	fuzz_each_message(buf, size, parse_all);
	requests(buf, size);
	free(buf);
	return 0;
}
