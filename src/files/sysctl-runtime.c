/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysctl-runtime.c: sysctl/<name>, the running value of one key, read from
 * and written to the root's /proc/sys (the fixture tree under --root; in a
 * --netns run the namespace's own /proc/sys/net, since the run entered it
 * before opening anything). Values compare as words: the kernel prints
 * "4096\t87380\t6291456" for what sysctl.d says as "4096 87380 6291456".
 * An apply reads the value back: some keys clamp or ignore a write without
 * an error.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "files/sysctl-runtime.h"
#include "util/rootfs.h"
#include "util/strv.h"

struct runtime_data {
	char *path;  /* /proc/sys/... */
	char *value; /* normalized */
	bool may_appear; /* the modules phase may still bring the key */
};

static void runtime_data_free(void *p)
{
	struct runtime_data *d = p;

	if (!d)
		return;
	free(d->path);
	free(d->value);
	free(d);
}

/* The normalized value at D->path, -errno. */
static int read_value(struct halo_ctx *ctx, const struct runtime_data *d, char **ret)
{
	_cleanup_free_ char *raw = NULL;
	size_t len;
	int r = halo_read_file(ctx, d->path, &raw, &len);

	if (r < 0)
		return r;
	*ret = halo_sysctl_value_normalize(raw);
	return *ret ? 0 : -ENOMEM;
}

static int runtime_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	struct runtime_data *d = item->data;
	_cleanup_free_ char *raw = NULL, *v = NULL, *refused = NULL;
	size_t len;
	/* Read and judged on one descriptor: one walk of the path. */
	int r = halo_root_read_attr(ctx, d->path, &raw, &len);

	/* A fixture key reached through a symlink or hard-linked elsewhere
	 * would be rewritten in place: the host makes the config impossible,
	 * as for a symlinked file item. */
	refused = halo_root_attr_refusal(ctx, d->path, r);
	if (refused)
		return halo_item_set_message(item, "%s", refused) < 0 ? -ENOMEM : HALO_SYNC_INVALID;
	if (r == 0 && !(v = halo_sysctl_value_normalize(raw)))
		r = -ENOMEM;
	if (r == -ENOENT && d->may_appear) {
		(void)halo_item_set_observed(item, NULL);
		(void)halo_item_set_message(item, "no %s yet (a module the modules phase loads may "
					    "bring it)", d->path);
		return HALO_SYNC_DIFFERS;
	}
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return halo_item_fail(item, r, "reading %s", d->path);
	r = halo_item_set_observed(item, "%s", v);
	if (r < 0)
		return r;
	return strcmp(v, d->value) == 0 ? HALO_SYNC_OK : HALO_SYNC_DIFFERS;
}

static int runtime_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	struct runtime_data *d = item->data;
	_cleanup_free_ char *line = halo_strdup_printf("%s\n", d->value), *v = NULL;
	_cleanup_free_ char *refused = NULL;
	int r;

	if (!line)
		return -ENOMEM;
	r = halo_root_write_attr(ctx, d->path, line, strlen(line));
	refused = halo_root_attr_refusal(ctx, d->path, r);
	if (refused)
		return halo_item_refuse(item, r, "%s", refused);
	if (r == -ENOENT)
		return halo_item_fail(item, r, "no %s: this kernel has no such key", d->path);
	if (r < 0)
		return halo_item_fail(item, r, "writing \"%s\" to %s", d->value, d->path);
	r = read_value(ctx, d, &v);
	if (r < 0)
		return halo_item_fail(item, r, "reading %s back", d->path);
	if (strcmp(v, d->value) != 0)
		return halo_item_fail(item, -EIO, "the kernel kept \"%s\" after \"%s\" was written "
				      "to %s", v, d->value, d->path);
	return 0;
}

static const struct halo_item_ops runtime_ops = {
	.observe = runtime_observe,
	.apply = runtime_apply,
	.free_data = runtime_data_free,
};

int halo_sysctl_runtime_add(struct halo_plan *plan, const struct halo_sysctl *s,
			    const char *path, bool may_appear, struct halo_item **ret_item)
{
	_cleanup_free_ char *key = halo_strdup_printf("sysctl/%s", s->name);
	struct runtime_data *d;
	struct halo_item *item;
	int r;

	if (!key)
		return -ENOMEM;
	r = halo_plan_add_new(plan, key, HALO_SUB_FILES, HALO_PHASE_FILES, &runtime_ops,
			      sizeof(*d), &item);
	if (r < 0)
		return r;
	d = item->data;
	d->path = strdup(path);
	d->value = strdup(s->value);
	d->may_appear = may_appear;
	if (!d->path || !d->value)
		return -ENOMEM;
	if (ret_item)
		*ret_item = item;
	return halo_item_set_wanted(item, "%s", s->value);
}
