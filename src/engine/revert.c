/* SPDX-License-Identifier: GPL-2.0-or-later */
/* revert.c: a run's plan turned into its undo (see revert.h). */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "engine/owned.h"
#include "engine/revert.h"
#include "engine/state.h"
#include "util/rootfs.h"
#include "util/strv.h"

/* What a subsystem's runtime items hold, for the "left as is" message. */
static const char *runtime_what(enum halo_subsys s)
{
	switch (s) {
	case HALO_SUB_MODULES:
		return "loaded module and its live options; unloaded at reboot";
	case HALO_SUB_LINKS:
		return "runtime state (MTU, admin state, addresses, routes), gone at reboot";
	case HALO_SUB_ROCE:
		return "runtime state (DCB, PFC, APP table, NIC flags, devlink), gone at "
		       "reboot or driver reload";
	case HALO_SUB_RDMA:
		return "runtime state (rdma_cm configfs), gone at reboot or driver reload";
	default:
		return "runtime state, gone at reboot";
	}
}

static int left_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	(void)ctx;
	if (halo_item_set_observed(item, NULL) < 0 ||
	    halo_item_set_message(item, "left as is: %s", runtime_what(item->subsys)) < 0)
		return -ENOMEM;
	return HALO_SYNC_OK;
}

static const struct halo_item_ops left_ops = {
	.observe = left_observe,
	.apply = NULL,
	.free_data = NULL,
};

int halo_plan_add_left_as_is(struct halo_plan *plan, const char *key,
			     enum halo_subsys subsys, enum halo_phase phase,
			     const char *was_wanted, struct halo_item **ret_item)
{
	struct halo_item *item;
	int r = halo_plan_add_new(plan, key, subsys, phase, &left_ops, 1, &item);

	if (r < 0)
		return r;
	item->reverting = true;
	r = was_wanted ? halo_item_set_wanted(item, "left as is (%s)", was_wanted) :
			 halo_item_set_wanted(item, "left as is");
	if (r < 0)
		return r;
	if (ret_item)
		*ret_item = item;
	return 0;
}

/* The undo of ITEM, added to TO (same key). */
static int revert_one(struct halo_plan *to, const struct halo_item *item)
{
	/* A subsystem that knows how to undo its item says so (the storage
	 * enabling symlink: removed only when it is exactly the link made). */
	if (item->ops && item->ops->revert)
		return item->ops->revert(item, to);
	if (item->path)
		return halo_plan_add_revert_file(to, item->subsys, item->phase, item->path, NULL);
	return halo_plan_add_left_as_is(to, item->key, item->subsys, item->phase,
					item->wanted, NULL);
}

/* Moves ITEM (owned by the caller's plan) into TO. */
static int plan_take(struct halo_plan *to, struct halo_item *item)
{
	if (to->n == to->cap) {
		size_t cap = to->cap ? to->cap * 2 : 16;
		struct halo_item **v = realloc(to->items, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		to->items = v;
		to->cap = cap;
	}
	to->items[to->n++] = item;
	return 0;
}

struct recorded {
	const struct halo_ctx *ctx;
	struct halo_plan *plan;
};

/* An owned file the last apply recorded: removed by the header rule too,
 * when this run's subsystems cover it and the plan has not got it. */
static int add_recorded(void *userdata, const char *key, enum halo_subsys sub,
			const char *path)
{
	struct recorded *rec = userdata;
	int r;

	if (!(sub & rec->ctx->only) || halo_plan_find(rec->plan, key))
		return 0;
	if (!path) {
		const struct halo_registry *reg = rec->ctx->registry;

		for (size_t i = 0; reg && i < reg->n; i++) {
			if (!reg->subsystems[i].undo_recorded)
				continue;
			r = reg->subsystems[i].undo_recorded(rec->plan, key, sub);
			if (r != 0)
				return r < 0 ? r : 0;
		}
		return 0;
	}
	r = halo_plan_add_revert_file(rec->plan, sub, HALO_PHASE_FILES, path, NULL);
	/* A hand-edited path that is not absolute is not ours; one that an
	 * item of the plan owns under another key (a hand-edited key) is
	 * that item's to revert. */
	return r == -EINVAL || r == -EEXIST ? 0 : r;
}

/* The files the reverted subsystems keep for their later runs (managed
 * header), removed in the last phase; one that is not there is no item
 * (a cache, unlike the state file, that most hosts never have). */
static int revert_kept(const struct halo_ctx *ctx, struct halo_plan *to)
{
	const struct halo_registry *reg = ctx->registry;
	int r;

	for (size_t i = 0; reg && i < reg->n; i++) {
		const struct halo_subsystem *s = &reg->subsystems[i];

		if (!s->kept || !(ctx->only & s->bit) || !halo_root_exists(ctx, s->kept->path))
			continue;
		r = halo_plan_add_revert_file(to, s->bit, HALO_PHASE_BOOT, s->kept->path, NULL);
		if (r < 0 && r != -EEXIST)
			return r;
	}
	return 0;
}

int halo_revert_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		     struct halo_plan *plan, struct halo_errors *errs)
{
	struct halo_plan to;
	struct recorded rec;
	int r = 0;

	(void)errs;
	halo_plan_init(&to);
	for (size_t i = 0; i < plan->n && r >= 0; i++) {
		struct halo_item *item = plan->items[i];

		if (item->phase == HALO_PHASE_CHECK_ONLY)
			continue;
		if (item->reverting) {
			r = plan_take(&to, item);
			if (r >= 0)
				plan->items[i] = NULL;
		} else {
			r = revert_one(&to, item);
		}
	}
	if (r >= 0) {
		rec = (struct recorded){ .ctx = ctx, .plan = &to };
		r = halo_state_recorded_items(ctx, cfg, add_recorded, &rec);
	}
	/* The run's own outputs go last, and only when every subsystem is
	 * reverted: a partial revert leaves the record of the rest. */
	if (r >= 0 && halo_run_is_full(ctx)) {
		const char *state = halo_state_path(cfg);

		/* -EEXIST: the path is an owned file of the plan already. */
		r = halo_plan_add_revert_output(&to, state, HALO_REVERT_STATE_FILE, NULL);
		if (r == -EEXIST)
			r = 0;
		if (r >= 0 && cfg->state.prometheus && cfg->state.prometheus[0])
			r = halo_plan_add_revert_output(&to, cfg->state.prometheus,
							HALO_REVERT_TEXTFILE, NULL);
		if (r == -EEXIST)
			r = 0;
		/* The one the last apply wrote, when the config names another
		 * since (no apply has removed it yet). */
		if (r >= 0 && plan->records && plan->records->textfile)
			r = halo_plan_add_revert_output(&to, plan->records->textfile,
							HALO_REVERT_TEXTFILE, NULL);
		if (r == -EEXIST || r == -EINVAL)
			r = 0;
	}
	if (r >= 0)
		r = revert_kept(ctx, &to);
	if (r < 0) {
		size_t n = 0;

		/* The items moved to TO go with it: the plan keeps the rest,
		 * without the holes they left. */
		halo_plan_free(&to);
		for (size_t i = 0; i < plan->n; i++)
			if (plan->items[i])
				plan->items[n++] = plan->items[i];
		plan->n = n;
		return r;
	}
	/* The items moved to TO are NULL here; the rest are freed. */
	for (size_t i = 0; i < plan->n; i++)
		if (plan->items[i])
			halo_item_free(plan->items[i]);
	free(plan->items);
	plan->items = to.items;
	plan->n = to.n;
	plan->cap = to.cap;
	/* Warnings stay (to has none). */
	return 0;
}
