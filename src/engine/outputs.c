/* SPDX-License-Identifier: GPL-2.0-or-later */
/* outputs.c: the state file, the reboot flag and the textfile (outputs.h). */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "engine/outputs.h"
#include "engine/state.h"
#include "engine/subsystem.h"
#include "util/rootfs.h"

#define REBOOT_FLAG "/run/reboot-required"
#define REBOOT_PKGS "/run/reboot-required.pkgs"

static const char *state_path(const struct halo_config *cfg)
{
	return cfg->state.path ? cfg->state.path : HALO_STATE_DEFAULT_PATH;
}

bool halo_outputs_textfile(const struct halo_ctx *ctx, const struct halo_config *cfg)
{
	return (ctx->mode == HALO_MODE_APPLY || ctx->mode == HALO_MODE_CHECK) && !ctx->revert &&
	       cfg->state.prometheus && cfg->state.prometheus[0] && halo_run_is_full(ctx);
}

int halo_outputs_check(struct halo_ctx *ctx, const struct halo_config *cfg,
		       struct halo_errors *errs)
{
	const char *paths[4] = { NULL };
	size_t n = 0, before = errs->n;

	if (ctx->mode == HALO_MODE_APPLY) {
		paths[n++] = state_path(cfg);
		paths[n++] = REBOOT_FLAG;
		paths[n++] = REBOOT_PKGS;
	}
	if (halo_outputs_textfile(ctx, cfg))
		paths[n++] = cfg->state.prometheus;
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *why = NULL;
		int r = halo_file_target_check(ctx, paths[i], &why);

		if (r < 0)
			halo_errors_add(errs, "%s: %s", paths[i], strerror(-r));
		else if (r > 0)
			halo_errors_add(errs, "%s", why ? why : paths[i]);
	}
	if (errs->n > before)
		return -EINVAL;
	/* A check only writes its textfile, and reports that failure after
	 * the audit. */
	for (size_t i = 0; ctx->mode == HALO_MODE_APPLY && i < n; i++) {
		_cleanup_free_ char *shown = halo_root_display_path(ctx, paths[i]);
		int r = halo_root_check_writable(ctx, paths[i]);

		if (r < 0)
			halo_errors_add(errs, "%s cannot be written: %s; nothing was changed",
					shown ? shown : paths[i], strerror(-r));
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
	const char *p = shown ? shown : path;

	halo_errors_add(errs, "writing %s %s: %s", what, p, strerror(-r));
	(void)halo_plan_warn(plan, "writing %s %s: %s", what, p, strerror(-r));
	return HALO_EXIT_FAILED;
}

int halo_outputs_write(struct halo_ctx *ctx, const struct halo_config *cfg,
		       struct halo_plan *plan, int bits, struct halo_errors *errs)
{
	int extra = 0, r;

	if (ctx->mode == HALO_MODE_APPLY) {
		/* A revert removes the state file as an item (revert.c). */
		r = ctx->revert ? 0 : halo_state_write(ctx, cfg, plan, bits);
		if (r < 0)
			extra |= write_failed(ctx, plan, errs, "the state file", state_path(cfg), r);
		if (bits & HALO_EXIT_REBOOT) {
			r = halo_reboot_required_write(ctx);
			if (r < 0)
				extra |= write_failed(ctx, plan, errs, "the reboot flag", REBOOT_FLAG, r);
		}
	}
	if (halo_outputs_textfile(ctx, cfg)) {
		r = halo_prometheus_write(ctx, cfg, plan, bits);
		if (r < 0)
			extra |= write_failed(ctx, plan, errs, "the Prometheus textfile",
					      cfg->state.prometheus, r);
	}
	return extra;
}
