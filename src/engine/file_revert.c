/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file_revert.c: the undo of an owned file (--revert). A file is removed
 * only when it still carries the managed header: one that lost it was
 * taken over by someone else and is left, said on its item. The run's own
 * outputs (state file, textfile) are JSON or metrics without a header;
 * they are removed as outputs. A symlink at the path or on the way is
 * INVALID, as for apply: nothing is ever removed through one.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/file_int.h"
#include "engine/plan.h"
#include "engine/revert.h"
#include "util/diff.h"
#include "util/rootfs.h"
#include "util/strv.h"

struct revert_data {
	char *path;
	bool output; /* the run's own output: removed without a header */
};

static void revert_data_free(void *p)
{
	struct revert_data *d = p;

	if (!d)
		return;
	free(d->path);
	free(d);
}

/* Skips a comment leader ("#", "//", ";", "<!--", "--", "*") and blanks. */
static const char *skip_leader(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (p < end && strchr("#;/<!-*", *p))
		p++;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

bool halo_is_managed(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	size_t tlen = strlen(HALO_MANAGED_TEXT);

	for (int line = 0; line < 3 && p < end; line++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *q = skip_leader(p, eol);

		if ((size_t)(eol - q) >= tlen && memcmp(q, HALO_MANAGED_TEXT, tlen) == 0)
			return true;
		if (!nl)
			break;
		p = nl + 1;
	}
	return false;
}

static int revert_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	struct revert_data *d = item->data;
	_cleanup_free_ char *text = NULL;
	struct stat st;
	size_t len = 0;
	int r;

	r = halo_file_check_path(ctx, item, d->path, &st);
	if (r < 0 || r == HALO_SYNC_INVALID)
		return r;
	if (r == 0)
		return halo_item_set_observed(item, NULL) < 0 ? -ENOMEM : HALO_SYNC_OK;
	r = halo_read_file(ctx, d->path, &text, &len);
	if (r < 0)
		return halo_item_fail(item, r, "reading %s", d->path);
	if (!d->output && !halo_is_managed(text, len)) {
		if (halo_item_set_observed(item, "present, %zu bytes, no managed header", len) < 0 ||
		    halo_item_set_wanted(item, "left as is") < 0 ||
		    halo_item_set_message(item, "not ours (no \"%s\" header): left as is",
					  HALO_MANAGED_TEXT) < 0)
			return -ENOMEM;
		return HALO_SYNC_OK;
	}
	if (halo_item_set_observed(item, "present, %s%zu bytes",
				   d->output ? "" : "managed, ", len) < 0 ||
	    halo_item_set_wanted(item, "absent") < 0)
		return -ENOMEM;
	if (d->output && halo_item_set_message(item, "halo-provision's own output") < 0)
		return -ENOMEM;
	if ((ctx->diff || ctx->json) && !d->output) {
		char *diff = halo_unified_diff(d->path, text, NULL);

		if (!diff)
			return -ENOMEM;
		free(item->diff);
		item->diff = diff;
	}
	return HALO_SYNC_DIFFERS;
}

static int revert_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	struct revert_data *d = item->data;
	int r;

	/* Observed again under the lock: a file that turned into a symlink
	 * or lost its header since is not removed. */
	r = revert_observe(ctx, item);
	if (r < 0)
		return r;
	if (r != HALO_SYNC_DIFFERS)
		return halo_item_set_message(item, "%s changed since it was observed; left as is",
					     d->path) < 0 ? -ENOMEM : -ESTALE;
	r = halo_root_unlink(ctx, d->path);
	if (r == -ELOOP)
		return halo_item_fail(item, r, "refusing to remove through a symlink: %s", d->path);
	if (r < 0)
		return halo_item_fail(item, r, "removing %s", d->path);
	return 0;
}

static const struct halo_item_ops revert_ops = {
	.observe = revert_observe,
	.apply = revert_apply,
	.free_data = revert_data_free,
};

int halo_plan_add_revert_file(struct halo_plan *plan, enum halo_subsys subsys,
			      enum halo_phase phase, const char *path, bool output,
			      struct halo_item **ret_item)
{
	struct halo_item *item;
	struct revert_data *d;
	int r = halo_plan_add_for_file(plan, path, subsys, phase, &revert_ops, sizeof(*d), &item);

	if (r < 0)
		return r;
	item->reverting = true;
	d = item->data;
	d->output = output;
	d->path = strdup(path);
	if (!d->path || halo_item_set_wanted(item, "absent") < 0)
		return -ENOMEM;
	if (ret_item)
		*ret_item = item;
	return 0;
}
