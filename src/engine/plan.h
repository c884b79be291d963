/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan.h: the ordered list of items for one run, plus warnings. */
#pragma once

#include <sys/types.h>

#include "engine/item.h"
#include "halo.h"

struct halo_plan {
	struct halo_item **items;
	size_t n, cap;
	char **warnings; /* NULL-terminated, one line each */
	size_t n_warnings;
	/* The last state file's ownership records (owned.h), loaded by the
	 * run before planning; NULL: none. Not owned. */
	const struct halo_records *records;
	/* The items the engine applied in this run, in order (an item again
	 * each time it was applied again): what undid an item. */
	const struct halo_item **applied;
	size_t n_applied, cap_applied;
	/* The files a planner held back in this run (not planned: an entry
	 * without its link, the interfaces not resolved), each with the
	 * index of the warning that says so: a truncation drops both. */
	struct halo_plan_held {
		char *path;
		size_t warning;
	} *held;
	size_t n_held;
};

void halo_plan_init(struct halo_plan *plan);
void halo_plan_free(struct halo_plan *plan);

/* Adds an item (key copied, DATA owned by the item from now on, freed with
 * ops->free_data, or free() when ops has none, even on failure). -EEXIST
 * for a duplicate key, -ENOMEM. */
int halo_plan_add(struct halo_plan *plan, const char *key,
		  enum halo_subsys subsys, enum halo_phase phase,
		  const struct halo_item_ops *ops, void *data,
		  struct halo_item **ret_item);

/* The usual way to make an item: halo_plan_add with DATA_SIZE zeroed bytes
 * as its data, which the caller then fills through (*ret_item)->data. So
 * ops->free_data must accept zeroed (and partly filled) data: a fill that
 * fails leaves the item in the plan, and the plan frees it. */
int halo_plan_add_new(struct halo_plan *plan, const char *key,
		      enum halo_subsys subsys, enum halo_phase phase,
		      const struct halo_item_ops *ops, size_t data_size,
		      struct halo_item **ret_item) _nonnull_(1, 2, 7);

/* An item that writes the file PATH (absolute, inside the root) whole:
 * keyed "file" + PATH, item->path set; otherwise halo_plan_add_new.
 * -EINVAL for a relative PATH. */
int halo_plan_add_for_file(struct halo_plan *plan, const char *path,
			   enum halo_subsys subsys, enum halo_phase phase,
			   const struct halo_item_ops *ops, size_t data_size,
			   struct halo_item **ret_item) _nonnull_(1, 2, 7);

/* The ownership records the last state file holds for each of KEYS
 * (NULL-terminated: an item's key and the keys that held the same record
 * before), merged into *RET. 0, or -ENOSPC when they do not fit. */
int halo_plan_recorded(const struct halo_plan *plan, const char *const *keys,
		       struct halo_owned *ret);

/* The memo (item.h) the last state file holds for KEY, or NULL. */
const char *halo_plan_recorded_memo(const struct halo_plan *plan, const char *key);

/* Drops the items and warnings added after the first N_ITEMS and
 * N_WARNINGS: a part planned again after an earlier phase applied. */
void halo_plan_truncate(struct halo_plan *plan, size_t n_items, size_t n_warnings);
struct halo_item *halo_plan_find(const struct halo_plan *plan, const char *key);

/* How many items of PLAN have outcome O. */
size_t halo_plan_count(const struct halo_plan *plan, enum halo_outcome o);

int halo_plan_warn(struct halo_plan *plan, const char *fmt, ...) _printf_(2, 3);

/* A warning that the file PATH (inside the root) is held back in this
 * run: not planned, so neither written nor checked. An owned file the
 * last state file records stays recorded (engine/file_left.c). 0 or
 * -ENOMEM. */
int halo_plan_warn_held(struct halo_plan *plan, const char *path, const char *fmt, ...)
	_printf_(3, 4);

/* Whether a planner held PATH back in this run. */
bool halo_plan_holds(const struct halo_plan *plan, const char *path);

/*
 * An owned file as an item ("file" + PATH, e.g. "file/etc/modprobe.d/x.conf").
 * CONTENT NULL: the file must not exist (a stale drop-in; apply removes it).
 * Observe compares content and mode (a symlink at PATH is HALO_SYNC_INVALID);
 * apply writes atomically; item->diff is set when they differ.
 */
int halo_plan_add_file(struct halo_plan *plan, enum halo_subsys subsys,
		       enum halo_phase phase, const char *path,
		       const char *content, mode_t mode,
		       struct halo_item **ret_item);

/* Whether PATH may be written inside the root the way file items write:
 * 0 yes (or it may be created), 1 no with *ret_why set (a symlink on the
 * way, not a regular file), -errno. A parent that is a file passes here
 * and fails the writability check. For the run's own outputs (state file,
 * textfile), checked before the first change like every item. */
int halo_file_target_check(struct halo_ctx *ctx, const char *path, char **ret_why);

/* Why PATH cannot be written, from the writability check's ERR: which
 * parent is a file for -ENOTDIR, the errno text otherwise. Caller frees;
 * NULL on ENOMEM. */
char *halo_file_unwritable_why(struct halo_ctx *ctx, const char *path, int err);

/* The header every owned file starts with, with the comment leader
 * ("#" for most). Static string. */
#define HALO_MANAGED_TEXT "Managed by halo-provision; local changes will be overwritten."
#define HALO_MANAGED_HEADER "# " HALO_MANAGED_TEXT "\n"

/* Whether TEXT (LEN bytes) is an owned file: HALO_MANAGED_TEXT on one of
 * its first three lines after a comment leader, whatever the leader
 * ("#", ";", "//", "<!--": an XML file's comment follows its <?xml?>
 * declaration). What --revert removes is decided by this. */
bool halo_is_managed(const char *text, size_t len);

/* An owned-file item keeps the file as its first differing observation
 * found it (absent included), so that halo_file_item_restore can put it
 * back: for a file whose apply has a second step that may fail. */
void halo_file_item_keep_prior(struct halo_item *item);

/* Puts the kept file back (removes it if it was absent): 0, -ENODATA
 * when nothing was kept, or the write's or unlink's -errno. */
int halo_file_item_restore(struct halo_ctx *ctx, struct halo_item *item);

/* With ctx->diff: the content an owned-file item's first differing
 * observation found ("" when the file was absent) and the content it
 * wants ("" for absent): true, or false for any other item or a file
 * that never differed. Ansible's diff is made of these. */
bool halo_file_item_contents(const struct halo_item *item, const char **ret_before,
			     const char **ret_after);
