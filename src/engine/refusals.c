/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * refusals.c: every read the file layer refused is named to the operator,
 * in its one wording ("<PATH>: a FIFO, not a regular file"), whatever the
 * code that asked for the file made of the error (util/rootfs-refused.c).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engine/refusals.h"
#include "util/rootfs.h"

/* Replaces *MSG by a copy of LINE; false on ENOMEM (MSG kept). */
static bool replace(char **msg, const char *line)
{
	char *copy = strdup(line);

	if (!copy)
		return false;
	free(*msg);
	*msg = copy;
	return true;
}

/* Whether ERRS holds LINE. */
static bool has_line(const struct halo_errors *errs, const char *line)
{
	for (size_t i = 0; i < errs->n; i++)
		if (strcmp(errs->msgs[i], line) == 0)
			return true;
	return false;
}

int halo_refusals_name(struct halo_ctx *ctx, struct halo_plan *plan, struct halo_errors *errs,
		       size_t first_new, bool before_change)
{
	const struct halo_refusals *rf = ctx->refusals;
	bool *named;
	int ret = 0;

	if (!rf || rf->n == 0)
		return 0;
	named = calloc(rf->n, sizeof(*named));
	if (!named) {
		errs->oom = true;
		return -1;
	}
	/* Lines that speak of a refused file, or only carry its errno, say
	 * it the one way; a second line about the same file goes. */
	for (size_t i = 0; i < errs->n;) {
		long k = halo_refusals_find(rf, errs->msgs[i]);

		if (k < 0) {
			i++;
			continue;
		}
		if (strstr(errs->msgs[i], rf->lines[k])) {
			named[k] = true; /* in the one wording already */
			i++;
			continue;
		}
		if (named[k]) {
			free(errs->msgs[i]);
			memmove(&errs->msgs[i], &errs->msgs[i + 1], (errs->n - i - 1) * sizeof(char *));
			errs->n--;
			continue;
		}
		(void)replace(&errs->msgs[i], rf->lines[k]);
		named[k] = true;
		i++;
	}
	for (size_t i = 0; i < plan->n; i++) {
		struct halo_item *item = plan->items[i];
		long k = halo_refusals_find(rf, item->message);

		if (k >= 0) {
			if (!strstr(item->message, rf->lines[k]))
				(void)replace(&item->message, rf->lines[k]);
			named[k] = true;
		}
	}
	/* What nobody named was taken for absent, or dropped: before the
	 * first change that stops the run (the host makes the config
	 * impossible, as a symlinked target does); after it, the run fails. */
	for (size_t k = first_new; k < rf->n; k++) {
		if (named[k])
			continue;
		if (before_change) {
			/* Two files read behind the same symlink are
			 * refused in the same words: one line says it. */
			if (!has_line(errs, rf->lines[k]))
				halo_errors_add(errs, "%s", rf->lines[k]);
			ret = -1;
		} else {
			(void)halo_plan_warn(plan, "%s", rf->lines[k]);
			ret = HALO_EXIT_FAILED;
		}
	}
	if (rf->oom)
		errs->oom = true;
	free(named);
	return ret;
}

void halo_refusals_forget(struct halo_refusals *r, const char *path)
{
	for (size_t i = 0; r && i < r->n; i++) {
		if (strcmp(r->paths[i], path) != 0)
			continue;
		free(r->lines[i]);
		free(r->paths[i]);
		memmove(&r->lines[i], &r->lines[i + 1], (r->n - i - 1) * sizeof(*r->lines));
		memmove(&r->paths[i], &r->paths[i + 1], (r->n - i - 1) * sizeof(*r->paths));
		r->n--;
		return;
	}
}
