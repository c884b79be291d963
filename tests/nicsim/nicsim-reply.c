/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nicsim-reply.c: reply datagrams shaped like the kernel's: the ACK echoes
 * the request header (the whole request on an error unless the socket asked
 * for NETLINK_CAP_ACK), carries NLMSGERR_ATTR_MSG when there is a message,
 * and a dump ends with NLMSG_DONE.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libmnl/libmnl.h>
#include <stdlib.h>
#include <string.h>

#include "nicsim.h"

#ifndef NLM_F_CAPPED
#define NLM_F_CAPPED 0x100
#endif
#ifndef NLM_F_ACK_TLVS
#define NLM_F_ACK_TLVS 0x200
#endif

/* Datagrams of the capacity the dcbnl and generic replies ask for, kept
 * for the next reply: malloc keeps no cache of that size and searched
 * its bins for each one. Zeroed again when reused, as calloc gave them. */
#define SPARE_CAP 4096
#define SPARE_MAX 8
static struct nicsim_dgram *spares[SPARE_MAX];
static size_t n_spares;

/* A zeroed datagram of CAP bytes with room for one message; the caller
 * fills it with mnl_* and hands it back to nicsim_msg_commit. */
struct nlmsghdr *nicsim_msg_new(struct nicsim_out *out, size_t cap)
{
	struct nicsim_dgram *d;

	(void)out;
	if (cap == SPARE_CAP && n_spares > 0) {
		d = spares[--n_spares];
		memset(d, 0, sizeof(*d) + cap);
	} else {
		d = calloc(1, sizeof(*d) + cap);
	}
	if (!d)
		return NULL;
	d->cap = cap;
	d->len = cap; /* capacity until committed */
	return mnl_nlmsg_put_header(d->data);
}

void nicsim_dgram_free(struct nicsim_dgram *d)
{
	if (d && d->cap == SPARE_CAP && n_spares < SPARE_MAX)
		spares[n_spares++] = d;
	else
		free(d);
}

static struct nicsim_dgram *dgram_of(struct nlmsghdr *nlh)
{
	return (struct nicsim_dgram *)((unsigned char *)nlh -
				       offsetof(struct nicsim_dgram, data));
}

void nicsim_msg_commit(struct nicsim_out *out, struct nlmsghdr *nlh)
{
	struct nicsim_dgram *d = dgram_of(nlh);

	d->len = nlh->nlmsg_len;
	d->next = NULL;
	if (!out->tail)
		out->tail = &out->head;
	*out->tail = d;
	out->tail = &d->next;
}

int nicsim_out_ack(struct nicsim_out *out, const struct nlmsghdr *req,
		   uint32_t portid, int err, const char *msg, unsigned sockflags)
{
	bool cap_ack = sockflags & NICSIM_CAP_ACK;
	size_t echo = (err && !cap_ack) ? req->nlmsg_len : sizeof(*req);
	size_t cap = MNL_ALIGN(sizeof(struct nlmsghdr) + sizeof(int) + echo) +
		     (msg ? MNL_ALIGN(strlen(msg) + 1 + 4) : 0) + 64;
	struct nlmsghdr *nlh = nicsim_msg_new(out, cap);
	struct nlmsgerr *e;

	if (!nlh)
		return -ENOMEM;
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_seq = req->nlmsg_seq;
	nlh->nlmsg_pid = portid;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(int) + echo);
	e->error = err;
	memcpy(&e->msg, req, echo);
	if (echo == sizeof(*req))
		nlh->nlmsg_flags |= NLM_F_CAPPED;
	if (msg && *msg && (sockflags & NICSIM_EXT_ACK)) {
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, msg);
		nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
	}
	nicsim_msg_commit(out, nlh);
	return 0;
}

int nicsim_out_done(struct nicsim_out *out, const struct nlmsghdr *req,
		    uint32_t portid)
{
	struct nlmsghdr *nlh = nicsim_msg_new(out, 64);
	int *zero;

	if (!nlh)
		return -ENOMEM;
	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI;
	nlh->nlmsg_seq = req->nlmsg_seq;
	nlh->nlmsg_pid = portid;
	zero = mnl_nlmsg_put_extra_header(nlh, sizeof(int));
	*zero = 0;
	nicsim_msg_commit(out, nlh);
	return 0;
}

void nicsim_out_free(struct nicsim_out *out)
{
	struct nicsim_dgram *d = out->head;

	while (d) {
		struct nicsim_dgram *next = d->next;

		nicsim_dgram_free(d);
		d = next;
	}
	out->head = NULL;
	out->tail = &out->head;
}
