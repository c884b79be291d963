/* SPDX-License-Identifier: GPL-2.0-or-later */
/* networkd.h: keeping systemd-networkd's (and so netplan's) hands off the
 * managed links. */
#pragma once

#include <stdbool.h>

#include "engine/plan.h"
#include "host/host.h"

#define HALO_NETWORKD_DROPIN_NAME "00-halo-provision-unmanaged.network"
#define HALO_NETWORKD_DROPIN "/etc/systemd/network/" HALO_NETWORKD_DROPIN_NAME

/* What networkd does with each of N managed links. */
struct halo_networkd_view {
	bool present;      /* installed, and enabled or running (host/networkd.h) */
	size_t n;
	/* Per link: the file that would manage it without our drop-in (a
	 * path inside the root), NULL none or one saying Unmanaged=yes. */
	char **would;
	/* Per link: the file networkd's runtime record says manages it now,
	 * when that is not our drop-in; NULL none. */
	char **now;
	/* Per link: our drop-in, as it is on disk, names it. */
	bool *listed;
};

/*
 * Fills *RET for the LINKS (N of them). A file of networkd's search path
 * or a runtime record that cannot be read is an error: -errno with
 * *RET_WHY naming it (caller frees).
 */
int halo_networkd_view(const struct halo_ctx *ctx, const struct halo_host_link *const *links,
		       size_t n, struct halo_networkd_view *ret, char **ret_why);
void halo_networkd_view_free(struct halo_networkd_view *v);

/* Why link I of V may be reset by networkd ("systemd-networkd manages
 * eth-a (/run/systemd/network/10-x.network)"), for a drift message, or
 * NULL when networkd does not touch it. Caller frees. */
char *halo_networkd_cause(const struct halo_networkd_view *v, size_t i, const char *name);

/* Warnings for a file that sorts before the drop-in and matches one of
 * the LINKS (networkd would take that one instead). 0 or -ENOMEM. */
int halo_networkd_warn_order(struct halo_plan *plan, const struct halo_host_link *const *links,
			     size_t n, const struct halo_networkd_view *v);

/*
 * Adds the owned drop-in item naming every link networkd would manage,
 * or, when none is left, the removal of a drop-in of ours that is there.
 * Nothing otherwise. The warnings of halo_networkd_warn_order.
 */
int halo_networkd_plan(struct halo_ctx *ctx, struct halo_plan *plan,
		       const struct halo_host_link *const *links, size_t n,
		       const struct halo_networkd_view *v);

/* A drop-in of ours that is there goes (no managed link at all): the
 * removal item, or nothing when there is none. */
int halo_networkd_plan_stale(struct halo_ctx *ctx, struct halo_plan *plan);
