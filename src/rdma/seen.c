/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * seen.c: what one observation pass found of a link's RDMA device and
 * GID table. Four items of the link and the env file look them up in
 * every pass; read once, they are one listing of each sysfs directory and
 * one read of each attribute instead of five.
 *
 * The engine changes nothing while it observes, and counts
 * ctx->generation up before it observes again after the phases applied
 * (engine/engine.c): an answer is kept for the generation it was read in
 * only. An apply reads anew and drops what was kept, because the phases
 * before it change exactly these facts: irdma probes its device, ice
 * replaces its iWARP device by a RoCE one when enable_roce is set
 * (docs/hardware.md "RDMA devices and GIDs"), the GID of the address
 * comes with the address. Items planned again after the modules phase
 * (engine/run.c) come with a new one. A failed lookup is not kept: it is
 * done again, to say why each time.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rdma/rdma.h"

struct halo_rdma_seen *halo_rdma_seen_new(void)
{
	struct halo_rdma_seen *s = calloc(1, sizeof(*s));

	if (s)
		s->refs = 1;
	return s;
}

struct halo_rdma_seen *halo_rdma_seen_ref(struct halo_rdma_seen *s)
{
	if (s)
		s->refs++;
	return s;
}

void halo_rdma_seen_unref(struct halo_rdma_seen *s)
{
	if (s && --s->refs == 0)
		free(s);
}

/* S as it may answer now: what an earlier generation kept is gone. */
static struct halo_rdma_seen *current(const struct halo_ctx *ctx, struct halo_rdma_seen *s,
				      bool observing)
{
	if (!s)
		return NULL;
	if (!observing || s->generation != ctx->generation) {
		s->have_dev = s->have_gid = false;
		s->generation = ctx->generation;
	}
	return observing ? s : NULL;
}

static bool same_dev(const struct halo_rdma_dev *a, const struct halo_rdma_dev *b)
{
	return a->port == b->port && a->iwarp == b->iwarp && strcmp(a->ibdev, b->ibdev) == 0;
}

int halo_rdma_link_dev(struct halo_ctx *ctx, const struct halo_rdma_link *l, bool observing,
		       struct halo_rdma_dev *ret, char **ret_why)
{
	struct halo_rdma_seen *s = current(ctx, l->seen, observing);
	int err;

	*ret_why = NULL;
	if (s && s->have_dev) {
		*ret = s->dev;
		return 0;
	}
	err = halo_rdma_find_dev(ctx, l->ifname, ret, ret_why);
	if (s && err == 0) {
		s->dev = *ret;
		s->have_dev = true;
	}
	return err;
}

int halo_rdma_link_gid(struct halo_ctx *ctx, const struct halo_rdma_link *l,
		       const struct halo_rdma_dev *dev, bool observing,
		       struct halo_rdma_gid *ret, char **ret_why)
{
	struct halo_rdma_seen *s = current(ctx, l->seen, observing);
	/* Kept only for the device kept: a scan is of one device's port. */
	bool keep = s && s->have_dev && same_dev(&s->dev, dev);
	int err;

	*ret_why = NULL;
	if (keep && s->have_gid) {
		*ret = s->gid;
		return 0;
	}
	err = halo_rdma_gid_find(ctx, dev, l->ifname, l->has_addr ? l->addr : NULL, ret, ret_why);
	if (keep && err == 0) {
		s->gid = *ret;
		s->have_gid = true;
	}
	return err;
}
