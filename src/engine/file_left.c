/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file_left.c: the owned files that the last state file records and this
 * run's config no longer plans (a section taken out of the config, a
 * firewall backend changed), or that a planner held back in this run
 * (an entry without its link). An absent section leaves its part of the
 * host alone, so the file stays; its item keeps it in the state file, so
 * that a later --revert still finds and removes it.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/file_left.h"
#include "engine/owned.h"
#include "engine/subsystem.h"
#include "util/rootfs.h"
#include "util/strv.h"

static int left_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int r = halo_root_read_owned(ctx, item->path, &text, &len);

	if (r == -ENOENT)
		r = halo_item_set_observed(item, NULL) < 0 ||
		    halo_item_set_message(item, "already gone") < 0;
	else if (r < 0)
		return halo_item_fail(item, r, "reading %s", item->path);
	else if (!halo_is_managed(text, len))
		r = halo_item_set_observed(item, "present, %zu bytes, no \"%s\" header", len,
					   HALO_MANAGED_TEXT) < 0 ||
		    halo_item_set_message(item, "not ours now: --revert leaves it too") < 0;
	else
		r = halo_item_set_observed(item, "present, managed, %zu bytes", len) < 0 ||
		    halo_item_set_message(item, "--revert removes it") < 0;
	return r ? -ENOMEM : HALO_SYNC_OK;
}

static const struct halo_item_ops left_ops = {
	.observe = left_observe,
	.apply = NULL,
	.free_data = NULL,
};

/* Whether KEY is the key an owned file at PATH has ("file" + PATH): a
 * hand-edited record that pairs them otherwise is not ours. */
static bool file_key(const char *key, const char *path)
{
	return strncmp(key, "file", 4) == 0 && strcmp(key + 4, path) == 0;
}

/* Whether SUB undoes more than files from its records (storage: the
 * enable link beside its unit). Keeping only the file's record would let a
 * revert remove the unit and leave the link dangling, so such files are
 * left unrecorded, both staying. */
static bool undoes_more(const struct halo_ctx *ctx, enum halo_subsys sub)
{
	const struct halo_registry *reg = ctx->registry;

	for (size_t i = 0; reg && i < reg->n; i++)
		if (reg->subsystems[i].bit == sub)
			return reg->subsystems[i].undo_recorded != NULL;
	return false;
}

int halo_plan_add_left_files(struct halo_ctx *ctx, struct halo_plan *plan)
{
	const struct halo_records *rec = plan->records;

	/* A revert removes them itself; a one-interface run keeps the
	 * shared files' records as they are (state.c). */
	if (ctx->revert || ctx->interface || !rec)
		return 0;
	for (size_t i = 0; i < rec->n; i++) {
		const struct halo_recorded *f = &rec->v[i];
		_cleanup_free_ char *text = NULL;
		enum halo_subsys sub;
		struct halo_item *item;
		size_t len = 0;
		int r;

		if (!f->path || !file_key(f->key, f->path) || halo_plan_find(plan, f->key))
			continue;
		sub = halo_subsys_from_name(ctx->registry, f->subsystem);
		if (!(sub & ctx->only) || undoes_more(ctx, sub))
			continue;
		/* Gone, refused or taken over since: nothing of ours to keep. */
		if (halo_root_read_owned(ctx, f->path, &text, &len) < 0 ||
		    !halo_is_managed(text, len))
			continue;
		r = halo_plan_add_for_file(plan, f->path, sub, HALO_PHASE_FILES, &left_ops, 0, &item);
		if (r == -EINVAL)
			continue;
		if (r < 0)
			return r;
		/* A file held back this run (its warning says why) is in the
		 * config still. */
		if (halo_item_set_wanted(item, "left as is (%s)",
					 halo_plan_holds(plan, f->path) ?
						 "held back in this run, as a warning says" :
						 "no longer in the config") < 0)
			return -ENOMEM;
	}
	return 0;
}
