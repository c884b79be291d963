/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * transport.h: the one way this program talks netlink.
 *
 * One transport per run, kept in the run context (netlink/context.h). It
 * owns the sockets, libmnl's mnl_socket, one per netlink family:
 * NETLINK_ROUTE for rtnetlink (links, addresses, routes) and dcbnl,
 * NETLINK_GENERIC for devlink and ethtool; each opened lazily and once,
 * never per request. Every request goes through halo_nlt_request or
 * halo_nlt_get: it is sent with our own sequence number and counted,
 * every reply up to the ACK (or the dump's end, or a GET's one answer)
 * is read, the kernel's errno is kept as -errno, and the text
 * of its extended ACK (NETLINK_EXT_ACK) kept for the item's message. A
 * reply that carries its verdict inside an attribute (dcbnl's SET
 * commands answer with a u8 status) is surfaced as a failure too.
 *
 * The seam: halo_nlt_set_io() replaces the sockets with a function that
 * answers requests, so a unit test can play the kernel or a NIC.
 */
#pragma once

#include <linux/netlink.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct halo_nlt;

enum halo_nlt_proto {
	HALO_NLT_ROUTE,   /* rtnetlink: NETLINK_ROUTE */
	HALO_NLT_DCB,     /* dcbnl: the rtnetlink socket */
	HALO_NLT_GENERIC, /* generic netlink (devlink, ethtool) */
	HALO_NLT_N
};

/* Called for every data message of a reply (not for ACK, error or
 * DONE). 0 to go on, or -errno: the request then fails with it (the
 * rest of the reply is still read, so the socket stays in step). */
typedef int (*halo_nlt_msg_fn)(const struct nlmsghdr *nlh, void *userdata);

/*
 * The seam. Gets the request (REQ, LEN bytes, sequence number and port
 * already set) and writes the whole reply (data messages, then an
 * NLMSG_ERROR ACK or an NLMSG_DONE) into BUF of SIZE bytes. Returns its
 * length, or -errno (as a failed sendmsg would).
 */
typedef int (*halo_nlt_io_fn)(void *userdata, enum halo_nlt_proto proto,
			      const struct nlmsghdr *req, size_t len,
			      void *buf, size_t size);

/* A verdict inside the reply: the u8 attribute ATTR after a family header
 * of HDRLEN bytes; nonzero means the request failed: with the driver's
 * errno when the u8 holds a negative one (dcbnl stores the int return in
 * it), else -EIO. */
struct halo_nlt_verdict {
	size_t hdrlen;
	uint16_t attr;
};

/* COUNTER (may be NULL) is incremented once per request sent. */
int halo_nlt_new(unsigned long *counter, struct halo_nlt **ret);
void halo_nlt_free(struct halo_nlt *t);

/* Answers every later request through IO instead of the kernel. */
void halo_nlt_set_io(struct halo_nlt *t, halo_nlt_io_fn io, void *userdata);

/*
 * Sends REQ (its nlmsg_seq and nlmsg_pid are set here; NLM_F_REQUEST and,
 * unless it is a dump, NLM_F_ACK are added), and reads the reply: each
 * data message goes to FN (may be NULL). VERDICT may be NULL. A dump the
 * kernel marked interrupted (NLM_F_DUMP_INTR) is -EINTR. Returns 0 or
 * -errno (the kernel's own errno for an NLMSG_ERROR).
 */
int halo_nlt_request(struct halo_nlt *t, enum halo_nlt_proto proto,
		     struct nlmsghdr *req, halo_nlt_msg_fn fn, void *userdata,
		     const struct halo_nlt_verdict *verdict);

/*
 * A GET answered by one message: sent without NLM_F_ACK (cleared if the
 * request has it), so that message, or the error that replaces it, ends
 * the answer. FN gets the message. Returns as halo_nlt_request does.
 */
int halo_nlt_get(struct halo_nlt *t, enum halo_nlt_proto proto,
		 struct nlmsghdr *req, halo_nlt_msg_fn fn, void *userdata);

/* The kernel's extended-ACK message of the last failed request, or NULL. */
const char *halo_nlt_extack(const struct halo_nlt *t);

/* Generic netlink family NAME's id (CTRL_CMD_GETFAMILY, one request the
 * first time, remembered after). -ENOENT when the kernel has no such
 * family (module not loaded, or too old). */
int halo_nlt_family(struct halo_nlt *t, const char *name, uint16_t *ret_id);
