/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-genl.c: the generic netlink reply parsers of src/netlink: devlink's
 * PARAM_GET (halo_devlink_parse_param), GET's reload statistics
 * (halo_devlink_parse_reloads) and ethtool's PRIVFLAGS_GET with
 * its bitset (halo_ethtool_parse_privflags, halo_ethtool_parse_bitset).
 * Input: replies back to back; each message is parsed with its own nlmsg_len, in an
 * allocation of exactly that size, and with the rest of the buffer; its
 * attributes after the generic netlink header are also parsed as a bare
 * bitset.
 *
 * Properties: 0 or -EBADMSG; names NUL-terminated inside their arrays;
 * no flag at or beyond the bitset's size.
 *
 * The same input then answers, through the transport's seam, the devlink
 * and ethtool requests (the family lookups get a proper answer): each
 * ends with 0 or a negative errno.
 */
#include "config.h"

#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <libmnl/libmnl.h>

#include "fuzz/fuzz.h"
#include "netlink/transport.h"
#include "netlink/devlink.h"
#include "netlink/ethtool.h"

static void check_flags(const struct halo_ethtool_privflags *f)
{
	uint32_t outside = f->n >= 32 ? 0 : ~((1u << f->n) - 1);

	FUZZ_CHECK(f->n <= HALO_ETHTOOL_PRIVFLAGS_MAX);
	FUZZ_CHECK(!(f->values & outside));
	FUZZ_CHECK(!(f->named & outside));
	for (uint32_t i = 0; i < f->n; i++)
		if (f->named & (1u << i))
			FUZZ_CHECK(memchr(f->names[i], '\0', sizeof(f->names[i])));
}

static void check_info(const struct halo_devlink_info *i)
{
	FUZZ_CHECK(memchr(i->driver, '\0', sizeof(i->driver)));
	FUZZ_CHECK(memchr(i->serial, '\0', sizeof(i->serial)));
	FUZZ_CHECK(i->n_running <= HALO_DEVLINK_VERSIONS_MAX);
	for (size_t k = 0; k < i->n_running; k++) {
		FUZZ_CHECK(memchr(i->running[k].name, '\0', sizeof(i->running[k].name)));
		FUZZ_CHECK(memchr(i->running[k].value, '\0', sizeof(i->running[k].value)));
	}
}

static void parse_all(const void *msg, size_t len)
{
	struct halo_devlink_info *info;
	struct halo_devlink_param p;
	struct halo_ethtool_privflags f;
	uint64_t reloads;
	int r;

	r = halo_devlink_parse_param(msg, len, &p);
	FUZZ_CHECK(r == 0 || r == -EBADMSG);
	if (r == 0)
		FUZZ_CHECK(memchr(p.name, '\0', sizeof(p.name)));
	info = malloc(sizeof(*info));
	if (!info)
		abort();
	r = halo_devlink_parse_info(msg, len, info);
	FUZZ_CHECK(r == 0 || r == -EBADMSG || r == -ENOMEM);
	if (r == 0)
		check_info(info);
	free(info);
	r = halo_devlink_parse_reloads(msg, len, &reloads);
	FUZZ_CHECK(r == 0 || r == -EBADMSG || r == -EOPNOTSUPP);
	r = halo_ethtool_parse_privflags(msg, len, &f);
	FUZZ_CHECK(r == 0 || r == -EBADMSG);
	if (r == 0)
		check_flags(&f);
	if (len >= NLMSG_HDRLEN + GENL_HDRLEN) {
		r = halo_ethtool_parse_bitset((const uint8_t *)msg + NLMSG_HDRLEN + GENL_HDRLEN,
					      len - NLMSG_HDRLEN - GENL_HDRLEN, &f);
		FUZZ_CHECK(r == 0 || r == -EBADMSG);
		if (r == 0)
			check_flags(&f);
	}
}

/* A family lookup is answered as the kernel would (id 0x20); every other
 * request with the input, each message given the request's sequence. */
static int reply_io(void *userdata, enum halo_nlt_proto proto,
		    const struct nlmsghdr *req, size_t len, void *out, size_t size)
{
	const struct fuzz_reply *r = userdata;
	uint8_t *buf = out;
	size_t off;

	(void)proto;
	(void)len;
	if (req->nlmsg_type == GENL_ID_CTRL) {
		struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
		struct nlmsgerr *e;

		nlh->nlmsg_type = GENL_ID_CTRL;
		nlh->nlmsg_seq = req->nlmsg_seq;
		((struct genlmsghdr *)mnl_nlmsg_put_extra_header(nlh, GENL_HDRLEN))->cmd =
			CTRL_CMD_NEWFAMILY;
		mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 0x20);
		off = MNL_ALIGN(nlh->nlmsg_len);
		nlh = mnl_nlmsg_put_header(buf + off);
		nlh->nlmsg_type = NLMSG_ERROR;
		nlh->nlmsg_flags = NLM_F_CAPPED;
		nlh->nlmsg_seq = req->nlmsg_seq;
		e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
		e->error = 0;
		e->msg = *req;
		return (int)(off + nlh->nlmsg_len);
	}
	return fuzz_reply_copy(r, req, out, size);
}

static void requests(const uint8_t *data, size_t size)
{
	struct fuzz_reply r = { data, size };
	struct halo_ethtool_privflags f;
	struct halo_devlink_info *info;
	struct halo_nlt *t = NULL;
	unsigned long counter = 0;
	uint64_t reloads;
	bool on;
	int err;

	if (halo_nlt_new(&counter, &t) < 0)
		abort();
	halo_nlt_set_io(t, reply_io, &r);
	FUZZ_CHECK(halo_devlink_param_get_bool(t, "pci", "0000:c2:00.0", "enable_roce",
					       0, &on) <= 0);
	FUZZ_CHECK(halo_devlink_param_set_bool(t, "pci", "0000:c2:00.0", "enable_roce",
					       0, true) <= 0);
	FUZZ_CHECK(halo_devlink_reload_count(t, "pci", "0000:c2:00.0", &reloads) <= 0);
	err = halo_ethtool_privflags_get(t, "rdma0", &f);
	FUZZ_CHECK(err <= 0);
	if (err == 0)
		check_flags(&f);
	FUZZ_CHECK(halo_ethtool_privflag_get(t, "rdma0", "fw-lldp-agent", &on) <= 0);
	FUZZ_CHECK(halo_ethtool_privflag_set(t, "rdma0", "fw-lldp-agent", false) <= 0);
	info = malloc(sizeof(*info));
	if (!info)
		abort();
	err = halo_devlink_info_get(t, "pci", "0000:c2:00.0", info);
	FUZZ_CHECK(err <= 0);
	if (err == 0)
		check_info(info);
	free(info);
	/* Two family lookups, then seven requests. */
	FUZZ_CHECK(counter == 9);
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
