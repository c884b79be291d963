/* SPDX-License-Identifier: GPL-2.0-or-later */
/* owned.c: ownership records (owned.h) and the plan's access to them. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/owned.h"
#include "engine/plan.h"

bool halo_owned_has(const struct halo_owned *o, const char *entry)
{
	for (size_t i = 0; i < o->n; i++)
		if (strcmp(o->v[i], entry) == 0)
			return true;
	return false;
}

int halo_owned_add(struct halo_owned *o, const char *entry)
{
	size_t len = strlen(entry);

	if (len >= HALO_OWNED_LEN)
		return -ENAMETOOLONG;
	if (halo_owned_has(o, entry))
		return 0;
	if (o->n >= HALO_OWNED_MAX)
		return -ENOSPC;
	memcpy(o->v[o->n++], entry, len + 1);
	return 0;
}

void halo_owned_remove(struct halo_owned *o, const char *entry)
{
	for (size_t i = 0; i < o->n; i++)
		if (strcmp(o->v[i], entry) == 0) {
			memmove(o->v[i], o->v[i + 1], (o->n - i - 1) * sizeof(o->v[0]));
			o->n--;
			return;
		}
}

void halo_records_free(struct halo_records *records)
{
	for (size_t i = 0; i < records->n; i++) {
		free(records->v[i].key);
		free(records->v[i].memo);
		free(records->v[i].path);
		free(records->v[i].subsystem);
	}
	free(records->v);
	free(records->textfile);
	*records = (struct halo_records){ 0 };
}

/* The record of KEY, made on first use; NULL on ENOMEM. */
static struct halo_recorded *record_of(struct halo_records *records, const char *key)
{
	struct halo_recorded *v;
	size_t i;

	for (i = 0; i < records->n; i++)
		if (strcmp(records->v[i].key, key) == 0)
			return &records->v[i];
	v = realloc(records->v, (records->n + 1) * sizeof(*v));
	if (!v)
		return NULL;
	records->v = v;
	v[i] = (struct halo_recorded){ .key = strdup(key) };
	if (!v[i].key)
		return NULL;
	records->n++;
	return &v[i];
}

int halo_records_add(struct halo_records *records, const char *key, const char *entry)
{
	struct halo_recorded *r = record_of(records, key);

	return r ? halo_owned_add(&r->owned, entry) : -ENOMEM;
}

int halo_records_set_memo(struct halo_records *records, const char *key, const char *memo)
{
	struct halo_recorded *r = record_of(records, key);
	char *copy = strdup(memo);

	if (!r || !copy) {
		free(copy);
		return -ENOMEM;
	}
	free(r->memo);
	r->memo = copy;
	return 0;
}

int halo_records_set_file(struct halo_records *records, const char *key, const char *path,
			  const char *subsystem)
{
	struct halo_recorded *r = record_of(records, key);
	char *p = strdup(path), *s = strdup(subsystem);

	if (!r || !p || !s) {
		free(p);
		free(s);
		return -ENOMEM;
	}
	free(r->path);
	free(r->subsystem);
	r->path = p;
	r->subsystem = s;
	return 0;
}

int halo_plan_recorded(const struct halo_plan *plan, const char *const *keys,
		       struct halo_owned *ret)
{
	memset(ret, 0, sizeof(*ret));
	for (size_t k = 0; plan->records && keys[k]; k++)
		for (size_t i = 0; i < plan->records->n; i++) {
			const struct halo_owned *o = &plan->records->v[i].owned;

			if (strcmp(plan->records->v[i].key, keys[k]) != 0)
				continue;
			for (size_t j = 0; j < o->n; j++)
				if (halo_owned_add(ret, o->v[j]) < 0)
					return -ENOSPC;
		}
	return 0;
}

const char *halo_plan_recorded_memo(const struct halo_plan *plan, const char *key)
{
	for (size_t i = 0; plan->records && i < plan->records->n; i++)
		if (strcmp(plan->records->v[i].key, key) == 0)
			return plan->records->v[i].memo;
	return NULL;
}

int halo_item_keep_owned(struct halo_item *item, const struct halo_owned *owned)
{
	if (!item->owned) {
		item->owned = malloc(sizeof(*item->owned));
		if (!item->owned)
			return -ENOMEM;
	}
	*item->owned = *owned;
	return 0;
}
