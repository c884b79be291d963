/* SPDX-License-Identifier: GPL-2.0-or-later */
/* item.c: setters and names for the item model. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine/item.h"
#include "util/rootfs.h"
#include "util/strv.h"

static const char *const outcome_names[] = {
	[HALO_OUTCOME_OK] = "ok",
	[HALO_OUTCOME_CHANGED] = "changed",
	[HALO_OUTCOME_DRIFT] = "drift",
	[HALO_OUTCOME_PENDING_REBOOT] = "pending-reboot",
	[HALO_OUTCOME_UNSUPPORTED] = "unsupported",
	[HALO_OUTCOME_FAILED] = "failed",
};

/* Replaces *FIELD with the formatted string; NULL FMT clears it. */
_printf_(2, 0) static int set_field(char **field, const char *fmt, va_list ap)
{
	char *s = NULL;

	if (fmt && !(s = halo_strdup_vprintf(fmt, ap)))
		return -ENOMEM;
	free(*field);
	*field = s;
	return 0;
}

int halo_item_set_wanted(struct halo_item *item, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = set_field(&item->wanted, fmt, ap);
	va_end(ap);
	return r;
}

int halo_item_set_observed(struct halo_item *item, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = set_field(&item->observed, fmt, ap);
	va_end(ap);
	return r;
}

int halo_item_set_message(struct halo_item *item, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = set_field(&item->message, fmt, ap);
	va_end(ap);
	return r;
}

int halo_item_set_note(struct halo_item *item, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = set_field(&item->note, fmt, ap);
	va_end(ap);
	return r;
}

_printf_(4, 0) static int fail(struct halo_item *item, int err, const char *why,
				const char *fmt, va_list ap)
{
	_cleanup_free_ char *what = NULL;

	if (vasprintf(&what, fmt, ap) < 0)
		what = NULL;
	/* Most failures here are reads of a file of the root: one that is
	 * a FIFO or device says so (halo_root_strerror), not "File
	 * descriptor in bad state". */
	if (!why)
		why = halo_root_strerror(err);
	if (!what)
		(void)halo_item_set_message(item, "%s", why);
	else
		(void)halo_item_set_message(item, "%s: %s", what, why);
	return err;
}

int halo_item_fail(struct halo_item *item, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err = fail(item, err, NULL, fmt, ap);
	va_end(ap);
	return err;
}

int halo_item_fail_why(struct halo_item *item, int err, const char *why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err = fail(item, err, why, fmt, ap);
	va_end(ap);
	return err;
}

int halo_item_refuse(struct halo_item *item, int err, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = set_field(&item->message, fmt, ap);
	va_end(ap);
	return r < 0 ? r : err;
}

const char *halo_outcome_name(enum halo_outcome o)
{
	if ((unsigned)o < ARRAY_SIZE(outcome_names))
		return outcome_names[o];
	return "unknown";
}

void halo_item_free(struct halo_item *item)
{
	if (!item)
		return;
	if (item->ops && item->ops->free_data && item->data)
		item->ops->free_data(item->data);
	else
		free(item->data);
	/* halo_plan_add puts the key right after the item. */
	if (item->key != (char *)(item + 1))
		free(item->key);
	free(item->path);
	free(item->creates);
	free(item->owned);
	free(item->memo);
	free(item->wanted);
	free(item->observed);
	free(item->message);
	free(item->note);
	free(item->diff);
	free(item->was);
	free(item);
}
