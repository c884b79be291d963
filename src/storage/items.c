/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * items.c: storage/<unit>/device and storage/<unit>/mounted. Both only
 * observe (the check-only phase: an apply never acts on them): the device
 * is the disk's business, the mount the unit's. A device that is absent
 * now fails the item (the node has no model store yet), but the unit is
 * written all the same and mounts the device when it appears.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "storage/mountinfo.h"
#include "storage/storage-int.h"
#include "util/blkid.h"
#include "util/rootfs.h"
#include "util/strv.h"

struct store_data {
	char *unit;
	char *what;      /* as configured */
	const char *tag; /* libblkid's name of what's tag; NULL: a path */
	char *value;     /* what's tag value or path */
	char *what_path; /* the unit's What= */
	char *where;
	char *type;      /* NULL: any */
};

static void store_free(void *p)
{
	struct store_data *d = p;

	free(d->unit);
	free(d->what);
	free(d->value);
	free(d->what_path);
	free(d->where);
	free(d->type);
	free(d);
}


/* -ENODEV with the item's message when the device names nothing now. */
static int find(struct halo_ctx *ctx, struct halo_item *item, const struct store_data *d,
		struct halo_blkid_found *f)
{
	int r = halo_blkid_find(ctx, d->tag, d->value, f);

	if (r == -ENODEV)
		return halo_item_refuse(item, r, "%s names no device now%s; the unit mounts it "
				      "when it appears", d->what,
				      ctx->under_root && d->tag ?
				      " (libblkid cache " HALO_BLKID_CACHE " in the root)" : "");
	if (r == -ELIBACC)
		return halo_item_refuse(item, r, "probing %s: %s", d->what, halo_blkid_why());
	if (r < 0)
		return halo_item_fail(item, r, "probing %s", d->what);
	return 0;
}

static int device_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	struct store_data *d = item->data;
	struct halo_blkid_found f = { 0 };
	int r;

	if (halo_item_set_observed(item, NULL) < 0)
		return -ENOMEM;
	r = find(ctx, item, d, &f);
	if (r < 0)
		return r;
	r = halo_item_set_observed(item, "%s (%s)", f.dev, f.type ? f.type : "no file system");
	if (r >= 0 && !f.type)
		r = halo_item_refuse(item, -EMEDIUMTYPE, "%s (%s) has no file system signature",
				   d->what, f.dev);
	else if (r >= 0 && d->type && strcmp(f.type, d->type) != 0)
		r = halo_item_refuse(item, -EMEDIUMTYPE, "%s (%s) is %s, not %s", d->what, f.dev,
				   f.type, d->type);
	else if (r >= 0)
		r = HALO_SYNC_OK;
	halo_blkid_found_free(&f);
	return r;
}

static const struct halo_item_ops device_ops = {
	.observe = device_observe,
	.free_data = store_free,
};

/* Whether mount M is the configured device: its source names it, or
 * (a block device) its numbers match. */
static bool is_ours(const struct store_data *d, const struct halo_blkid_found *f,
		    const struct halo_mount *m)
{
	if (strcmp(m->source, d->what_path) == 0 || strcmp(m->source, d->what) == 0)
		return true;
	if (!f->dev)
		return false;
	if (strcmp(m->source, f->dev) == 0)
		return true;
	/* mountinfo names the kernel's node (/dev/sdb1 for a udev link). */
	return f->rdev && major(f->rdev) == m->major && minor(f->rdev) == m->minor;
}

static int mounted_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	struct store_data *d = item->data;
	struct halo_blkid_found f = { 0 };
	struct halo_mount m = { 0 };
	_cleanup_free_ char *text = NULL;
	const char *want_type;
	size_t len;
	int r;

	if (halo_item_set_observed(item, NULL) < 0)
		return -ENOMEM;
	r = halo_read_file(ctx, "/proc/self/mountinfo", &text, &len);
	if (r == -ENOENT) {
		(void)halo_item_set_message(item, "no /proc/self/mountinfo in the root");
		return HALO_SYNC_UNSUPPORTED;
	}
	if (r < 0)
		return halo_item_fail(item, r, "reading /proc/self/mountinfo");
	r = halo_mountinfo_find(text, d->where, &m);
	if (r < 0)
		return halo_item_fail(item, r, "parsing /proc/self/mountinfo");
	if (r == 0) {
		if (halo_item_set_message(item, "not mounted: mounted at next boot or "
					  "`systemctl start %s`", d->unit) < 0)
			return -ENOMEM;
		return HALO_SYNC_DIFFERS;
	}
	r = halo_item_set_observed(item, "%s (%s)", m.source, m.fstype);
	if (r < 0)
		goto out;
	/* The device may be absent now while something is mounted. */
	(void)halo_blkid_find(ctx, d->tag, d->value, &f);
	want_type = d->type ? d->type : f.type;
	if (is_ours(d, &f, &m) && (!want_type || strcmp(m.fstype, want_type) == 0)) {
		r = HALO_SYNC_OK;
		goto out;
	}
	r = halo_item_refuse(item, -EBUSY, "%s (%s) is mounted at %s, not %s: `umount %s`, then "
			   "`systemctl start %s`", m.source, m.fstype, d->where, d->what,
			   d->where, d->unit);
out:
	halo_mount_free(&m);
	halo_blkid_found_free(&f);
	return r;
}

static const struct halo_item_ops mounted_ops = {
	.observe = mounted_observe,
	.free_data = store_free,
};

static int add(struct halo_plan *plan, const struct halo_storage *s, const char *unit,
	       const char *what, const struct halo_item_ops *ops)
{
	_cleanup_free_ char *key = halo_strdup_printf("storage/%s/%s", unit, what);
	struct halo_item *item;
	struct store_data *d;
	int r;

	if (!key)
		return -ENOMEM;
	r = halo_plan_add_new(plan, key, HALO_SUB_STORAGE, HALO_PHASE_CHECK_ONLY, ops,
			      sizeof(*d), &item);
	if (r < 0)
		return r;
	d = item->data;
	d->unit = strdup(unit);
	d->what = strdup(s->what.text);
	d->tag = halo_device_tag_name(s->what.tag);
	d->value = strdup(s->what.value);
	d->what_path = halo_storage_what_path(&s->what);
	d->where = strdup(s->where);
	d->type = s->type ? strdup(s->type) : NULL;
	if (!d->unit || !d->what || !d->value || !d->what_path || !d->where ||
	    (s->type && !d->type))
		return -ENOMEM;
	if (ops == &device_ops)
		return halo_item_set_wanted(item, "%s (%s)", s->what.text,
					    s->type ? s->type : "any type");
	return halo_item_set_wanted(item, "%s (%s) at %s", d->what_path,
				    s->type ? s->type : "any type", s->where);
}

int halo_storage_add_device(struct halo_plan *plan, const struct halo_storage *s,
			    const char *unit)
{
	return add(plan, s, unit, "device", &device_ops);
}

int halo_storage_add_mounted(struct halo_plan *plan, const struct halo_storage *s,
			     const char *unit)
{
	return add(plan, s, unit, "mounted", &mounted_ops);
}
