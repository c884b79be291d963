/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * revert.h: --revert. The plan of a normal run (so it knows the same
 * paths) is turned into its undo:
 *  - an owned file (halo_plan_add_file) must not exist, but only while it
 *    carries the managed header (a file without it is left, said so);
 *  - the owned files the last state file records and this plan no longer
 *    has go by the same rule;
 *  - an item its subsystem made as its own undo (item->reverting: the
 *    boot edits of files it does not own) is kept;
 *  - every other item is runtime state (MTU, addresses, DCB, configfs,
 *    loaded modules): one "left as is" item each, never changed;
 *  - check-only items (readiness) are dropped;
 *  - a revert of every subsystem removes the state file and the
 *    Prometheus textfile last (the run's own outputs).
 */
#pragma once

#include <stdbool.h>

#include "config/halo-config.h"
#include "engine/plan.h"
#include "halo.h"
#include "util/errors.h"

int halo_revert_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		     struct halo_plan *plan, struct halo_errors *errs);

/* An item that removes PATH when it carries the managed header (OUTPUT:
 * also without, for the run's own outputs); item->reverting is set. */
int halo_plan_add_revert_file(struct halo_plan *plan, enum halo_subsys subsys,
			      enum halo_phase phase, const char *path, bool output,
			      struct halo_item **ret_item);

/* A report-only item: runtime state of KEY's subsystem, left as is. */
int halo_plan_add_left_as_is(struct halo_plan *plan, const char *key,
			     enum halo_subsys subsys, enum halo_phase phase,
			     const char *was_wanted, struct halo_item **ret_item);
