/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file_item.c: an owned file as an item. Observe compares content and mode;
 * apply replaces the file atomically (or removes a stale one). A symlink at
 * the path or in a parent makes the config impossible to apply safely: that
 * is an INVALID observation, so the run stops before anything is written.
 * A parent that is a file leaves the file absent and unwritable: the
 * writability check before the first change refuses it (exit 4).
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/file_int.h"
#include "engine/plan.h"
#include "util/diff.h"
#include "util/rootfs.h"
#include "util/strv.h"

struct file_data {
	char *path;    /* inside the root, absolute */
	char *content; /* NULL: must not exist */
	size_t len;
	mode_t mode;
	/* --diff: the content the first observation that differed found
	 * ("" when absent), for Ansible's before/after diff. */
	char *before;
	/* halo_file_item_keep_prior: the file as the first observation that
	 * differed found it, to be put back (prior NULL: it was absent). */
	bool keep_prior, prior_known;
	char *prior;
	size_t prior_len;
	mode_t prior_mode;
};

static void file_data_free(void *p)
{
	struct file_data *d = p;

	free(d->path);
	free(d->content);
	free(d->before);
	free(d->prior);
	free(d);
}

/* Walks PATH from the root: a symlink in any existing component is
 * INVALID, as is a non-regular target. A parent that is not a directory
 * means the file is absent, with the item's message saying which parent.
 * Returns 1 if the file exists, 0 if not, HALO_SYNC_INVALID or -errno. */
int halo_file_check_path(struct halo_ctx *ctx, struct halo_item *item,
			 const char *path, struct stat *ret_st)
{
	_cleanup_free_ char *prefix = strdup(path);
	_cleanup_free_ char *shown = NULL;
	struct stat st;
	char *slash;
	int r;

	if (!prefix)
		return -ENOMEM;
	/* The common case in one step; the walk below explains the rest. */
	r = halo_root_lstat_plain(ctx, path, &st);
	if (r == -ENOENT)
		return 0;
	if (r == 0 && S_ISREG(st.st_mode)) {
		*ret_st = st;
		return 1;
	}
	for (char *p = prefix + 1;; p = slash + 1) {
		slash = strchr(p, '/');
		if (slash)
			*slash = '\0';
		r = halo_root_lstat(ctx, prefix, &st);
		if (r == -ENOENT)
			return 0;
		if (r < 0)
			return halo_item_fail(item, r, "stat %s", prefix);
		if (S_ISLNK(st.st_mode)) {
			shown = halo_root_display_path(ctx, prefix);
			(void)halo_item_set_message(item,
				"refusing to write through a symlink: %s",
				shown ? shown : prefix);
			return HALO_SYNC_INVALID;
		}
		if (!slash)
			break;
		if (!S_ISDIR(st.st_mode)) {
			shown = halo_root_display_path(ctx, prefix);
			return halo_item_set_message(item, "%s is not a directory",
						     shown ? shown : prefix) < 0 ? -ENOMEM : 0;
		}
		*slash = '/';
	}
	if (!S_ISREG(st.st_mode)) {
		shown = halo_root_display_path(ctx, path);
		(void)halo_item_set_message(item, "%s: %s, not a regular file",
					    shown ? shown : path, halo_file_kind(st.st_mode));
		return HALO_SYNC_INVALID;
	}
	*ret_st = st;
	return 1;
}

int halo_file_target_check(struct halo_ctx *ctx, const char *path, char **ret_why)
{
	struct halo_item probe = { 0 };
	struct stat st;
	int r = halo_file_check_path(ctx, &probe, path, &st);

	if (r == HALO_SYNC_INVALID) {
		*ret_why = TAKE_PTR(probe.message);
		return 1;
	}
	free(probe.message);
	free(probe.observed);
	return r < 0 ? r : 0;
}

char *halo_file_unwritable_why(struct halo_ctx *ctx, const char *path, int err)
{
	struct halo_item probe = { 0 };
	struct stat st;

	/* Only the walk knows which parent is the file. */
	if (err == -ENOTDIR && halo_file_check_path(ctx, &probe, path, &st) == 0 &&
	    probe.message) {
		free(probe.observed);
		return probe.message;
	}
	free(probe.message);
	free(probe.observed);
	if (err == -EBUSY)
		return strdup("it is a mount point (a file mounted there), which cannot be replaced "
			      "or removed");
	return strdup(strerror(-err));
}

static int file_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	struct file_data *d = item->data;
	_cleanup_free_ char *old = NULL;
	size_t old_len = 0;
	struct stat st = { 0 };
	bool same;
	int r;

	/* Most owned files are plain: read in one pass, which also tells
	 * they are. Anything else is judged the long way. */
	r = halo_root_read_plain(ctx, d->path, &st, &old, &old_len);
	if (r == -ENOMEM)
		return r;
	if (r == 1) {
		r = halo_file_check_path(ctx, item, d->path, &st);
		if (r < 0 || r == HALO_SYNC_INVALID)
			return r;
		if (r == 1 && (r = halo_root_read_owned(ctx, d->path, &old, &old_len)) < 0)
			return halo_item_fail(item, r, "reading %s", d->path);
	}
	/* Read (0) or absent (-ENOENT, or 0 from the walk with OLD unset). */
	if (old) {
		same = d->content && old_len == d->len &&
		       memcmp(old, d->content, d->len) == 0;
		if (!d->content)
			r = halo_item_set_observed(item, "present, %zu bytes", old_len);
		else if (same || old_len != d->len)
			r = halo_item_set_observed(item, "mode %04o, %zu bytes",
						   (unsigned)(st.st_mode & 07777), old_len);
		else
			r = halo_item_set_observed(item, "mode %04o, %zu bytes (other content)",
						   (unsigned)(st.st_mode & 07777), old_len);
		if (r < 0)
			return r;
		if (same && (st.st_mode & 07777) == d->mode)
			return HALO_SYNC_OK;
	} else {
		if (halo_item_set_observed(item, NULL) < 0)
			return -ENOMEM;
		if (!d->content)
			return HALO_SYNC_OK;
	}

	/* Keep the diff of the first observation: after apply it is what
	 * changed. Content equal (only the mode differs): no diff. */
	if (ctx->diff || ctx->json) {
		char *diff = halo_unified_diff(d->path, old, d->content);

		if (!diff)
			return -ENOMEM;
		free(item->diff);
		item->diff = diff;
	}
	if (d->keep_prior && !d->prior_known) {
		if (old) {
			d->prior = malloc(old_len + 1);
			if (!d->prior)
				return -ENOMEM;
			memcpy(d->prior, old, old_len);
			d->prior[old_len] = '\0';
		}
		d->prior_len = old_len;
		d->prior_mode = st.st_mode & 07777;
		d->prior_known = true;
	}
	if (ctx->diff && !d->before) {
		d->before = old ? TAKE_PTR(old) : strdup("");
		if (!d->before)
			return -ENOMEM;
	}
	return HALO_SYNC_DIFFERS;
}

static int file_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	struct file_data *d = item->data;
	int r;

	if (d->content)
		r = halo_write_file_atomic(ctx, d->path, d->content, d->len, d->mode);
	else
		r = halo_root_unlink(ctx, d->path);
	if (r == -ELOOP) {
		(void)halo_item_set_message(item, "refusing to write through a symlink: %s",
					    d->path);
		return r;
	}
	if (r < 0)
		return halo_item_fail(item, r, "%s %s",
				      d->content ? "writing" : "removing", d->path);
	return 0;
}

static const struct halo_item_ops file_ops = {
	.observe = file_observe,
	.apply = file_apply,
	.free_data = file_data_free,
};

void halo_file_item_keep_prior(struct halo_item *item)
{
	if (item->ops == &file_ops && item->data)
		((struct file_data *)item->data)->keep_prior = true;
}

int halo_file_item_restore(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct file_data *d;
	int r;

	if (item->ops != &file_ops || !item->data || !((struct file_data *)item->data)->prior_known)
		return -ENODATA;
	d = item->data;
	r = d->prior ? halo_write_file_atomic(ctx, d->path, d->prior, d->prior_len, d->prior_mode) :
		       halo_root_unlink(ctx, d->path);
	return r < 0 ? r : 0;
}

bool halo_file_item_contents(const struct halo_item *item, const char **ret_before,
			     const char **ret_after)
{
	const struct file_data *d;

	if (item->ops != &file_ops || !item->data)
		return false;
	d = item->data;
	if (!d->before)
		return false;
	*ret_before = d->before;
	*ret_after = d->content ? d->content : "";
	return true;
}

int halo_plan_add_file(struct halo_plan *plan, enum halo_subsys subsys,
		       enum halo_phase phase, const char *path,
		       const char *content, mode_t mode,
		       struct halo_item **ret_item)
{
	struct halo_item *item;
	struct file_data *d;
	int r = halo_plan_add_for_file(plan, path, subsys, phase, &file_ops, sizeof(*d), &item);

	if (r < 0)
		return r;
	d = item->data;
	d->mode = mode & 07777;
	d->path = strdup(path);
	if (content) {
		d->len = strlen(content);
		d->content = strdup(content);
	}
	if (!d->path || (content && !d->content))
		return -ENOMEM;
	if (content)
		r = halo_item_set_wanted(item, "mode %04o, %zu bytes",
					 (unsigned)d->mode, d->len);
	else
		r = halo_item_set_wanted(item, "absent");
	if (r < 0)
		return r;
	if (ret_item)
		*ret_item = item;
	return 0;
}
