/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * transport.c: requests out, replies in, for every netlink protocol this
 * program speaks. Reading is ours (one loop for all protocols) so that
 * every reply is read up to its ACK or DONE, the errno is the kernel's own
 * and the extended ACK is never lost to a library's error mapping.
 */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "netlink/transport.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif
#ifndef NETLINK_GET_STRICT_CHK
#define NETLINK_GET_STRICT_CHK 12
#endif

/* Large enough for any datagram the kernel sends in a dump (it caps them
 * at 32 KiB) and for an ACK echoing a request. */
#define REPLY_BUF (64 * 1024)
#define FAMILIES_MAX 16

struct family {
	char name[GENL_NAMSIZ];
	uint16_t id;
};

struct halo_nlt {
	unsigned long *counter;
	struct mnl_socket *mnl[HALO_NLT_N];     /* one per protocol, on first use */
	uint32_t seq;
	void *buf;
	halo_nlt_io_fn io;
	void *io_data;
	struct family families[FAMILIES_MAX];
	size_t n_families;
	char extack[256];
};

int halo_nlt_new(unsigned long *counter, struct halo_nlt **ret)
{
	struct halo_nlt *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	t->buf = malloc(REPLY_BUF);
	if (!t->buf) {
		free(t);
		return -ENOMEM;
	}
	t->counter = counter;
	t->seq = 1;
	*ret = t;
	return 0;
}

void halo_nlt_free(struct halo_nlt *t)
{
	if (!t)
		return;
	for (int p = 0; p < HALO_NLT_N; p++)
		if (t->mnl[p])
			mnl_socket_close(t->mnl[p]);
	free(t->buf);
	free(t);
}

void halo_nlt_set_io(struct halo_nlt *t, halo_nlt_io_fn io, void *userdata)
{
	t->io = io;
	t->io_data = userdata;
}

const char *halo_nlt_extack(const struct halo_nlt *t)
{
	return t->extack[0] ? t->extack : NULL;
}

/* Extended ACK and capped ACKs, strict checking of dump filters: each is
 * best effort, an older kernel simply does without. */
static void sock_options(int fd)
{
	int one = 1;

	(void)setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	(void)setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	(void)setsockopt(fd, SOL_NETLINK, NETLINK_GET_STRICT_CHK, &one, sizeof(one));
}

/* Our port and the socket's fd for PROTO, opened on first use. */
static int sock_get(struct halo_nlt *t, enum halo_nlt_proto proto,
		    int *ret_fd, uint32_t *ret_port)
{
	/* dcbnl is rtnetlink (RTM_GETDCB, RTM_SETDCB): one socket serves
	 * both, answers told apart by their sequence numbers. */
	if (proto == HALO_NLT_DCB)
		proto = HALO_NLT_ROUTE;
	if (!t->mnl[proto]) {
		struct mnl_socket *s;
		int err;

		s = mnl_socket_open(proto == HALO_NLT_GENERIC ? NETLINK_GENERIC
							  : NETLINK_ROUTE);
		if (!s)
			return -errno;
		if (mnl_socket_bind(s, 0, MNL_SOCKET_AUTOPID) < 0) {
			err = -errno;
			mnl_socket_close(s);
			return err;
		}
		sock_options(mnl_socket_get_fd(s));
		t->mnl[proto] = s;
	}
	*ret_fd = mnl_socket_get_fd(t->mnl[proto]);
	*ret_port = mnl_socket_get_portid(t->mnl[proto]);
	return 0;
}

/* Keeps the NLMSGERR_ATTR_MSG text of the TLVs at OFF in NLH. */
static void extack_keep(struct halo_nlt *t, const struct nlmsghdr *nlh,
			size_t off)
{
	const struct nlattr *a;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || off >= nlh->nlmsg_len)
		return;
	mnl_attr_for_each(a, nlh, off - MNL_NLMSG_HDRLEN) {
		if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
		    mnl_attr_get_payload_len(a) > 0) {
			snprintf(t->extack, sizeof(t->extack), "%.*s",
				 (int)mnl_attr_get_payload_len(a),
				 (const char *)mnl_attr_get_payload(a));
			return;
		}
	}
}

/* The verdict attribute V of NLH, when there and nonzero: dcbnl puts the
 * driver's int return into a u8, so a negative errno comes back as its
 * low byte (-EINVAL as 234) and is given back as that errno; a positive
 * status (SDCBX's "no change", mlx5's 1) is -EIO. */
static int verdict_check(const struct nlmsghdr *nlh,
			 const struct halo_nlt_verdict *v)
{
	const struct nlattr *a;

	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + MNL_ALIGN(v->hdrlen))
		return -EBADMSG;
	mnl_attr_for_each(a, nlh, v->hdrlen) {
		if (mnl_attr_get_type(a) != v->attr)
			continue;
		if (mnl_attr_validate(a, MNL_TYPE_U8) < 0)
			return -EBADMSG;
		int8_t status = (int8_t)mnl_attr_get_u8(a);

		return status < 0 ? status : status > 0 ? -EIO : 0;
	}
	return 0;
}

struct reading {
	uint32_t seq;
	halo_nlt_msg_fn fn;
	void *userdata;
	const struct halo_nlt_verdict *verdict;
	int err;      /* first failure: the kernel's, or FN's */
	bool one;     /* a GET: its one data message ends the answer */
	bool done;
	bool intr;
};

/* One datagram of the reply. */
static void read_datagram(struct halo_nlt *t, const void *buf, size_t len,
			  struct reading *r)
{
	size_t pos = 0;

	/* Not mnl_nlmsg_ok: it casts nlmsg_len to int, so a length of
	 * 0xffffffff passes as -1 and aligns to 0: the walk never ends. */
	while (len - pos >= NLMSG_HDRLEN) {
		const struct nlmsghdr *nlh = (const void *)((const char *)buf + pos);
		int err = 0;

		/* A message that does not fit its datagram ends the answer:
		 * the rest of it cannot be found, and waiting for more would
		 * wait forever. */
		if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > len - pos) {
			if (r->err == 0)
				r->err = -EBADMSG;
			r->done = true;
			return;
		}
		pos += NLMSG_ALIGN((size_t)nlh->nlmsg_len);
		if (pos > len)
			pos = len;

		if (nlh->nlmsg_seq != r->seq)
			continue; /* a late answer to an earlier request */
		if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
			r->intr = true;
		switch (nlh->nlmsg_type) {
		case NLMSG_NOOP:
			continue;
		case NLMSG_ERROR: {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
			size_t off = MNL_NLMSG_HDRLEN + sizeof(*e);

			r->done = true;
			if (nlh->nlmsg_len < off) {
				err = -EBADMSG;
				break;
			}
			/* Not capped: the request is echoed before the TLVs. */
			if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
				off += e->msg.nlmsg_len - MNL_NLMSG_HDRLEN;
			if (e->error < 0)
				extack_keep(t, nlh, MNL_ALIGN(off));
			err = e->error > 0 ? -e->error : e->error;
			break;
		}
		case NLMSG_DONE:
			r->done = true;
			if (nlh->nlmsg_len >= MNL_NLMSG_HDRLEN + sizeof(int)) {
				int e;

				memcpy(&e, mnl_nlmsg_get_payload(nlh), sizeof(e));
				if (e < 0)
					extack_keep(t, nlh, MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(int)));
				err = e < 0 ? e : 0;
			}
			break;
		case NLMSG_OVERRUN:
			err = -ENOBUFS;
			r->done = true;
			break;
		default:
			if (r->verdict)
				err = verdict_check(nlh, r->verdict);
			if (err == 0 && r->fn)
				err = r->fn(nlh, r->userdata);
			r->done = r->one;
			break;
		}
		if (err < 0 && r->err == 0)
			r->err = err;
		if (r->done)
			return;
	}
}

/* NLM_F_DUMP is two bits that NEW requests reuse (NLM_F_EXCL is
 * NLM_F_MATCH): a change asking for CREATE|EXCL is no dump. */
static bool is_dump(const struct nlmsghdr *req)
{
	return (req->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP &&
	       !(req->nlmsg_flags & (NLM_F_CREATE | NLM_F_APPEND));
}

static int exchange(struct halo_nlt *t, enum halo_nlt_proto proto,
		    struct nlmsghdr *req, struct reading *r)
{
	uint32_t port = 0;
	int fd = -1, err;

	if (proto < 0 || proto >= HALO_NLT_N)
		return -EINVAL;
	if (!t->io) {
		err = sock_get(t, proto, &fd, &port);
		if (err < 0)
			return err;
	}
	t->extack[0] = '\0';
	req->nlmsg_flags |= NLM_F_REQUEST;
	/* A GET is answered by its one message or by an error: an ACK
	 * after the answer would only cost a second read. */
	if (r->one)
		req->nlmsg_flags &= (uint16_t)~NLM_F_ACK;
	else if (!is_dump(req))
		req->nlmsg_flags |= NLM_F_ACK;
	req->nlmsg_seq = r->seq = t->seq++;
	req->nlmsg_pid = port;

	if (t->io) {
		int n = t->io(t->io_data, proto, req, req->nlmsg_len, t->buf, REPLY_BUF);

		if (n < 0)
			return n;
		if (t->counter)
			(*t->counter)++;
		read_datagram(t, t->buf, (size_t)n, r);
	} else {
		struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };

		if (sendto(fd, req, req->nlmsg_len, 0, (struct sockaddr *)&kernel,
			   sizeof(kernel)) < 0)
			return -errno;
		if (t->counter)
			(*t->counter)++;
		while (!r->done) {
			ssize_t n = recv(fd, t->buf, REPLY_BUF, 0);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				return -errno;
			read_datagram(t, t->buf, (size_t)n, r);
		}
	}
	if (!r->done && r->err == 0)
		r->err = -EPROTO; /* the answer stopped short of its ACK */
	if (r->err < 0)
		return r->err;
	return r->intr ? -EINTR : 0;
}

int halo_nlt_request(struct halo_nlt *t, enum halo_nlt_proto proto,
		     struct nlmsghdr *req, halo_nlt_msg_fn fn, void *userdata,
		     const struct halo_nlt_verdict *verdict)
{
	struct reading r = { .fn = fn, .userdata = userdata, .verdict = verdict };

	return exchange(t, proto, req, &r);
}

int halo_nlt_get(struct halo_nlt *t, enum halo_nlt_proto proto,
		 struct nlmsghdr *req, halo_nlt_msg_fn fn, void *userdata)
{
	struct reading r = { .fn = fn, .userdata = userdata, .one = true };

	return exchange(t, proto, req, &r);
}

/* ---- generic netlink family resolution ---- */

static int family_id_cb(const struct nlmsghdr *nlh, void *userdata)
{
	const struct nlattr *a;

	if (nlh->nlmsg_type != GENL_ID_CTRL)
		return 0;
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) != CTRL_ATTR_FAMILY_ID)
			continue;
		if (mnl_attr_validate(a, MNL_TYPE_U16) < 0)
			return -EBADMSG;
		*(uint16_t *)userdata = mnl_attr_get_u16(a);
	}
	return 0;
}

int halo_nlt_family(struct halo_nlt *t, const char *name, uint16_t *ret_id)
{
	char buf[4096] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	uint16_t id = 0;
	int err;

	if (strlen(name) >= GENL_NAMSIZ)
		return -ENAMETOOLONG;
	for (size_t i = 0; i < t->n_families; i++) {
		if (strcmp(t->families[i].name, name) == 0) {
			*ret_id = t->families[i].id;
			return 0;
		}
	}
	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	err = halo_nlt_get(t, HALO_NLT_GENERIC, nlh, family_id_cb, &id);
	if (err < 0)
		return err;
	if (id == 0)
		return -EBADMSG; /* an answer without the id */
	if (t->n_families < FAMILIES_MAX) {
		snprintf(t->families[t->n_families].name, GENL_NAMSIZ, "%s", name);
		t->families[t->n_families++].id = id;
	}
	*ret_id = id;
	return 0;
}
