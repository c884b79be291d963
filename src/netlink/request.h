/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * request.h: what the dcbnl, devlink and ethtool codecs' requests share:
 * the start of a request (netlink header and family header in a zeroed
 * buffer; generic netlink's genlmsghdr), and a request answered by one
 * message that a codec's parser must accept.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "netlink/transport.h"

/* Starts a request of TYPE in BUF (SIZE bytes, all zeroed first: libmnl
 * 1.0.4 leaves attribute padding as it was, and no stale bytes may reach
 * the kernel) with NLM_F_REQUEST | NLM_F_ACK and a zeroed family header
 * of HDRLEN bytes, returned in *RET_HDR. 0 or -EMSGSIZE. */
int halo_req_start(void *buf, size_t size, uint16_t type, size_t hdrlen,
		   struct nlmsghdr **ret_nlh, void **ret_hdr);

/* The same for generic netlink: FAMILY's id, CMD, VERSION. */
int halo_genl_req_start(void *buf, size_t size, uint16_t family, uint8_t cmd,
			uint8_t version, struct nlmsghdr **ret_nlh);

/* A codec's parser of one reply message (LEN readable bytes) into RET:
 * 0, or -errno with RET untouched. */
typedef int (*halo_req_parse_fn)(const void *nlh, size_t len, void *ret);

/* Sends NLH over PROTO as a GET (halo_nlt_get: no ACK asked for) and
 * reads its answer: the message goes to PARSE, into a scratch object of
 * SIZE bytes, then is copied to RET. -EBADMSG when an ACK came without an
 * answer; RET is untouched on failure. */
int halo_req_one(struct halo_nlt *t, enum halo_nlt_proto proto,
		 struct nlmsghdr *nlh, halo_req_parse_fn parse, size_t size,
		 void *ret);
