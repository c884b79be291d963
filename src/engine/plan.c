/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan.c: the ordered item list of one run, and its warnings. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine/plan.h"
#include "util/strv.h"

void halo_plan_init(struct halo_plan *plan)
{
	*plan = (struct halo_plan){ 0 };
}

void halo_plan_free(struct halo_plan *plan)
{
	for (size_t i = 0; i < plan->n; i++)
		halo_item_free(plan->items[i]);
	free(plan->items);
	free(plan->applied);
	for (size_t i = 0; i < plan->n_warnings; i++)
		free(plan->warnings[i]);
	free(plan->warnings);
	for (size_t i = 0; i < plan->n_held; i++)
		free(plan->held[i].path);
	free(plan->held);
	halo_plan_init(plan);
}

void halo_plan_truncate(struct halo_plan *plan, size_t n_items, size_t n_warnings)
{
	while (plan->n > n_items)
		halo_item_free(plan->items[--plan->n]);
	while (plan->n_warnings > n_warnings) {
		free(plan->warnings[--plan->n_warnings]);
		plan->warnings[plan->n_warnings] = NULL;
	}
	while (plan->n_held > 0 && plan->held[plan->n_held - 1].warning >= n_warnings)
		free(plan->held[--plan->n_held].path);
}

/* FNV-1a. The keys of a plan share their first bytes ("roce/e810/"):
 * comparing hashes first spares a strcmp per item of every lookup, and
 * every add looks its key up. */
static uint32_t key_hash(const char *key)
{
	uint32_t h = 2166136261u;

	for (; *key; key++)
		h = (h ^ (unsigned char)*key) * 16777619u;
	return h;
}

static struct halo_item *find_hashed(const struct halo_plan *plan, const char *key,
				     uint32_t h)
{
	for (size_t i = 0; i < plan->n; i++)
		if (plan->items[i]->key_hash == h && strcmp(plan->items[i]->key, key) == 0)
			return plan->items[i];
	return NULL;
}

struct halo_item *halo_plan_find(const struct halo_plan *plan, const char *key)
{
	return find_hashed(plan, key, key_hash(key));
}

int halo_plan_add(struct halo_plan *plan, const char *key,
		  enum halo_subsys subsys, enum halo_phase phase,
		  const struct halo_item_ops *ops, void *data,
		  struct halo_item **ret_item)
{
	size_t key_size = strlen(key) + 1;
	struct halo_item *item;

	/* The item owns DATA from the start, so every failure frees it. Its
	 * key lives in the same allocation, right after it. */
	item = calloc(1, sizeof(*item) + key_size);
	if (!item) {
		if (ops && ops->free_data && data)
			ops->free_data(data);
		else
			free(data);
		return -ENOMEM;
	}
	item->ops = ops;
	item->data = data;
	item->subsys = subsys;
	item->phase = phase;
	item->key = memcpy(item + 1, key, key_size);
	item->key_hash = key_hash(key);
	if (find_hashed(plan, key, item->key_hash)) {
		halo_item_free(item);
		return -EEXIST;
	}
	if (plan->n == plan->cap) {
		size_t cap = plan->cap ? plan->cap * 2 : 16;
		struct halo_item **v = realloc(plan->items, cap * sizeof(*v));

		if (!v) {
			halo_item_free(item);
			return -ENOMEM;
		}
		plan->items = v;
		plan->cap = cap;
	}
	plan->items[plan->n++] = item;
	if (ret_item)
		*ret_item = item;
	return 0;
}

int halo_plan_add_new(struct halo_plan *plan, const char *key,
		      enum halo_subsys subsys, enum halo_phase phase,
		      const struct halo_item_ops *ops, size_t data_size,
		      struct halo_item **ret_item)
{
	/* calloc(1, 0) may return NULL: one byte keeps ENOMEM unambiguous. */
	void *data = calloc(1, data_size ? data_size : 1);

	*ret_item = NULL;
	if (!data)
		return -ENOMEM;
	return halo_plan_add(plan, key, subsys, phase, ops, data, ret_item);
}

int halo_plan_add_for_file(struct halo_plan *plan, const char *path,
			   enum halo_subsys subsys, enum halo_phase phase,
			   const struct halo_item_ops *ops, size_t data_size,
			   struct halo_item **ret_item)
{
	size_t size = strlen("file") + strlen(path) + 1;
	char small[256], *key = small;
	int r;

	*ret_item = NULL;
	if (path[0] != '/')
		return -EINVAL;
	/* The key is copied into the item: a long path's goes to the heap. */
	if (size > sizeof(small) && !(key = malloc(size)))
		return -ENOMEM;
	halo_strjoin(key, size, "file", path, NULL);
	r = halo_plan_add_new(plan, key, subsys, phase, ops, data_size, ret_item);
	if (key != small)
		free(key);
	if (r < 0)
		return r;
	(*ret_item)->path = strdup(path);
	return (*ret_item)->path ? 0 : -ENOMEM;
}

size_t halo_plan_count(const struct halo_plan *plan, enum halo_outcome o)
{
	size_t n = 0;

	for (size_t i = 0; i < plan->n; i++)
		n += plan->items[i]->outcome == o;
	return n;
}

/* Appends the warning FMT, AP. 0 or -ENOMEM. */
static int add_warning(struct halo_plan *plan, const char *fmt, va_list ap)
{
	char *msg, **v;

	if (vasprintf(&msg, fmt, ap) < 0)
		return -ENOMEM;
	v = realloc(plan->warnings, (plan->n_warnings + 2) * sizeof(*v));
	if (!v) {
		free(msg);
		return -ENOMEM;
	}
	v[plan->n_warnings++] = msg;
	v[plan->n_warnings] = NULL;
	plan->warnings = v;
	return 0;
}

int halo_plan_warn(struct halo_plan *plan, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = add_warning(plan, fmt, ap);
	va_end(ap);
	return r;
}

int halo_plan_warn_held(struct halo_plan *plan, const char *path, const char *fmt, ...)
{
	struct halo_plan_held *v;
	char *copy = strdup(path);
	va_list ap;
	int r;

	if (!copy)
		return -ENOMEM;
	va_start(ap, fmt);
	r = add_warning(plan, fmt, ap);
	va_end(ap);
	v = r < 0 ? NULL : realloc(plan->held, (plan->n_held + 1) * sizeof(*v));
	if (!v) {
		free(copy);
		return -ENOMEM;
	}
	v[plan->n_held++] = (struct halo_plan_held){ .path = copy, .warning = plan->n_warnings - 1 };
	plan->held = v;
	return 0;
}

bool halo_plan_holds(const struct halo_plan *plan, const char *path)
{
	for (size_t i = 0; i < plan->n_held; i++)
		if (strcmp(plan->held[i].path, path) == 0)
			return true;
	return false;
}
