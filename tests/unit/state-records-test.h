/* SPDX-License-Identifier: GPL-2.0-or-later */
/* state-records-test.h: whether two readings of a state file's records
 * agree, for the unit test and the fuzz target of state-scan.c. */
#pragma once

#include <stdbool.h>
#include <string.h>

#include "engine/owned.h"

static inline bool same_string(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static inline bool same_records(const struct halo_records *a, const struct halo_records *b)
{
	if (a->n != b->n || a->ours != b->ours || !same_string(a->textfile, b->textfile))
		return false;
	for (size_t i = 0; i < a->n; i++) {
		const struct halo_recorded *x = &a->v[i], *y = &b->v[i];

		if (!same_string(x->key, y->key) || !same_string(x->memo, y->memo) ||
		    !same_string(x->path, y->path) || !same_string(x->subsystem, y->subsystem) ||
		    x->owned.n != y->owned.n)
			return false;
		for (size_t j = 0; j < x->owned.n; j++)
			if (strcmp(x->owned.v[j], y->owned.v[j]) != 0)
				return false;
	}
	return true;
}
