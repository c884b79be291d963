/* SPDX-License-Identifier: GPL-2.0-or-later */
/* outputs.c: the state file, the reboot flag and the textfile (outputs.h). */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "engine/outputs.h"
#include "engine/refusals.h"
#include "engine/revert.h"
#include "engine/state.h"
#include "engine/subsystem.h"
#include "host/host.h"
#include "util/rootfs.h"

#define REBOOT_FLAG "/run/reboot-required"
#define REBOOT_PKGS "/run/reboot-required.pkgs"
/* What each output is, for the lines about it, with the key that sets
 * it (the reboot flag's path is the one Debian's tools read: no key). */
#define REBOOT_WHAT "the reboot flag"
#define TEXTFILE_WHAT "the Prometheus textfile (state.prometheus)"

bool halo_outputs_textfile(const struct halo_ctx *ctx, const struct halo_config *cfg)
{
	return (ctx->mode == HALO_MODE_APPLY || ctx->mode == HALO_MODE_CHECK) && !ctx->revert &&
	       cfg->state.prometheus && cfg->state.prometheus[0] && halo_run_is_full(ctx);
}

/* The outputs against the files the planned items write: the config
 * refuses the owned names it knows (config/owned-paths.c); this catches a
 * planned file it does not know, naming the item. */
int halo_outputs_check_items(const struct halo_config *cfg, const struct halo_plan *plan,
			     struct halo_errors *errs)
{
	const struct halo_state_config *st = &cfg->state;
	const struct {
		const char *key;
		const char *path;
		int line;
	} out[] = {
		{ "state.path", halo_state_path(cfg), st->path_line },
		{ "state.prometheus", st->prometheus, st->prometheus_line },
		{ "state.env_file", st->env_file, st->env_file_line },
	};
	size_t before = errs->n;

	for (size_t i = 0; i < plan->n; i++) {
		const struct halo_item *item = plan->items[i];

		for (size_t j = 0; item->path && j < ARRAY_SIZE(out); j++) {
			/* The env file is an item of its own (rdma). */
			if (!out[j].path || strcmp(item->path, out[j].path) != 0 ||
			    (j == 2 && item->subsys == HALO_SUB_RDMA))
				continue;
			halo_errors_add(errs, "%s:%d: %s: %s is also written by item %s; each "
					"output needs a file of its own", cfg->path,
					out[j].line ? out[j].line : st->line, out[j].key,
					out[j].path, item->key);
		}
	}
	return errs->n > before ? -EINVAL : 0;
}

/* PATH (the file WHAT, NULL for a file the path alone names) failed the
 * writability check with ERR: one line naming it. */
static void unwritable(struct halo_ctx *ctx, struct halo_errors *errs, const char *what,
		       const char *path, int err)
{
	_cleanup_free_ char *shown = halo_root_display_path(ctx, path);
	_cleanup_free_ char *why = halo_file_unwritable_why(ctx, path, err);

	halo_errors_add(errs, "%s%s%s cannot be written: %s; nothing was changed",
			what ? what : "", what ? " " : "", shown ? shown : path,
			why ? why : strerror(-err));
}

/* Output PATH (WHAT: what it is and the key that sets it) cannot be
 * written the way file items write, for WHY: one line naming the output,
 * its path and why. The read of the same file the run noted as refused
 * (the last state file, behind the same symlink) is named by this line,
 * so it is not said again. */
static void refused_output(struct halo_ctx *ctx, struct halo_errors *errs, const char *what,
			   const char *path, const char *why)
{
	_cleanup_free_ char *line = halo_root_named_line(ctx, what, path, why);

	if (line)
		halo_errors_add(errs, "%s", line);
	else
		errs->oom = true;
	halo_refusals_forget(ctx->refusals, path);
}

int halo_outputs_check(struct halo_ctx *ctx, const struct halo_config *cfg,
		       struct halo_errors *errs)
{
	const struct halo_registry *reg = ctx->registry;
	const char *paths[16] = { NULL }, *what[16] = { NULL };
	size_t n = 0, before = errs->n;

	if (ctx->mode == HALO_MODE_APPLY) {
		what[n] = HALO_STATE_WHAT;
		paths[n++] = halo_state_path(cfg);
		what[n] = REBOOT_WHAT;
		paths[n++] = REBOOT_FLAG;
		what[n] = REBOOT_WHAT;
		paths[n++] = REBOOT_PKGS;
		/* One place left for the textfile. */
		for (size_t i = 0; reg && i < reg->n && n < ARRAY_SIZE(paths) - 1; i++) {
			const struct halo_subsystem *s = &reg->subsystems[i];

			if (s->kept && (ctx->only & s->bit) && s->kept->pending(ctx)) {
				what[n] = s->kept->what;
				paths[n++] = s->kept->path;
			}
		}
	}
	if (halo_outputs_textfile(ctx, cfg)) {
		what[n] = TEXTFILE_WHAT;
		paths[n++] = cfg->state.prometheus;
	}
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *why = NULL;
		int r = halo_file_target_check(ctx, paths[i], &why);

		if (r < 0)
			refused_output(ctx, errs, what[i], paths[i], strerror(-r));
		else if (r > 0)
			refused_output(ctx, errs, what[i], paths[i], why ? why : "refused");
	}
	if (errs->n > before)
		return -EINVAL;
	/* A check only writes its textfile, and reports that failure after
	 * the audit. */
	for (size_t i = 0; ctx->mode == HALO_MODE_APPLY && i < n; i++) {
		int r = halo_root_check_writable(ctx, paths[i]);

		if (r < 0)
			unwritable(ctx, errs, what[i], paths[i], r);
	}
	return errs->n > before ? -EROFS : 0;
}

int halo_outputs_check_files_writable(struct halo_ctx *ctx, const struct halo_plan *plan,
				      struct halo_errors *errs)
{
	size_t before = errs->n;

	if (ctx->mode != HALO_MODE_APPLY)
		return 0;
	for (size_t i = 0; i < plan->n; i++) {
		const struct halo_item *item = plan->items[i];
		const char *path = item->path ? item->path : item->creates;
		int r;

		/* Only a file apply will write (or remove): one already right
		 * may sit on a read-only /etc. */
		if (!path || item->sync != HALO_SYNC_DIFFERS)
			continue;
		r = halo_root_check_writable(ctx, path);
		if (r < 0)
			unwritable(ctx, errs, item->what, path, r);
	}
	return errs->n > before ? -EROFS : 0;
}

/* A write after the run that failed: the run still reports, but failed.
 * WHAT is the output's role, PATH its path inside the root (shown as the
 * operator finds it). */
static int write_failed(struct halo_ctx *ctx, struct halo_plan *plan, struct halo_errors *errs,
			const char *what, const char *path, int r)
{
	_cleanup_free_ char *shown = halo_root_display_path(ctx, path);
	_cleanup_free_ char *why = halo_file_unwritable_why(ctx, path, r);
	const char *p = shown ? shown : path, *w = why ? why : strerror(-r);

	halo_errors_add(errs, "writing %s %s: %s", what, p, w);
	(void)halo_plan_warn(plan, "writing %s %s: %s", what, p, w);
	return HALO_EXIT_FAILED;
}

/* The files the subsystems of this run keep for their later runs. */
static int write_kept(struct halo_ctx *ctx, struct halo_plan *plan, struct halo_errors *errs)
{
	const struct halo_registry *reg = ctx->registry;
	int extra = 0, r;

	for (size_t i = 0; reg && i < reg->n; i++) {
		const struct halo_subsystem *s = &reg->subsystems[i];

		if (!s->kept || !(ctx->only & s->bit))
			continue;
		r = s->kept->write(ctx);
		if (r < 0)
			extra |= write_failed(ctx, plan, errs, s->kept->what, s->kept->path, r);
	}
	return extra;
}

/* Whether the state file is there and recognisably this tool's: a
 * partial revert rewrites only that (and only one whose records the run
 * read: of this schema), never a file someone else put at the configured
 * path, nor one a newer version wrote. */
static bool state_is_ours(struct halo_ctx *ctx, const struct halo_config *cfg)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;

	return halo_read_file(ctx, halo_state_path(cfg), &text, &len) >= 0 &&
	       halo_state_is_ours(text, len);
}

int halo_outputs_plan_moved_textfile(struct halo_ctx *ctx, const struct halo_config *cfg,
				     struct halo_plan *plan)
{
	const char *was = plan->records ? plan->records->textfile : NULL;
	const char *now = cfg->state.prometheus;
	struct halo_item *item;
	int r;

	/* Only a full run writes the textfile, so only one moves it. */
	if (ctx->revert || !halo_run_is_full(ctx) || !was || (now && strcmp(was, now) == 0))
		return 0;
	r = halo_plan_add_revert_output(plan, was, HALO_REVERT_TEXTFILE, &item);
	/* A hand-edited path: not absolute, or a file an item writes. */
	if (r == -EINVAL || r == -EEXIST)
		return 0;
	if (r < 0)
		return r;
	return halo_item_set_note(item, "the textfile of an earlier config: state.prometheus %s",
				  now && now[0] ? "names another now" : "is unset now") < 0 ? -ENOMEM : 0;
}

int halo_outputs_write(struct halo_ctx *ctx, const struct halo_config *cfg,
		       struct halo_plan *plan, int bits, struct halo_errors *errs)
{
	int extra = 0, r;

	/* --interface NAME that no entry manages planned nothing: a state
	 * file written now would record the config as applied. */
	if (ctx->host && ctx->host->interface_unmanaged)
		return 0;
	if (ctx->mode == HALO_MODE_APPLY) {
		r = 0;
		/* A full revert removes the state file as an item (revert.c);
		 * a partial one keeps the record of the subsystems it left,
		 * and only those, when there is a record. */
		if (!ctx->revert) {
			r = halo_state_write(ctx, cfg, plan, bits);
		} else if (!halo_run_is_full(ctx) && plan->records && plan->records->ours &&
			   state_is_ours(ctx, cfg)) {
			struct halo_plan none;

			halo_plan_init(&none);
			none.records = plan->records;
			r = halo_state_write(ctx, cfg, &none, bits);
			halo_plan_free(&none);
		}
		if (r < 0)
			extra |= write_failed(ctx, plan, errs, HALO_STATE_WHAT, halo_state_path(cfg), r);
		extra |= write_kept(ctx, plan, errs);
		if (bits & HALO_EXIT_REBOOT) {
			r = halo_reboot_required_write(ctx);
			if (r < 0)
				extra |= write_failed(ctx, plan, errs, REBOOT_WHAT, REBOOT_FLAG, r);
		}
	}
	if (halo_outputs_textfile(ctx, cfg)) {
		r = halo_prometheus_write(ctx, cfg, plan, bits);
		if (r < 0)
			extra |= write_failed(ctx, plan, errs, TEXTFILE_WHAT, cfg->state.prometheus, r);
	}
	return extra;
}
