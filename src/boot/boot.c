/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * boot.c: turns boot = { } into items (docs/architecture.md): picks the
 * backend, runs the planners in order, then adds the file items and the
 * parameter items, only if the whole boot section is valid.
 *
 *   plan-gtt-size.c      the GTT size, checked against /proc/meminfo
 *   plan-want.c          the wanted parameters and removals
 *   plan-gtt-conflicts.c other GTT sizes on the command line go
 *   plan-pci.c           pci=realloc inside the host's pci= list
 *   plan-gtt-modprobe.c  modprobe.d GTT options that disagree (drift)
 *   backend_*.c          the edited files
 *   check-rootdev.c      root= tags of changed files must resolve
 *   check-length.c       the command line must fit COMMAND_LINE_SIZE
 *   items.c              the items
 */
#include "config.h"

#include <errno.h>

#include "boot/boot.h"
#include "boot/bootint.h"
#include "boot/detect.h"
#include "util/rootfs.h"

static const struct boot_backend *backend_for(enum halo_boot_loader l)
{
	switch (l) {
	case HALO_LOADER_GRUB:
		return &halo_boot_backend_grub;
	case HALO_LOADER_GRUB_DROPIN:
		return &halo_boot_backend_dropin;
	case HALO_LOADER_BLS:
		return &halo_boot_backend_bls;
	case HALO_LOADER_KERNEL_CMDLINE:
		return &halo_boot_backend_kcmdline;
	default:
		return NULL;
	}
}

bool halo_boot_needs_amdgpu_dkms(const struct halo_config *cfg)
{
	const struct halo_boot_config *b = &cfg->boot;

	return b->present && b->loader != HALO_LOADER_NONE && b->gtt_set &&
	       b->gtt_params == HALO_GTT_PARAMS_AUTO;
}

/* The record is written before the files it describes (same phase, plan
 * order), and they are not written when it failed: an edit that is never
 * recorded could never be reverted (the next run sees it done and has
 * nothing to record). *RET_ITEM: the record's item, NULL without one. */
static int add_record(struct halo_ctx *ctx, struct halo_plan *plan,
		      const struct boot_edits *edits, struct halo_item **ret_item)
{
	_cleanup_free_ char *content = NULL;
	int r = boot_record_render(&edits->rec, &content);

	*ret_item = NULL;
	if (r < 0 || !content)
		return r;
	r = halo_plan_add_file(plan, HALO_SUB_BOOT, HALO_PHASE_BOOT, BOOT_RECORD_PATH,
			       content, 0644, ret_item);
	if (r >= 0)
		(*ret_item)->what = BOOT_RECORD_WHAT;
	return r;
}

static int add_files(struct halo_plan *plan, const struct boot_edits *edits,
		     const struct halo_item *record)
{
	for (size_t e = 0; e < edits->n; e++) {
		const struct boot_edit *ed = &edits->v[e];
		struct halo_item *item;
		int r = halo_plan_add_file(plan, HALO_SUB_BOOT, HALO_PHASE_BOOT, ed->path,
					   ed->content, ed->mode, &item);

		if (r < 0)
			return r;
		/* Whether writing it leaves a reboot pending is for the
		 * parameter items to say (items.c): they see the running
		 * command line. */
		item->needs = record;
		if (ed->note && halo_item_set_note(item, "%s", ed->note) < 0)
			return -ENOMEM;
	}
	return 0;
}

int halo_boot_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		   struct halo_plan *plan, struct halo_errors *errs)
{
	const struct halo_boot_config *b = &cfg->boot;
	_cleanup_(boot_edits_free) struct boot_edits edits = { 0 };
	struct boot_run *run;
	enum halo_boot_loader loader = b->loader;
	size_t n_errs = errs->n;
	int r;

	/* A revert works from what the last applies left (the record, the
	 * drop-in), also when the section is gone from the config since. */
	if (ctx->revert) {
		if (!b->present)
			loader = HALO_LOADER_AUTO;
		if (loader == HALO_LOADER_AUTO) {
			r = halo_boot_detect_root(ctx, &loader);
			if (r < 0)
				return r;
		}
		return boot_revert_plan(ctx, cfg, backend_for(loader), plan, errs);
	}
	if (!b->present || loader == HALO_LOADER_NONE)
		return 0;
	if (loader == HALO_LOADER_AUTO) {
		r = halo_boot_detect_root(ctx, &loader);
		if (r < 0)
			return r;
		if (loader == HALO_LOADER_AUTO) {
			halo_errors_add(errs, "%s:%d: boot.loader = \"auto\": no boot loader found "
					"under %s (no /etc/default/grub, /etc/kernel/cmdline or "
					"/boot/loader/entries); set boot.loader",
					cfg->path, b->line, ctx->root);
			return 0;
		}
	}
	r = boot_record_load(ctx, &edits.rec, errs);
	if (r < 0)
		return r;
	run = calloc(1, sizeof(*run));
	if (!run)
		return -ENOMEM;
	run->refs = 1;
	run->backend = backend_for(loader);
	run->regenerate = b->regenerate;

	r = boot_plan_gtt_size(ctx, cfg, plan, errs, &run->gtt_mib);
	if (r >= 0)
		r = boot_plan_want(ctx, cfg, run, errs);
	if (r >= 0)
		r = boot_plan_gtt_conflicts(ctx, run);
	if (r >= 0)
		r = boot_plan_pci(ctx, b, run);
	if (r >= 0)
		r = boot_plan_gtt_modprobe(ctx, run);
	if (r >= 0) {
		r = run->backend->plan(ctx, run, &edits, errs);
		if (r == -EINVAL && errs->n > n_errs)
			r = 0;
	}
	if (r >= 0)
		boot_check_root_devices(ctx, &edits, errs);
	if (r >= 0 && errs->n == n_errs)
		r = boot_check_lengths(ctx, run, &edits, errs);
	/* Nothing is added unless the whole boot section is valid. */
	if (r >= 0 && errs->n == n_errs) {
		struct halo_item *record;

		r = add_record(ctx, plan, &edits, &record);
		if (r >= 0)
			r = add_files(plan, &edits, record);
		if (r >= 0)
			r = boot_add_items(ctx, plan, run);
	}
	boot_run_unref(run);
	return r < 0 ? r : 0;
}
