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
#include "util/rootfs.h"

/* The apply, and two more for what a later change undid. */
#define HALO_APPLY_PASSES 3

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

/* Appends ITEM to the run's record of applies (what undid an item). */
static void record_apply(struct halo_plan *plan, const struct halo_item *item)
{
	if (plan->n_applied == plan->cap_applied) {
		size_t cap = plan->cap_applied ? plan->cap_applied * 2 : 16;
		const struct halo_item **v = realloc(plan->applied, cap * sizeof(*v));

		if (!v)
			return; /* only the cause's name is lost */
		plan->applied = v;
		plan->cap_applied = cap;
	}
	plan->applied[plan->n_applied++] = item;
}

static void apply_one(struct halo_ctx *ctx, struct halo_plan *plan, struct halo_item *item)
{
	int r;

	/* "was" is what the run found, before its first apply. */
	if (!item->applies) {
		free(item->was);
		item->was = item->observed ? strdup(item->observed) : NULL;
	}
	item->applies++;
	if (item->needs && item->needs->outcome == HALO_OUTCOME_FAILED) {
		(void)halo_item_set_message(item, "not applied: %s failed", item->needs->key);
		item->outcome = HALO_OUTCOME_FAILED;
		return;
	}
	record_apply(plan, item);
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

/* The last item applied on ITEM's interface after ITEM's own last apply
 * (or at all, when ITEM itself was not), of those that declare a side
 * effect when KNOWN: what undid ITEM, or with KNOWN false the one to
 * suspect; NULL when there is none. */
static const struct halo_item *applied_after(const struct halo_plan *plan,
					     const struct halo_item *item, bool known)
{
	size_t from = 0;

	if (!item->iface)
		return NULL;
	for (size_t i = 0; i < plan->n_applied; i++)
		if (plan->applied[i] == item)
			from = i + 1;
	for (size_t i = plan->n_applied; i-- > from;) {
		const struct halo_item *x = plan->applied[i];

		if (x != item && x->iface == item->iface && (!known || x->side_effect))
			return x;
	}
	return NULL;
}

/* Observes ITEM once every phase has applied. True when it no longer
 * holds (it held before, or its apply succeeded): the caller applies it
 * again or fails it. Otherwise its outcome is final for this pass. */
static bool verify_one(struct halo_ctx *ctx, struct halo_item *item)
{
	int r = observe(ctx, item);

	if (item->phase == HALO_PHASE_CHECK_ONLY) {
		item->outcome = outcome_of(item, r);
		return false;
	}
	switch (r) {
	case HALO_SYNC_OK:
		item->outcome = item->applies ? HALO_OUTCOME_CHANGED : HALO_OUTCOME_OK;
		item->changed = item->applies > 0;
		return false;
	case HALO_SYNC_PENDING:
		item->outcome = HALO_OUTCOME_PENDING_REBOOT;
		item->changed = item->applies > 0;
		return false;
	case HALO_SYNC_DIFFERS:
		return true;
	default:
		/* Unsupported or invalid only now, or an observe error: the
		 * apply cannot be verified. */
		item->outcome = HALO_OUTCOME_FAILED;
		if (!item->message)
			(void)halo_item_set_message(item, "cannot verify after apply");
		return false;
	}
}

/* ITEM no longer holds after the last pass: failed, naming what undid it
 * where that is known, else what changed its interface after it. */
static void fail_undone(const struct halo_plan *plan, struct halo_item *item)
{
	const struct halo_item *by = applied_after(plan, item, true);
	const struct halo_item *after = by ? NULL : applied_after(plan, item, false);
	const char *observed = item->observed ? item->observed : "absent";

	item->outcome = HALO_OUTCOME_FAILED;
	item->changed = false;
	if (by)
		(void)halo_item_set_message(item, "undone by %s (%s), also after applying it "
						  "again: observed %s",
					    by->side_effect, by->key, observed);
	else if (after)
		(void)halo_item_set_message(item, "undone by a later change on the same interface "
						  "(%s), also after applying it again: observed %s",
					    after->key, observed);
	else
		(void)halo_item_set_message(item, "still differs after apply: observed %s",
					    observed);
}

void halo_engine_filter(const struct halo_ctx *ctx, struct halo_plan *plan)
{
	plan_filter(ctx, plan);
}

int halo_engine_observe(struct halo_ctx *ctx, struct halo_plan *plan,
			size_t from, struct halo_errors *errs)
{
	bool invalid = false;

	if (from == 0)
		plan->n_applied = 0;
	for (size_t i = from; i < plan->n; i++) {
		struct halo_item *item = plan->items[i];
		int r = observe(ctx, item);

		item->changed = false;
		item->applies = 0;
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

void halo_engine_clean_temps(struct halo_ctx *ctx, struct halo_plan *plan, size_t from)
{
	for (size_t i = from; i < plan->n; i++) {
		struct halo_item *item = plan->items[i];
		int r;

		/* A revert removes files and writes none; a failed item's
		 * path may be refused. */
		if (!item->path || item->reverting || item->outcome == HALO_OUTCOME_FAILED)
			continue;
		r = halo_root_clean_temps(ctx, item->path);
		if (r < 0) {
			(void)halo_item_fail(item, r, "removing stale temp files beside %s",
					     item->path);
			item->outcome = HALO_OUTCOME_FAILED;
		}
	}
}

void halo_engine_apply_phase(struct halo_ctx *ctx, struct halo_plan *plan,
			     enum halo_phase phase)
{
	for (size_t i = 0; i < plan->n; i++) {
		struct halo_item *item = plan->items[i];

		if (item->phase == phase && item->outcome == HALO_OUTCOME_DRIFT)
			apply_one(ctx, plan, item);
	}
}

/* Whether the final observation looks at ITEM: what held or was applied,
 * and the check-only facts (an apply may have made them true). */
static bool verified(const struct halo_item *item)
{
	return item->phase == HALO_PHASE_CHECK_ONLY ||
	       (item->outcome != HALO_OUTCOME_FAILED && item->outcome != HALO_OUTCOME_UNSUPPORTED);
}

int halo_engine_finish(struct halo_ctx *ctx, struct halo_plan *plan)
{
	_cleanup_free_ bool *undone = NULL;

	/* Nothing applied: nothing can have undone anything. */
	if (ctx->mode != HALO_MODE_APPLY || plan->n_applied == 0)
		return halo_plan_exit_bits(ctx, plan);
	undone = calloc(plan->n + 1, sizeof(*undone));
	if (!undone)
		return halo_plan_exit_bits(ctx, plan) | HALO_EXIT_FAILED;
	for (int pass = 1;; pass++) {
		size_t n_undone = 0;

		/* What was read before the changes is not the host any more. */
		ctx->generation++;
		for (size_t i = 0; i < plan->n; i++) {
			struct halo_item *item = plan->items[i];

			undone[i] = verified(item) && verify_one(ctx, item);
			n_undone += undone[i];
		}
		if (n_undone == 0)
			break;
		if (pass == HALO_APPLY_PASSES) {
			for (size_t i = 0; i < plan->n; i++)
				if (undone[i])
					fail_undone(plan, plan->items[i]);
			break;
		}
		/* What a later change undid is applied again, in phase order. */
		for (int p = HALO_PHASE_MODULES; p <= HALO_PHASE_BOOT; p++)
			for (size_t i = 0; i < plan->n; i++) {
				struct halo_item *item = plan->items[i];
				const struct halo_item *by;

				if (!undone[i] || item->phase != (enum halo_phase)p)
					continue;
				by = applied_after(plan, item, true);
				if (by)
					(void)halo_item_set_note(item, "applied again: undone by %s (%s)",
								 by->side_effect, by->key);
				apply_one(ctx, plan, item);
			}
	}
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
