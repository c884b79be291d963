/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * storage.c: the model store. Each storage entry becomes its systemd
 * .mount unit (an owned file), the symlink that enables it, and two
 * check-only items: the device and the mount. Planned before anything
 * changes: a device that is there with another file system than `type`
 * (or none) is a validation error, exit 1; an absent device is not (the
 * disk may come later: its item fails, the unit is written and mounts it
 * when it appears).
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "storage/escape.h"
#include "storage/storage-int.h"
#include "storage/storage.h"
#include "util/blkid.h"
#include "util/strv.h"

/* The file system on S's device must be S's type: else a validation
 * error naming file:line. An absent device is left to its item. */
static void check_type(struct halo_ctx *ctx, const struct halo_config *cfg, size_t i,
		       struct halo_errors *errs)
{
	const struct halo_storage *s = &cfg->storage[i];
	struct halo_blkid_found f = { 0 };
	int r = halo_blkid_find(ctx, halo_device_tag_name(s->what.tag), s->what.value, &f);

	if (r == -ENOTBLK)
		halo_errors_add(errs, "%s:%d: storage[%zu]: %s names neither a block device nor a "
				"file system image (a FIFO or character device is never probed)",
				cfg->path, s->line, i, s->what.text);
	/* Nothing is planned on a device that cannot be probed. */
	if (r == -ELIBACC)
		halo_errors_add(errs, "%s:%d: storage[%zu]: probing %s: %s", cfg->path, s->line,
				i, s->what.text, halo_blkid_why());
	if (r < 0)
		return;
	if (!f.type)
		halo_errors_add(errs, "%s:%d: storage[%zu]: %s (%s) has no file system%s%s%s",
				cfg->path, s->line, i, s->what.text, f.dev, s->type ? " (want " : "",
				s->type ? s->type : "", s->type ? "): make it first" : "");
	else if (s->type && strcmp(f.type, s->type) != 0)
		halo_errors_add(errs, "%s:%d: storage[%zu]: %s (%s) is %s, not %s",
				cfg->path, s->line, i, s->what.text, f.dev, f.type, s->type);
	halo_blkid_found_free(&f);
}

static int plan_one(struct halo_ctx *ctx, const struct halo_config *cfg, size_t i,
		    struct halo_plan *plan, struct halo_errors *errs)
{
	const struct halo_storage *s = &cfg->storage[i];
	_cleanup_free_ char *unit = NULL, *path = NULL, *content = NULL;
	int r;

	r = halo_mount_unit_name(s->where, &unit);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		halo_errors_add(errs, "%s:%d: storage[%zu].where: %s %s", cfg->path,
				s->where_line ? s->where_line : s->line, i, s->where,
				r == -ENAMETOOLONG ? "makes a unit name longer than systemd's 255 "
						     "characters" :
						     "is not a usable mount point");
		return 0;
	}
	/* A revert only removes the unit: the device is not its concern. */
	if (!ctx->revert)
		check_type(ctx, cfg, i, errs);
	r = halo_storage_render_unit(s, unit, &content);
	if (r < 0)
		return r;
	path = halo_strdup_printf("%s/%s", HALO_UNIT_DIR, unit);
	if (!path)
		return -ENOMEM;
	r = halo_plan_add_file(plan, HALO_SUB_STORAGE, HALO_PHASE_FILES, path, content, 0644,
			       NULL);
	if (r == -EEXIST) { /* two mount points with one unit name: config refuses */
		halo_errors_add(errs, "%s:%d: storage[%zu].where: %s: unit %s twice", cfg->path,
				s->line, i, s->where, unit);
		return 0;
	}
	if (r < 0)
		return r;
	r = halo_storage_add_enabled(plan, unit);
	if (r >= 0)
		r = halo_storage_add_device(plan, s, unit);
	if (r >= 0)
		r = halo_storage_add_mounted(plan, s, unit);
	return r < 0 ? r : 0;
}

int halo_storage_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		      struct halo_plan *plan, struct halo_errors *errs)
{
	for (size_t i = 0; i < cfg->n_storage; i++) {
		int r;

		/* An entry the loader refused never gets here with holes;
		 * still, a missing key plans nothing. */
		if (!cfg->storage[i].what.text || !cfg->storage[i].where)
			continue;
		r = plan_one(ctx, cfg, i, plan, errs);
		if (r < 0)
			return r;
	}
	return 0;
}
