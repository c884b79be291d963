/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * subsystem.h: how a subsystem is declared. The table of them
 * (src/subsystems.c) is the one place a subsystem is declared: its name,
 * its bit, when it is planned, and its hooks. main hands the table to
 * every run as ctx->registry, so the engine never includes a subsystem;
 * --help, completion, the man page and the JSON schema are checked
 * against it by a test.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "config/halo-config.h"
#include "engine/plan.h"
#include "halo.h"
#include "util/errors.h"

struct json_object;

/* Adds the subsystem's items for CFG to PLAN (only when ctx->only has
 * its bit). Problems that make the config impossible go to ERRS with
 * -EINVAL (exit 1, nothing changed); another -errno without a line in
 * ERRS is reported as "NAME: strerror". */
typedef int (*halo_plan_fn)(struct halo_ctx *ctx, const struct halo_config *cfg,
			    struct halo_plan *plan, struct halo_errors *errs);

/* --revert: adds to PLAN the undo of an item the last state file
 * recorded (KEY of subsystem SUB) that this run's plan no longer has: 1
 * if it did, 0 if KEY is not this subsystem's to undo, -errno. */
typedef int (*halo_undo_recorded_fn)(struct halo_plan *plan, const char *key,
				     enum halo_subsys sub);

/* When a subsystem is planned in a run. */
enum halo_plan_stage {
	/* Needs no live interface: planned and observed first, so the
	 * modules phase's drift is known before the host table is made. */
	HALO_PLAN_EARLY,
	/* Planned on the host table (ctx->host); in an apply whose modules
	 * phase brought a missing device, planned again after it. */
	HALO_PLAN_ON_HOST,
};

struct halo_kept_file {
	const char *what, *path; /* for the line when it cannot be written */
	/* Whether this apply will write or remove it: only then is its
	 * path proven writable before the first change. */
	bool (*pending)(const struct halo_ctx *ctx);
	int (*write)(struct halo_ctx *ctx); /* 0 unchanged, 1 written, -errno */
};

struct halo_subsystem {
	const char *name;       /* as --only, the JSON "subsystem" and metrics say it */
	enum halo_subsys bit;
	const char *summary;    /* what it manages, for --help */
	/* Runs only when --only names it (the check-only readiness facts),
	 * so a default run's exit status is about what the tool sets. */
	bool on_request;
	enum halo_plan_stage stage;
	halo_plan_fn plan;
	/* Optional: facts another subsystem's planner needs, found once
	 * before any planning whatever --only says (the amdgpu build the
	 * boot GTT prefix depends on). A failure leaves the default. */
	void (*prepare)(struct halo_ctx *ctx, const struct halo_config *cfg);
	halo_undo_recorded_fn undo_recorded; /* optional */
	/* Optional: a file the subsystem keeps for its later runs, which an
	 * apply writes after its phases, like the state file. Not an item:
	 * it records facts read on the way (a check uses them to read
	 * less), not something the config sets. --revert removes it as an
	 * owned file (managed header). */
	const struct halo_kept_file *kept;
	void (*release)(struct halo_ctx *ctx); /* optional: frees ctx handles */
};

struct halo_registry {
	const struct halo_subsystem *subsystems; /* in --only's order, by bit */
	size_t n;
	/* The state file's "node" member, the facts --cluster compares;
	 * NULL: none. Returns a new JSON object or NULL. */
	struct json_object *(*node_facts)(const struct halo_ctx *ctx,
					  const struct halo_config *cfg,
					  const struct halo_plan *plan);
};

/* "boot", "modules", ...; "unknown" for a bit the registry lacks. */
const char *halo_subsys_name(const struct halo_ctx *ctx, enum halo_subsys s);
/* The subsystem named exactly NAME, or 0. */
enum halo_subsys halo_subsys_from_name(const struct halo_registry *reg, const char *name);
/* The bits a run has without --only (every subsystem but the
 * on-request ones). */
unsigned halo_registry_default_mask(const struct halo_registry *reg);
/* Whether this run covers every item a run without --only and
 * --interface has: only such a run rewrites what describes the whole
 * host (the Prometheus textfile, the state file's node facts). */
bool halo_run_is_full(const struct halo_ctx *ctx);
/* Calls every release hook. */
void halo_registry_release(struct halo_ctx *ctx);
