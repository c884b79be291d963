/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * context.h: the run's netlink, owned by the run context. Its transport
 * (netlink/transport.h) is made on first use, in the network namespace
 * main entered before anything was opened, and shared by every family:
 * rtnetlink, dcbnl, devlink and ethtool requests are counted in
 * ctx->netlink_requests and leave their extended ACK in one place.
 * main's cleanup releases it once, with whatever netlink/ keeps for the
 * run.
 */
#pragma once

#include "halo.h"

struct halo_nlt;

/* The run's transport in *RET (made on first use; its sockets open when a
 * request first needs them). 0 or -ENOMEM. */
int halo_netlink_transport(struct halo_ctx *ctx, struct halo_nlt **ret);

/* The kernel's extended-ACK message of the run's last failed request, or
 * NULL (none, or no request made yet). */
const char *halo_netlink_extack(const struct halo_ctx *ctx);

/* Closes the sockets and frees what netlink/ keeps in CTX; no-op when
 * nothing was made. */
void halo_netlink_release(struct halo_ctx *ctx);
