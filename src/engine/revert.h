/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * revert.h: --revert. The plan of a normal run (so it knows the same
 * paths) is turned into its undo:
 *  - an owned file (halo_plan_add_file) must not exist, but only while it
 *    carries the managed header (a file without it is left, said so);
 *  - the owned files the last state file records and this plan no longer
 *    has go by the same rule, and so do the other recorded items a
 *    subsystem can undo from their key alone (their undo_recorded hook, engine/subsystem.h);
 *  - an item its subsystem made as its own undo (item->reverting: the
 *    boot edits of files it does not own) is kept;
 *  - an item whose ops have a revert hook is undone by it (the storage
 *    enable link: removed only while it is exactly the link apply made);
 *  - an item that wraps an owned file (the firewall zone or table, the
 *    env file: key "file" + path) is that file's removal;
 *  - every other item is runtime state (MTU, addresses, DCB, configfs,
 *    loaded modules): one "left as is" item each, never changed;
 *  - check-only items (readiness) are dropped;
 *  - a revert of every subsystem removes the state file and the
 *    Prometheus textfile last (the run's own outputs), each only when its
 *    content is recognisably this tool's.
 */
#pragma once

#include <stdbool.h>

#include "config/halo-config.h"
#include "engine/plan.h"
#include "engine/subsystem.h"
#include "halo.h"
#include "util/errors.h"

/* Turns PLAN into its undo; the recorded items are offered to each
 * subsystem's undo_recorded hook (engine/subsystem.h). */
int halo_revert_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		     struct halo_plan *plan, struct halo_errors *errs);

/* What decides whether a file at a path to revert is this tool's. */
enum halo_revert_kind {
	HALO_REVERT_OWNED,      /* the managed header (halo_is_managed) */
	HALO_REVERT_STATE_FILE, /* halo_state_is_ours */
	HALO_REVERT_TEXTFILE,   /* halo_prometheus_is_ours */
};

/* An item that removes PATH when it carries the managed header (a file
 * without it is left, said on the item); item->reverting is set. */
int halo_plan_add_revert_file(struct halo_plan *plan, enum halo_subsys subsys,
			      enum halo_phase phase, const char *path,
			      struct halo_item **ret_item);

/* The same for one of the run's own outputs at PATH (KIND: the state file
 * or the textfile), judged by its content instead of a header; a file
 * that is not recognisably this tool's is left, said on the item. Its
 * item is of the files subsystem and the boot phase, the last one. */
int halo_plan_add_revert_output(struct halo_plan *plan, const char *path,
				enum halo_revert_kind kind, struct halo_item **ret_item);

/* A report-only item: runtime state of KEY's subsystem, left as is. */
int halo_plan_add_left_as_is(struct halo_plan *plan, const char *key,
			     enum halo_subsys subsys, enum halo_phase phase,
			     const char *was_wanted, struct halo_item **ret_item);
