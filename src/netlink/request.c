/* SPDX-License-Identifier: GPL-2.0-or-later */
/* request.c: the requests every netlink codec builds and sends (request.h). */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "netlink/request.h"

int halo_req_start(void *buf, size_t size, uint16_t type, size_t hdrlen,
		   struct nlmsghdr **ret_nlh, void **ret_hdr)
{
	struct nlmsghdr *nlh;

	if (size < MNL_NLMSG_HDRLEN + MNL_ALIGN(hdrlen))
		return -EMSGSIZE;
	memset(buf, 0, size);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	*ret_hdr = mnl_nlmsg_put_extra_header(nlh, hdrlen);
	*ret_nlh = nlh;
	return 0;
}

int halo_genl_req_start(void *buf, size_t size, uint16_t family, uint8_t cmd,
			uint8_t version, struct nlmsghdr **ret_nlh)
{
	struct genlmsghdr *g;
	void *hdr;
	int err = halo_req_start(buf, size, family, sizeof(*g), ret_nlh, &hdr);

	if (err < 0)
		return err;
	g = hdr;
	g->cmd = cmd;
	g->version = version;
	return 0;
}

struct answer {
	halo_req_parse_fn parse;
	void *scratch;
	bool seen;
};

static int answer_msg(const struct nlmsghdr *nlh, void *userdata)
{
	struct answer *a = userdata;
	int err = a->parse(nlh, nlh->nlmsg_len, a->scratch);

	a->seen = err == 0;
	return err;
}

int halo_req_one(struct halo_nlt *t, enum halo_nlt_proto proto,
		 struct nlmsghdr *nlh, halo_req_parse_fn parse, size_t size,
		 void *ret)
{
	/* On the heap: dcbnl's IEEE answer carries a whole APP table. */
	struct answer a = { .parse = parse, .scratch = calloc(1, size) };
	int err;

	if (!a.scratch)
		return -ENOMEM;
	err = halo_nlt_get(t, proto, nlh, answer_msg, &a);
	if (err == 0 && !a.seen)
		err = -EBADMSG; /* ACKed without an answer */
	if (err == 0)
		memcpy(ret, a.scratch, size);
	free(a.scratch);
	return err;
}
