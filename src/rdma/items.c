/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * items.c: rdma/<entry>/device, port-state and gid-index. They change
 * nothing on the host: they report what the modules and links phases
 * brought. An apply observes them first while those phases have not run,
 * so a missing device, port or GID is drift then; the "apply" of these
 * items, which runs after those phases, waits briefly for the fact (irdma
 * probes, udev renames, the GID table fills asynchronously after the
 * address is added) and fails with the reason when it does not come.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma/rdma.h"
#include "util/strv.h"

int halo_rdma_item_add(struct halo_plan *plan, const char *key,
		       const struct halo_rdma_want *w, struct halo_item **ret_item)
{
	const struct halo_item_ops *ops = w->kind == HALO_RDMA_CM ? &halo_rdma_cm_ops :
								    &halo_rdma_dev_ops;
	struct halo_item *item;
	int err;

	err = halo_plan_add_new(plan, key, HALO_SUB_RDMA, HALO_PHASE_RDMA, ops, sizeof(*w),
				&item);
	if (err < 0)
		return err;
	memcpy(item->data, w, sizeof(*w));
	halo_rdma_seen_ref(w->link.seen);
	if (ret_item)
		*ret_item = item;
	return 0;
}

/* roce/<entry>/enable will turn RoCE on in this run: it differs, and
 * takes effect at once (ice's runtime enable_roce; mlx5's is driverinit,
 * pending a reload). */
static bool roce_pending(const struct halo_rdma_link *l)
{
	return l->roce_enable && l->roce_enable->sync == HALO_SYNC_DIFFERS &&
	       !l->roce_enable->activates_on_reboot;
}

/* Whether this observation may still see the fact change in this run:
 * the first observation of an apply, or a check while the modules phase
 * has work (it would load the RDMA driver) or RoCE is still to be turned
 * on (roce items are observed first: they are planned first). */
static bool may_come(const struct halo_ctx *ctx, const struct halo_rdma_link *l)
{
	return ctx->mode == HALO_MODE_APPLY || l->modules_pending || roce_pending(l);
}

/* What to do about an iWARP device where RoCE is wanted; into BUF. */
static const char *iwarp_hint(const struct halo_ctx *ctx, const struct halo_rdma_link *l,
			      char *buf, size_t size)
{
	const struct halo_item *e = l->roce_enable;

	if (!l->roce_enable_wanted)
		return ": set roce.enable = true (devlink enable_roce)";
	if (!e)
		return ": the roce subsystem applies roce.enable = true (include roce in --only)";
	if (ctx->mode != HALO_MODE_APPLY && roce_pending(l))
		return ""; /* the line names the item to apply first */
	if (e->sync == HALO_SYNC_OK && e->outcome != HALO_OUTCOME_FAILED)
		return ", although devlink enable_roce is on";
	snprintf(buf, size, " (%s)", e->key);
	return buf;
}

/* What a check must wait for before the device can come. */
static const char *first_work(const struct halo_rdma_link *l)
{
	return l->modules_pending ? "the modules phase" : l->roce_enable->key;
}

int halo_rdma_item_dev(struct halo_ctx *ctx, struct halo_item *item,
		       const struct halo_rdma_link *l, bool observing, unsigned wait_ms,
		       struct halo_rdma_dev *ret)
{
	_cleanup_free_ char *why = NULL;
	char hint[320];
	unsigned waited = 0;
	int err;

	for (;;) {
		free(why);
		why = NULL;
		err = halo_rdma_link_dev(ctx, l, observing, ret, &why);
		if (err == 0 && !ret->iwarp)
			return 0;
		if (err == -ENOTUNIQ && why) {
			(void)halo_item_set_message(item, "%s", why);
			return err;
		}
		if (err < 0 && err != -ENODEV)
			return halo_item_fail_why(item, err, why, "looking up the RDMA device of %s", l->ifname);
		if (waited >= wait_ms)
			break;
		halo_rdma_sleep_ms(HALO_RDMA_POLL_MS);
		waited += HALO_RDMA_POLL_MS;
	}
	if (err == 0) {
		/* ice hands irdma an iWARP device until enable_roce is set. */
		(void)halo_item_set_observed(item, "%s port %u (iWARP)", ret->ibdev, ret->port);
		free(why);
		why = halo_strdup_printf("%s on %s is an iWARP device, not RoCE%s", ret->ibdev,
					 l->ifname, iwarp_hint(ctx, l, hint, sizeof(hint)));
		err = -EPROTONOSUPPORT;
	} else {
		(void)halo_item_set_observed(item, NULL);
		if (!why)
			why = halo_rdma_why_no_dev(ctx, l->ifname, l->driver);
	}
	if (!why)
		return -ENOMEM;
	if (wait_ms == 0 && may_come(ctx, l)) {
		if (ctx->mode == HALO_MODE_APPLY)
			(void)halo_item_set_message(item, "%s", why);
		else
			(void)halo_item_set_message(item, "%s (%s has work to do first)", why,
						    first_work(l));
		return HALO_SYNC_DIFFERS;
	}
	(void)halo_item_set_message(item, "%s", why);
	return err;
}

/* "4: ACTIVE" -> "ACTIVE". */
static const char *state_word(const char *s)
{
	const char *colon = strchr(s, ':');

	return colon ? colon + 1 + strspn(colon + 1, " ") : s;
}

static int port_read(struct halo_ctx *ctx, struct halo_item *item,
		     const struct halo_rdma_dev *dev, bool *ret_active)
{
	_cleanup_free_ char *why = NULL;
	char state[64], phys[64];
	const char *s, *p;
	int err = halo_rdma_port_state(ctx, dev, state, sizeof(state), phys, sizeof(phys),
				       &why);

	if (err < 0)
		return halo_item_fail_why(item, err, why, "reading the state of %s port %u", dev->ibdev,
			      dev->port);
	s = state_word(state);
	p = state_word(phys);
	(void)halo_item_set_observed(item, "%s, %s", s, p);
	*ret_active = strcmp(s, "ACTIVE") == 0 && strcmp(p, "LinkUp") == 0;
	if (*ret_active)
		return 0;
	if (strcmp(p, "LinkUp") != 0)
		(void)halo_item_set_message(item, "%s port %u has no physical link: check the cable "
					    "and that the peer's port is up", dev->ibdev, dev->port);
	else
		(void)halo_item_set_message(item, "%s port %u has a link but is not active: is the "
					    "interface up, and do its MTU and speed match the peer's?",
					    dev->ibdev, dev->port);
	return 0;
}

static int gid_read(struct halo_ctx *ctx, struct halo_item *item,
		    const struct halo_rdma_link *l, const struct halo_rdma_dev *dev,
		    bool observing, bool *ret_found)
{
	_cleanup_free_ char *why = NULL;
	struct halo_rdma_gid g;
	int err = halo_rdma_link_gid(ctx, l, dev, observing, &g, &why);

	*ret_found = false;
	if (err < 0)
		return halo_item_fail_why(item, err, why, "reading the GID table of %s port %u", dev->ibdev,
			      dev->port);
	if (l->has_addr && g.index >= 0) {
		*ret_found = true;
		(void)halo_item_set_observed(item, "%d", g.index);
		if (g.n_v4 > 1)
			return halo_item_set_message(item, "%s: the configured %s is RoCE v2 GID "
						     "index %d on %s port %u, after those of its "
						     "other IPv4 addresses (from index %d)", l->ifname,
						     l->addr_text, g.index, dev->ibdev, dev->port,
						     g.first_v4);
		return 0;
	}
	if (!l->has_addr && g.n_v4 == 1) {
		*ret_found = true;
		(void)halo_item_set_observed(item, "%d", g.first_v4);
		return 0;
	}
	(void)halo_item_set_observed(item, NULL);
	if (!l->has_addr && g.n_v4 > 1) {
		(void)halo_item_set_message(item, "%s has %u RoCE v2 IPv4 GIDs on %s port %u: list "
					    "the address NCCL should use in the entry's addresses",
					    l->ifname, g.n_v4, dev->ibdev, dev->port);
		return -ENOTUNIQ;
	}
	if (l->has_addr)
		return halo_item_set_message(item, "no RoCE v2 GID of %s on %s in %s port %u "
					     "(is the address on the link?)", l->addr_text,
					     l->ifname, dev->ibdev, dev->port);
	return halo_item_set_message(item, "no RoCE v2 IPv4 GID of %s in %s port %u (no IPv4 "
				     "address on the link?)", l->ifname, dev->ibdev, dev->port);
}

static int dev_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_rdma_want *w = item->data;
	struct halo_rdma_dev dev;
	bool ok = false;
	int r = halo_rdma_item_dev(ctx, item, &w->link, true, 0, &dev);

	if (r != 0)
		return r;
	switch (w->kind) {
	case HALO_RDMA_DEVICE:
		return halo_item_set_observed(item, "%s port %u", dev.ibdev, dev.port) < 0 ?
			       -ENOMEM : HALO_SYNC_OK;
	case HALO_RDMA_PORT_STATE:
		r = port_read(ctx, item, &dev, &ok);
		break;
	case HALO_RDMA_GID_INDEX:
		r = gid_read(ctx, item, &w->link, &dev, true, &ok);
		break;
	default:
		return -EINVAL;
	}
	if (r < 0)
		return r;
	return ok ? HALO_SYNC_OK : HALO_SYNC_DIFFERS;
}

/* Waits for what the earlier phases bring; fails with the reason. */
static int dev_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_rdma_want *w = item->data;
	unsigned budget = w->kind == HALO_RDMA_GID_INDEX ? HALO_RDMA_WAIT_GID_MS :
			  HALO_RDMA_WAIT_PORT_MS;
	struct halo_rdma_dev dev;
	bool ok = false;
	int r;

	/* The device item waits for the device; the others come after it
	 * in the same phase and only look. */
	r = halo_rdma_item_dev(ctx, item, &w->link, false,
			       w->kind == HALO_RDMA_DEVICE ? HALO_RDMA_WAIT_DEV_MS : 0, &dev);
	if (r != 0)
		return r < 0 ? r : -ENODEV;
	if (w->kind == HALO_RDMA_DEVICE)
		return 0;
	for (unsigned waited = 0;; waited += HALO_RDMA_POLL_MS) {
		r = w->kind == HALO_RDMA_PORT_STATE ? port_read(ctx, item, &dev, &ok) :
						      gid_read(ctx, item, &w->link, &dev, false, &ok);
		if (r < 0 || ok)
			return r;
		if (waited >= budget)
			break;
		halo_rdma_sleep_ms(HALO_RDMA_POLL_MS);
	}
	/* The message says what is missing, and why when known. */
	return w->kind == HALO_RDMA_PORT_STATE ? -ENOLINK : -ENOENT;
}

void halo_rdma_want_free(void *data)
{
	struct halo_rdma_want *w = data;

	if (w)
		halo_rdma_seen_unref(w->link.seen);
	free(w);
}

const struct halo_item_ops halo_rdma_dev_ops = {
	.observe = dev_observe,
	.apply = dev_apply,
	.free_data = halo_rdma_want_free,
};
