/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wants.c: storage/<unit>/enabled, the symlink that enables the mount
 * unit: /etc/systemd/system/local-fs.target.wants/<unit> pointing at
 * /etc/systemd/system/<unit>, exactly what `systemctl enable` makes from
 * the unit's [Install] section (so `systemctl is-enabled` and `disable`
 * agree with it). It is made inside the root without following any
 * symlink: every existing component of the directory is lstat'ed (a
 * symlink or a non-directory there is INVALID, nothing written), the
 * directory is opened with O_NOFOLLOW through the root-confined layer, and
 * the link is created under a temporary name and renamed over the old one
 * (a wrong link is replaced atomically; a file or directory in its place
 * is never replaced). The link's absolute target is read by systemd in the
 * booted system, where the root is "/". --revert removes the link only
 * while it is exactly that (see unenable_observe).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "storage/storage-int.h"
#include "storage/storage.h"
#include "util/rootfs.h"
#include "util/strv.h"

#define WANTS_DIR HALO_UNIT_DIR "/" HALO_MOUNT_TARGET ".wants"

struct enabled_data {
	char *unit;
	char *link;   /* WANTS_DIR/unit */
	char *target; /* HALO_UNIT_DIR/unit */
};

static void enabled_free(void *p)
{
	struct enabled_data *d = p;

	if (!d)
		return;
	free(d->unit);
	free(d->link);
	free(d->target);
	free(d);
}

/* Every existing component of WANTS_DIR is a real directory: 0; 1 when
 * one is a file (nothing exists beneath it; the message says which),
 * HALO_SYNC_INVALID for a symlink ("refusing to VERB through a symlink"),
 * or -errno; the message set. */
static int check_dir(struct halo_ctx *ctx, struct halo_item *item, const char *verb)
{
	char prefix[] = WANTS_DIR;
	struct stat st;

	for (char *slash = prefix;; ) {
		char *next = strchr(slash + 1, '/');
		_cleanup_free_ char *shown = NULL;
		int r;

		if (next)
			*next = '\0';
		r = halo_root_lstat(ctx, prefix, &st);
		if (r == -ENOENT)
			return 0;
		if (r < 0)
			return halo_item_fail(item, r, "stat %s", prefix);
		if (!S_ISDIR(st.st_mode)) {
			shown = halo_root_display_path(ctx, prefix);
			if (!S_ISLNK(st.st_mode))
				return halo_item_set_message(item, "%s is not a directory",
							     shown ? shown : prefix) < 0 ? -ENOMEM : 1;
			(void)halo_item_set_message(item, "refusing to %s through a symlink: %s",
						    verb, shown ? shown : prefix);
			return HALO_SYNC_INVALID;
		}
		if (!next)
			return 0;
		*next = '/';
		slash = next;
	}
}

/* The wants directory, opened without following symlinks. */
static int open_dir(struct halo_ctx *ctx, int *ret_fd)
{
	return halo_root_openat(ctx, WANTS_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0, ret_fd);
}

/* The link's target into BUF (SIZE bytes), also the item's observation:
 * 0, or what observe returns (a failure, -ENOMEM). */
static int read_link(struct halo_ctx *ctx, struct halo_item *item, char *buf, size_t size)
{
	const struct enabled_data *d = item->data;
	_cleanup_close_ int dfd = -1;
	ssize_t n;
	int r = open_dir(ctx, &dfd);

	if (r < 0)
		return halo_item_fail(item, r, "opening %s", WANTS_DIR);
	n = readlinkat(dfd, d->unit, buf, size - 1);
	if (n < 0)
		return halo_item_fail(item, -errno, "reading the link %s", d->link);
	buf[n] = '\0';
	return halo_item_set_observed(item, "-> %s", buf) < 0 ? -ENOMEM : 0;
}

static int enabled_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	struct enabled_data *d = item->data;
	_cleanup_free_ char *shown = NULL;
	char buf[4096];
	struct stat st;
	int r;

	if (halo_item_set_message(item, "enabled as `systemctl enable` does (%s wants it); "
				  "mounting is the unit's job, halo-provision never mounts",
				  HALO_MOUNT_TARGET) < 0)
		return -ENOMEM;
	/* A file in a parent's place: the link is absent, and the check
	 * before the first change finds it cannot be made (item->creates). */
	r = check_dir(ctx, item, "link");
	if (r == 1)
		return halo_item_set_observed(item, NULL) < 0 ? -ENOMEM : HALO_SYNC_DIFFERS;
	if (r != 0)
		return r;
	r = halo_root_lstat(ctx, d->link, &st);
	if (r == -ENOENT || r == -ENOTDIR)
		return halo_item_set_observed(item, NULL) < 0 ? -ENOMEM : HALO_SYNC_DIFFERS;
	if (r < 0)
		return halo_item_fail(item, r, "stat %s", d->link);
	if (!S_ISLNK(st.st_mode)) {
		shown = halo_root_display_path(ctx, d->link);
		(void)halo_item_set_message(item, "%s exists and is not a symlink; not replaced",
					    shown ? shown : d->link);
		return HALO_SYNC_INVALID;
	}
	r = read_link(ctx, item, buf, sizeof(buf));
	if (r != 0)
		return r;
	return strcmp(buf, d->target) == 0 ? HALO_SYNC_OK : HALO_SYNC_DIFFERS;
}

static int enabled_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	struct enabled_data *d = item->data;
	_cleanup_close_ int dfd = -1;
	char tmp[300];
	int r;

	r = halo_root_mkdir_p(ctx, WANTS_DIR, 0755);
	if (r < 0)
		return halo_item_fail(item, r, "creating %s", WANTS_DIR);
	r = open_dir(ctx, &dfd);
	if (r < 0)
		return halo_item_fail(item, r, "opening %s", WANTS_DIR);
	for (unsigned i = 0;; i++) {
		snprintf(tmp, sizeof(tmp), ".#%.200s.%06x", d->unit,
			 ((unsigned)getpid() * 2654435761u + i) & 0xffffff);
		if (symlinkat(d->target, dfd, tmp) == 0)
			break;
		if (errno != EEXIST || i >= 16)
			return halo_item_fail(item, -errno, "creating the link %s", d->link);
	}
	if (renameat(dfd, tmp, dfd, d->unit) < 0) {
		r = -errno;
		(void)unlinkat(dfd, tmp, 0);
		return halo_item_fail(item, r, "renaming the link to %s", d->link);
	}
	ctx->files_written++;
	if (fsync(dfd) < 0)
		return halo_item_fail(item, -errno, "syncing %s", WANTS_DIR);
	return 0;
}

/*
 * The undo (--revert): the link goes only while it is exactly the one
 * enabled_apply makes (a symlink to d->target); a file, a directory or a
 * link elsewhere is someone else's `systemctl enable` or edit and is left,
 * said on the item. The wants directory is checked as for apply (a
 * symlink or non-directory on the way is INVALID: exit 1, nothing
 * removed) and the link is read and removed through the directory opened
 * with O_NOFOLLOW: nothing is followed. The same revert also removes the
 * unit file (an owned file, planned before this item, so removed first);
 * the order does not matter much: systemd only reads either at the next
 * daemon-reload or boot, and a link left dangling for a moment in
 * between is what `systemctl disable` after `rm` would leave too.
 */
static int unenable_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	struct enabled_data *d = item->data;
	char buf[4096];
	struct stat st;
	int r;

	if (halo_item_set_observed(item, NULL) < 0)
		return -ENOMEM;
	/* A file in a parent's place: nothing can exist beneath it, so the
	 * link is already gone; the file is not ours and stays. */
	r = check_dir(ctx, item, "remove");
	if (r == 1)
		return halo_item_set_message(item, "%s: no link to remove", item->message) < 0 ?
			-ENOMEM : HALO_SYNC_OK;
	if (r != 0)
		return r;
	r = halo_root_lstat(ctx, d->link, &st);
	if (r == -ENOENT || r == -ENOTDIR)
		return HALO_SYNC_OK;
	if (r < 0)
		return halo_item_fail(item, r, "stat %s", d->link);
	if (!S_ISLNK(st.st_mode)) {
		if (halo_item_set_observed(item, "present, not a symlink") < 0 ||
		    halo_item_set_wanted(item, "left as is") < 0 ||
		    halo_item_set_message(item, "not ours (not a symlink): left as is") < 0)
			return -ENOMEM;
		return HALO_SYNC_OK;
	}
	r = read_link(ctx, item, buf, sizeof(buf));
	if (r != 0)
		return r;
	if (strcmp(buf, d->target) != 0) {
		if (halo_item_set_wanted(item, "left as is") < 0 ||
		    halo_item_set_message(item, "not ours (points to %s, not %s): left as is",
					  buf, d->target) < 0)
			return -ENOMEM;
		return HALO_SYNC_OK;
	}
	return halo_item_set_wanted(item, "absent") < 0 ? -ENOMEM : HALO_SYNC_DIFFERS;
}

static int unenable_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	struct enabled_data *d = item->data;
	_cleanup_close_ int dfd = -1;
	int r;

	/* Observed again under the lock: a link that changed since is left. */
	r = unenable_observe(ctx, item);
	if (r < 0)
		return r;
	if (r != HALO_SYNC_DIFFERS)
		return halo_item_set_message(item, "%s changed since it was observed; left as is",
					     d->link) < 0 ? -ENOMEM : -ESTALE;
	r = open_dir(ctx, &dfd);
	if (r < 0)
		return halo_item_fail(item, r, "opening %s", WANTS_DIR);
	if (unlinkat(dfd, d->unit, 0) < 0)
		return halo_item_fail(item, -errno, "removing the link %s", d->link);
	ctx->files_written++;
	if (fsync(dfd) < 0)
		return halo_item_fail(item, -errno, "syncing %s", WANTS_DIR);
	return 0;
}

static const struct halo_item_ops unenable_ops = {
	.observe = unenable_observe,
	.apply = unenable_apply,
	.free_data = enabled_free,
};

static int enabled_revert(const struct halo_item *item, struct halo_plan *to)
{
	const struct enabled_data *src = item->data;
	struct halo_item *undo;
	struct enabled_data *d;
	int r;

	r = halo_plan_add_new(to, item->key, item->subsys, item->phase, &unenable_ops,
			      sizeof(*d), &undo);
	if (r < 0)
		return r;
	undo->reverting = true;
	d = undo->data;
	d->unit = strdup(src->unit);
	d->link = strdup(src->link);
	d->target = strdup(src->target);
	if (!d->unit || !d->link || !d->target)
		return -ENOMEM;
	return halo_item_set_wanted(undo, "absent");
}

int halo_storage_undo_recorded(struct halo_plan *plan, const char *key, enum halo_subsys sub)
{
	static const char prefix[] = "storage/", suffix[] = "/enabled";
	_cleanup_free_ char *unit = NULL;
	struct halo_plan scratch;
	size_t n = strlen(key);
	int r;

	if (sub != HALO_SUB_STORAGE || strncmp(key, prefix, sizeof(prefix) - 1) != 0 ||
	    n <= sizeof(prefix) - 1 + sizeof(suffix) - 1 ||
	    strcmp(key + n - (sizeof(suffix) - 1), suffix) != 0)
		return 0;
	unit = strndup(key + sizeof(prefix) - 1, n - (sizeof(prefix) - 1) - (sizeof(suffix) - 1));
	if (!unit)
		return -ENOMEM;
	/* A hand-edited key that names no plain unit file is not ours. */
	if (strchr(unit, '/') || unit[0] == '.' || strlen(unit) < 7 ||
	    strcmp(unit + strlen(unit) - 6, ".mount") != 0)
		return 0;
	/* The item apply made for that unit, undone as a planned one is. */
	halo_plan_init(&scratch);
	r = halo_storage_add_enabled(&scratch, unit);
	if (r >= 0)
		r = enabled_revert(scratch.items[0], plan);
	halo_plan_free(&scratch);
	return r < 0 ? r : 1;
}

static const struct halo_item_ops enabled_ops = {
	.observe = enabled_observe,
	.apply = enabled_apply,
	.free_data = enabled_free,
	.revert = enabled_revert,
};

int halo_storage_add_enabled(struct halo_plan *plan, const char *unit)
{
	_cleanup_free_ char *key = halo_strdup_printf("storage/%s/enabled", unit);
	struct halo_item *item;
	struct enabled_data *d;
	int r;

	if (!key)
		return -ENOMEM;
	r = halo_plan_add_new(plan, key, HALO_SUB_STORAGE, HALO_PHASE_FILES, &enabled_ops,
			      sizeof(*d), &item);
	if (r < 0)
		return r;
	d = item->data;
	d->unit = strdup(unit);
	d->link = halo_strdup_printf("%s/%s", WANTS_DIR, unit);
	d->target = halo_strdup_printf("%s/%s", HALO_UNIT_DIR, unit);
	item->creates = d->link ? strdup(d->link) : NULL;
	if (!d->unit || !d->link || !d->target || !item->creates)
		return -ENOMEM;
	return halo_item_set_wanted(item, "-> %s", d->target);
}
