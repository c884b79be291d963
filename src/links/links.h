/* SPDX-License-Identifier: GPL-2.0-or-later */
/* links.h: the links subsystem: MTU, admin state, addresses and routes of
 * the managed links, through rtnetlink (netlink/rtnl.h). */
#pragma once

#include "config/halo-config.h"
#include "engine/plan.h"
#include "halo.h"
#include "util/errors.h"

/* Adds link/<name>/... items and the NetworkManager unmanaged drop-in.
 * One link dump and one address dump (plus one route dump if routes are
 * configured) per run. Matching problems and MTU out of the device's range
 * go to ERRS. */
/* Returns 0, or -EINVAL after adding validation errors to ERRS (no match,
 * ambiguous match, MTU outside the device's range, an address on another
 * link), or another -errno with its line in ERRS. With ctx->netns set the
 * process has entered that namespace when this returns (it stays there:
 * later netlink sockets of any subsystem land in it too). No interfaces
 * configured: no netlink at all, no items.
 *
 * With ctx->interface set, only the entries that manage it are matched,
 * validated and planned (halo_links_select: the entry of that name, or
 * whose keys match the live link of that name); other entries may be
 * absent. None manages it: a warning and no items, returns 0. The
 * NetworkManager drop-in, which lists every managed link, is then left
 * alone. */
int halo_links_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		    struct halo_plan *plan, struct halo_errors *errs);
