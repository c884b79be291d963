/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file_revert.c: the undo of an owned file (--revert). A file is removed
 * only when it still carries the managed header: one that lost it was
 * taken over by someone else and is left, said on its item. The run's own
 * outputs (state file, textfile) are JSON or metrics without a header:
 * one is removed only when its content is recognisably this tool's
 * (state.h), since the configured path may hold any file of the host. A
 * symlink at the path or on the way is INVALID, as for apply: nothing is
 * ever removed through one.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/file_int.h"
#include "engine/plan.h"
#include "engine/revert.h"
#include "engine/state.h"
#include "util/diff.h"
#include "util/rootfs.h"
#include "util/strv.h"

struct revert_data {
	char *path;
	enum halo_revert_kind kind;
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

/* Whether the file D names, TEXT (LEN bytes), is someone else's: then
 * ITEM says why and that it stays (1). 0: ours, -ENOMEM. */
static int not_ours(const struct revert_data *d, const char *text, size_t len,
		    struct halo_item *item)
{
	_cleanup_free_ char *why = NULL;
	char foreign[64];

	switch (d->kind) {
	case HALO_REVERT_OWNED:
		if (halo_is_managed(text, len))
			return 0;
		why = halo_strdup_printf("no \"%s\" header", HALO_MANAGED_TEXT);
		break;
	case HALO_REVERT_STATE_FILE:
		if (halo_state_is_ours(text, len))
			return 0;
		why = strdup("not a halo-provision state file");
		break;
	case HALO_REVERT_TEXTFILE:
		if (halo_prometheus_is_ours(text, len, foreign, sizeof(foreign)))
			return 0;
		why = foreign[0] ? halo_strdup_printf("holds another program's series %s",
						      foreign) :
				   strdup("no series of halo-provision's");
		break;
	}
	if (!why || halo_item_set_observed(item, "present, %zu bytes, %s", len, why) < 0 ||
	    halo_item_set_wanted(item, "left as is") < 0 ||
	    halo_item_set_message(item, "not ours (%s): left as is", why) < 0)
		return -ENOMEM;
	return 1;
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
	r = halo_root_read_owned(ctx, d->path, &text, &len);
	if (r < 0)
		return halo_item_fail(item, r, "reading %s", d->path);
	r = not_ours(d, text, len, item);
	if (r != 0)
		return r < 0 ? r : HALO_SYNC_OK;
	if (halo_item_set_observed(item, "present, %s%zu bytes",
				   d->kind == HALO_REVERT_OWNED ? "managed, " : "", len) < 0 ||
	    halo_item_set_wanted(item, "absent") < 0)
		return -ENOMEM;
	if (d->kind != HALO_REVERT_OWNED &&
	    halo_item_set_message(item, "halo-provision's own output") < 0)
		return -ENOMEM;
	if ((ctx->diff || ctx->json) && d->kind == HALO_REVERT_OWNED) {
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

/* The undo of PATH as KIND says to judge it. */
static int add_revert(struct halo_plan *plan, enum halo_subsys subsys, enum halo_phase phase,
		      const char *path, enum halo_revert_kind kind, struct halo_item **ret_item)
{
	struct halo_item *item;
	struct revert_data *d;
	int r = halo_plan_add_for_file(plan, path, subsys, phase, &revert_ops, sizeof(*d), &item);

	if (r < 0)
		return r;
	item->reverting = true;
	d = item->data;
	d->kind = kind;
	d->path = strdup(path);
	if (!d->path || halo_item_set_wanted(item, "absent") < 0)
		return -ENOMEM;
	if (ret_item)
		*ret_item = item;
	return 0;
}

int halo_plan_add_revert_file(struct halo_plan *plan, enum halo_subsys subsys,
			      enum halo_phase phase, const char *path,
			      struct halo_item **ret_item)
{
	return add_revert(plan, subsys, phase, path, HALO_REVERT_OWNED, ret_item);
}

int halo_plan_add_revert_output(struct halo_plan *plan, const char *path,
				enum halo_revert_kind kind, struct halo_item **ret_item)
{
	return add_revert(plan, HALO_SUB_FILES, HALO_PHASE_BOOT, path, kind, ret_item);
}
