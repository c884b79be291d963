/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run.c: the one phased driver (run.h). */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/file_left.h"
#include "engine/outputs.h"
#include "engine/refusals.h"
#include "engine/report.h"
#include "engine/revert.h"
#include "engine/run.h"
#include "engine/state.h"
#include "engine/subsystem.h"
#include "host/host.h"
#include "util/lock.h"
#include "util/rootfs.h"

struct run {
	struct halo_ctx *ctx;
	const struct halo_config *cfg;
	struct halo_plan *plan;
	struct halo_errors *errs;
	struct halo_records records;
	struct halo_refusals refusals; /* ctx->refusals, when the run made it */
};

/* The run's mode as the lock's holder record names it. */
static const char *lock_mode(const struct halo_ctx *ctx)
{
	if (ctx->revert)
		return ctx->mode == HALO_MODE_DRY_RUN ? "revert-dry-run" : "revert";
	return halo_mode_name(ctx->mode);
}

struct lock_wait {
	const struct halo_ctx *ctx;
	const char *lock;
};

/* "pid N, MODE, since TIME" of the lock's holder into BUF; false when it
 * left no (valid) record. */
static bool holder_text(const struct halo_ctx *ctx, char *buf, size_t size)
{
	struct halo_lock_holder h;

	if (halo_lock_holder_read(ctx, &h) < 0)
		return false;
	halo_lock_holder_format(&h, buf, size);
	return true;
}

static void lock_waiting(void *userdata)
{
	const struct lock_wait *w = userdata;
	char holder[128];

	if (w->ctx->lock_waiting)
		w->ctx->lock_waiting(w->ctx, w->lock,
				     holder_text(w->ctx, holder, sizeof(holder)) ? holder : NULL);
}

/* Every mode that observes holds the lock, so a check never reads a
 * half-applied host and two runs never write the same textfile. Apply
 * cannot run without it; a check or dry-run on a root where the lock
 * does not exist or cannot be created (read-only) goes on without one.
 * After a second of waiting the caller hears who holds it (once), and
 * the line of a run that gives up names the holder too. Returns the
 * lock's descriptor (-1: none), -EBUSY (held) or -EINVAL (cannot be
 * taken), with a line in ERRS. */
static int take_lock(struct run *run)
{
	struct halo_ctx *ctx = run->ctx;
	_cleanup_free_ char *shown = halo_root_display_path(ctx, HALO_LOCK_PATH);
	const char *lock = shown ? shown : HALO_LOCK_PATH;
	/* Only a run that writes creates the lock file: a plain check or
	 * dry-run leaves a pristine root as it found it. */
	bool writes = ctx->mode == HALO_MODE_APPLY || halo_outputs_textfile(ctx, run->cfg);
	struct lock_wait w = { .ctx = ctx, .lock = lock };
	char holder[128], by[160] = "";
	int fd = -1, r = halo_lock_acquire_notify(ctx, ctx->wait_seconds, writes, 1000,
						  lock_waiting, &w, &fd);

	if (r == -ETIMEDOUT || r == -EWOULDBLOCK) {
		if (holder_text(ctx, holder, sizeof(holder)))
			snprintf(by, sizeof(by), " (%s)", holder);
		if (ctx->wait_seconds)
			halo_errors_add(run->errs,
					"another halo-provision run%s held %s for %u s (--wait); nothing was changed",
					by, lock, ctx->wait_seconds);
		else
			halo_errors_add(run->errs, "another halo-provision run%s holds %s", by, lock);
		return -EBUSY;
	}
	/* Something planted at the lock (a FIFO, a device, a directory) is
	 * refused in every mode, as a symlink is: it is never opened. */
	if (r == -HALO_ENOTREG || r == -EISDIR) {
		_cleanup_free_ char *why = halo_root_read_error(ctx, HALO_LOCK_PATH, r);

		if (!why)
			return -ENOMEM;
		halo_errors_add(run->errs, "refusing the run lock %s", why);
		return -EINVAL;
	}
	/* A symlink planted there is never followed, in any mode. */
	if (r == -ELOOP) {
		halo_errors_add(run->errs, "refusing the run lock %s: a symbolic link on its path, never followed",
				lock);
		return -EINVAL;
	}
	if (r < 0 && ctx->mode != HALO_MODE_APPLY)
		return -1;
	if (r < 0) {
		/* The host's problem (read-only, out of space): exit 4. */
		halo_errors_add(run->errs, "cannot take the run lock %s: %s", lock, strerror(-r));
		return -EBUSY;
	}
	/* For the next run's message only: a run goes on without it. */
	(void)halo_lock_holder_write(fd, lock_mode(ctx));
	return fd;
}

/* The last state file is there but not one this version reads: the
 * files it records are unknown to the run, said rather than forgotten
 * quietly (an apply replaces it, a revert leaves it). 0 or -ENOMEM. */
static int warn_state_unread(struct run *run)
{
	const char *path = halo_state_path(run->cfg);
	_cleanup_free_ char *shown = halo_root_display_path(run->ctx, path);

	if (!shown)
		return -ENOMEM;
	return halo_plan_warn(run->plan, "state file %s is not a halo-provision state file this "
			      "version reads (unparsable, cut short, foreign or another "
			      "schema): the files it records are unknown to this run, so "
			      "--revert will not remove them", shown);
}

/* Facts another subsystem's planner needs, found before any planning;
 * then the last state file's ownership records. */
static int prepare(struct run *run)
{
	const struct halo_registry *reg = run->ctx->registry;
	int r;

	for (size_t i = 0; i < reg->n; i++)
		if (reg->subsystems[i].prepare)
			reg->subsystems[i].prepare(run->ctx, run->cfg);
	r = halo_state_records_read(run->ctx, run->cfg, &run->records);
	if (r < 0)
		halo_errors_add(run->errs, "reading the state file's records: %s", strerror(-r));
	if (r == 1)
		r = warn_state_unread(run);
	run->plan->records = &run->records;
	return r < 0 ? -EINVAL : 0;
}

/* Plans the selected subsystems of STAGE, in the table's order. */
static int plan_stage(struct run *run, enum halo_plan_stage stage)
{
	const struct halo_registry *reg = run->ctx->registry;
	struct halo_errors *errs = run->errs;

	for (size_t i = 0; i < reg->n; i++) {
		const struct halo_subsystem *s = &reg->subsystems[i];
		size_t before = errs->n;
		int r;

		if (s->stage != stage || !(run->ctx->only & s->bit))
			continue;
		r = s->plan(run->ctx, run->cfg, run->plan, errs);
		if (r < 0 && errs->n == before)
			halo_errors_add(errs, "%s: %s", s->name, strerror(-r));
	}
	return errs->n > 0 || errs->oom ? -EINVAL : 0;
}

/* The host table, then the subsystems planned on it. */
static int plan_on_host(struct run *run, enum halo_host_stage stage)
{
	int r = halo_host_resolve(run->ctx, run->cfg, stage, run->errs);

	if (r < 0) {
		if (run->errs->n == 0)
			halo_errors_add(run->errs, "links: %s", strerror(-r));
		return -EINVAL;
	}
	if (plan_stage(run, HALO_PLAN_ON_HOST) < 0)
		return -EINVAL;
	r = halo_outputs_plan_moved_textfile(run->ctx, run->cfg, run->plan);
	if (r < 0) {
		halo_errors_add(run->errs, "the moved Prometheus textfile: %s", strerror(-r));
		return -EINVAL;
	}
	r = halo_plan_add_left_files(run->ctx, run->plan);
	if (r < 0)
		halo_errors_add(run->errs, "the files the config no longer has: %s", strerror(-r));
	return r < 0 ? -EINVAL : 0;
}

/* After the modules phase applied, an interface that was missing before
 * may be there: the host table and its planners are done again from
 * item FIRST on. Their errors can no longer mean "nothing changed": they
 * stay in ERRS and become warnings, the part is left out, and the run
 * fails (exit 4). */
static int plan_again_on_host(struct run *run, size_t first, size_t first_warning)
{
	struct halo_plan *plan = run->plan;
	size_t before = run->errs->n;

	halo_plan_truncate(plan, first, first_warning);
	if (plan_on_host(run, HALO_HOST_AFTER_MODULES) < 0) {
		halo_plan_truncate(plan, first, first_warning);
		for (size_t i = before; i < run->errs->n; i++)
			(void)halo_plan_warn(plan, "%s", run->errs->msgs[i]);
		return HALO_EXIT_FAILED;
	}
	(void)halo_engine_observe(run->ctx, plan, first, NULL);
	halo_engine_clean_temps(run->ctx, plan, first);
	return 0;
}

/* Plans, proves the outputs, observes: everything before the first
 * change. *RET_STAGE: how the host table was built; *RET_FIRST and
 * *RET_FIRST_WARNING: where the part planned on it starts. */
static int plan_and_observe(struct run *run, enum halo_host_stage *ret_stage,
			    size_t *ret_first, size_t *ret_first_warning)
{
	struct halo_ctx *ctx = run->ctx;
	struct halo_plan *plan = run->plan;
	enum halo_host_stage stage = HALO_HOST_BEFORE_MODULES;
	int r;

	if (plan_stage(run, HALO_PLAN_EARLY) < 0) {
		/* The config against the host is reported whole: what is
		 * planned on the host is planned too, for its errors, as before
		 * the modules phase (where a missing link is no error yet). */
		(void)plan_on_host(run, HALO_HOST_BEFORE_MODULES);
		return -EINVAL;
	}
	/* An interface missing while the modules phase still has work is
	 * pending on it (drift in check and dry-run). A revert changes no
	 * module and plans every interface as it is now. */
	if (!ctx->revert) {
		halo_engine_filter(ctx, plan);
		if (halo_engine_observe(ctx, plan, 0, run->errs) < 0)
			return -EINVAL;
		if (!halo_engine_phase_drifts(plan, HALO_PHASE_MODULES))
			stage = HALO_HOST_FINAL;
	}
	*ret_stage = stage;
	*ret_first = ctx->revert ? 0 : plan->n;
	*ret_first_warning = plan->n_warnings;
	if (plan_on_host(run, stage) < 0)
		return -EINVAL;
	/* --interface NAME that no entry manages (the hotplug unit's run for
	 * a netdev nobody configured, or a mistyped name): nothing at all is
	 * planned, since a run for one link changes no boot loader or file on
	 * behalf of a link it has no business with. The warning stays. */
	if (ctx->host && ctx->host->interface_unmanaged)
		halo_plan_truncate(plan, 0, plan->n_warnings);
	if (ctx->revert && (r = halo_revert_plan(ctx, run->cfg, plan, run->errs)) < 0) {
		if (run->errs->n == 0)
			halo_errors_add(run->errs, "revert: %s", strerror(-r));
		return -EINVAL;
	}
	/* A revert's plan removes the state file itself, as an item. */
	if (!ctx->revert && halo_outputs_check_items(run->cfg, plan, run->errs) < 0)
		return -EINVAL;
	r = halo_outputs_check(ctx, run->cfg, run->errs);
	if (r < 0)
		return r == -EROFS ? -EBUSY : -EINVAL;
	halo_engine_filter(ctx, plan);
	if (halo_engine_observe(ctx, plan, *ret_first, run->errs) < 0)
		return -EINVAL;
	return halo_outputs_check_files_writable(ctx, plan, run->errs) < 0 ? -EBUSY : 0;
}

static int run_modes(struct run *run)
{
	struct halo_ctx *ctx = run->ctx;
	enum halo_host_stage stage;
	size_t first, first_warning;
	int bits = 0, r = plan_and_observe(run, &stage, &first, &first_warning);
	size_t refused_before;

	/* A file refused so far stops the run now unless something named it. */
	if (halo_refusals_name(ctx, run->plan, run->errs, 0, true) < 0 && r != -EBUSY)
		r = -EINVAL;
	if (r < 0)
		return r;
	refused_before = ctx->refusals ? ctx->refusals->n : 0;
	if (ctx->mode == HALO_MODE_APPLY) {
		/* Every check before the first change has passed. */
		halo_engine_clean_temps(ctx, run->plan, 0);
		halo_engine_apply_phase(ctx, run->plan, HALO_PHASE_MODULES);
		if (stage == HALO_HOST_BEFORE_MODULES && !ctx->revert &&
		    halo_host_has_missing(ctx->host))
			bits |= plan_again_on_host(run, first, first_warning);
		for (int p = HALO_PHASE_MODULES + 1; p <= HALO_PHASE_BOOT; p++)
			halo_engine_apply_phase(ctx, run->plan, (enum halo_phase)p);
	}
	bits |= halo_engine_finish(ctx, run->plan);
	bits |= halo_refusals_name(ctx, run->plan, run->errs, refused_before, false);
	return bits | halo_outputs_write(ctx, run->cfg, run->plan, bits, run->errs);
}

int halo_run(struct halo_ctx *ctx, const struct halo_config *cfg, struct halo_plan *plan,
	     struct halo_errors *errs)
{
	struct run run = { .ctx = ctx, .cfg = cfg, .plan = plan, .errs = errs };
	int lock = take_lock(&run), r;

	if (lock < -1)
		return lock;
	if (!ctx->refusals)
		ctx->refusals = &run.refusals;
	r = prepare(&run);
	if (r == 0)
		r = run_modes(&run);
	else
		(void)halo_refusals_name(ctx, plan, errs, 0, true);
	if (ctx->refusals == &run.refusals)
		ctx->refusals = NULL;
	halo_refusals_free(&run.refusals);
	plan->records = NULL;
	halo_records_free(&run.records);
	halo_lock_release(lock);
	return r;
}
