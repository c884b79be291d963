/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine.c: the steps behind check, dry-run and apply. Observe every
 * item first (a single INVALID observation stops the run before anything
 * changes), then in apply mode apply what differs phase by phase and
 * observe it again, so "changed" always means "verified changed". The
 * steps are separate so a run can plan a later phase after an earlier
 * one applied (main.c: links after the modules phase).
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "engine/engine.h"

/* Drops the items of subsystems not selected by --only, so that every view
 * (reports, state, Prometheus) shows exactly what this run looked at. */
static void plan_filter(const struct halo_ctx *ctx, struct halo_plan *plan)
{
	size_t k = 0;

	for (size_t i = 0; i < plan->n; i++) {
		if (plan->items[i]->subsys & ctx->only)
			plan->items[k++] = plan->items[i];
		else
			halo_item_free(plan->items[i]);
	}
	plan->n = k;
}

/* Runs ops->observe; a negative errno always leaves a message behind. */
static int observe(struct halo_ctx *ctx, struct halo_item *item)
{
	int r;

	/* The message is about the observation: one that no longer holds
	 * (a blocker the apply removed) must not outlive it. */
	free(item->message);
	item->message = NULL;
	if (!item->ops || !item->ops->observe)
		return halo_item_fail(item, -EINVAL, "no way to observe this item");
	r = item->ops->observe(ctx, item);
	if (r < 0) {
		if (!item->message)
			(void)halo_item_set_message(item, "%s", strerror(-r));
		return r;
	}
	if (r > HALO_SYNC_INVALID)
		return halo_item_fail(item, -EINVAL, "observation returned %d", r);
	item->sync = r;
	return r;
}

/* The outcome of a first observation (also the final one of check and
 * dry-run). */
static enum halo_outcome outcome_of(const struct halo_item *item, int r)
{
	if (r < 0)
		return HALO_OUTCOME_FAILED;
	switch ((enum halo_sync)r) {
	case HALO_SYNC_OK:
		return HALO_OUTCOME_OK;
	case HALO_SYNC_DIFFERS:
		return HALO_OUTCOME_DRIFT;
	case HALO_SYNC_PENDING:
		return HALO_OUTCOME_PENDING_REBOOT;
	case HALO_SYNC_UNSUPPORTED:
		return item->required ? HALO_OUTCOME_FAILED : HALO_OUTCOME_UNSUPPORTED;
	case HALO_SYNC_INVALID:
		break;
	}
	return HALO_OUTCOME_FAILED;
}

static void apply_one(struct halo_ctx *ctx, struct halo_item *item)
{
	int r;

	free(item->was);
	item->was = item->observed ? strdup(item->observed) : NULL;
	if (item->needs && item->needs->outcome == HALO_OUTCOME_FAILED) {
		(void)halo_item_set_message(item, "not applied: %s failed", item->needs->key);
		item->outcome = HALO_OUTCOME_FAILED;
		return;
	}
	if (item->ops->apply) {
		r = item->ops->apply(ctx, item);
		if (r < 0) {
			if (!item->message)
				(void)halo_item_set_message(item, "%s", strerror(-r));
			item->outcome = HALO_OUTCOME_FAILED;
			return;
		}
	}
	/* Verified after every phase has run (items applied through others
	 * only match once those are done). */
	item->outcome = HALO_OUTCOME_CHANGED;
}

static void verify_one(struct halo_ctx *ctx, struct halo_item *item)
{
	int r = observe(ctx, item);

	switch (r) {
	case HALO_SYNC_OK:
		item->outcome = HALO_OUTCOME_CHANGED;
		item->changed = true;
		break;
	case HALO_SYNC_PENDING:
		item->outcome = HALO_OUTCOME_PENDING_REBOOT;
		item->changed = true;
		break;
	case HALO_SYNC_DIFFERS:
		item->outcome = HALO_OUTCOME_FAILED;
		(void)halo_item_set_message(item, "still differs after apply: observed %s",
					    item->observed ? item->observed : "absent");
		break;
	default:
		/* Unsupported or invalid only now, or an observe error: the
		 * apply cannot be verified. */
		item->outcome = HALO_OUTCOME_FAILED;
		if (!item->message)
			(void)halo_item_set_message(item, "cannot verify after apply");
		break;
	}
}

void halo_engine_filter(const struct halo_ctx *ctx, struct halo_plan *plan)
{
	plan_filter(ctx, plan);
}

int halo_engine_observe(struct halo_ctx *ctx, struct halo_plan *plan,
			size_t from, struct halo_errors *errs)
{
	bool invalid = false;

	for (size_t i = from; i < plan->n; i++) {
		struct halo_item *item = plan->items[i];
		int r = observe(ctx, item);

		item->changed = false;
		item->outcome = outcome_of(item, r);
		if (r == HALO_SYNC_INVALID && errs) {
			halo_errors_add(errs, "%s: %s", item->key,
					item->message ? item->message : "invalid");
			invalid = true;
		}
	}
	return invalid ? -EINVAL : 0;
}

bool halo_engine_phase_drifts(const struct halo_plan *plan, enum halo_phase phase)
{
	for (size_t i = 0; i < plan->n; i++)
		if (plan->items[i]->phase == phase &&
		    plan->items[i]->outcome == HALO_OUTCOME_DRIFT)
			return true;
	return false;
}

void halo_engine_apply_phase(struct halo_ctx *ctx, struct halo_plan *plan,
			     enum halo_phase phase)
{
	for (size_t i = 0; i < plan->n; i++) {
		struct halo_item *item = plan->items[i];

		if (item->phase == phase && item->outcome == HALO_OUTCOME_DRIFT)
			apply_one(ctx, item);
	}
}

int halo_engine_finish(struct halo_ctx *ctx, struct halo_plan *plan)
{
	if (ctx->mode == HALO_MODE_APPLY)
		for (size_t i = 0; i < plan->n; i++)
			if (plan->items[i]->outcome == HALO_OUTCOME_CHANGED)
				verify_one(ctx, plan->items[i]);
	return halo_plan_exit_bits(ctx, plan);
}

int halo_plan_exit_bits(const struct halo_ctx *ctx, const struct halo_plan *plan)
{
	bool apply = ctx->mode == HALO_MODE_APPLY;
	int bits = 0;

	for (size_t i = 0; i < plan->n; i++) {
		const struct halo_item *item = plan->items[i];

		if (apply ? item->changed : item->outcome == HALO_OUTCOME_DRIFT)
			bits |= HALO_EXIT_CHANGED;
		/* Dry-run: applying this would leave a reboot pending. */
		if (!apply && item->outcome == HALO_OUTCOME_DRIFT &&
		    item->activates_on_reboot && ctx->mode == HALO_MODE_DRY_RUN)
			bits |= HALO_EXIT_REBOOT;
		if (item->outcome == HALO_OUTCOME_FAILED)
			bits |= HALO_EXIT_FAILED;
		if (item->outcome == HALO_OUTCOME_PENDING_REBOOT)
			bits |= HALO_EXIT_REBOOT;
	}
	return bits;
}
