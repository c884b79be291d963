/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtnl-int.h: what the rtnetlink files of src/netlink share with each
 * other and with context.c (rtnl.h is what the rest of the program uses).
 */
#pragma once

#include "halo.h"
#include "netlink/transport.h"

struct halo_rtnl;

enum halo_rtnl_snap {
	HALO_RTNL_SNAP_LINKS,
	HALO_RTNL_SNAP_ADDRS,
	HALO_RTNL_SNAP_ROUTES,
	HALO_RTNL_SNAP_N
};

/* Sends NLH through the run's transport (HALO_NLT_ROUTE): counted, its
 * reply read to the ACK or the dump's end, each data message to FN (may
 * be NULL). 0 or -errno. */
int halo_rtnl_send(struct halo_ctx *ctx, struct nlmsghdr *nlh,
		   halo_nlt_msg_fn fn, void *userdata);

/* A change was sent: the snapshot KIND is fetched again when next read. */
void halo_rtnl_stale(struct halo_ctx *ctx, enum halo_rtnl_snap kind);

/* Frees the snapshots and their scope (the run's release). */
void halo_rtnl_free(struct halo_rtnl *rtnl);
