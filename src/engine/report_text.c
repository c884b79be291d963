/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report_text.c: the report for people, and the summary line every view
 * shares. */
#include "config.h"

#include <string.h>

#include "engine/report.h"
#include "util/strv.h"

#define OUTCOME_WIDTH 16 /* "pending-reboot" and two spaces */

static const char *const mode_names[] = {
	[HALO_MODE_APPLY] = "apply",
	[HALO_MODE_CHECK] = "check",
	[HALO_MODE_DRY_RUN] = "dry-run",
	[HALO_MODE_VALIDATE] = "validate",
	[HALO_MODE_STATUS] = "status",
};

const char *halo_mode_name(enum halo_mode mode)
{
	if ((unsigned)mode < ARRAY_SIZE(mode_names))
		return mode_names[mode];
	return "unknown";
}

char *halo_report_summary(const struct halo_ctx *ctx,
			  const struct halo_plan *plan, int exit_bits)
{
	struct halo_buf b = { 0 };

	/* "apply: revert, ...": the JSON msg keeps its "<mode>: " prefix. */
	halo_buf_printf(&b, "%s: %s%zu item%s", halo_mode_name(ctx->mode),
			ctx->revert ? "revert, " : "", plan->n,
			plan->n == 1 ? "" : "s");
	for (enum halo_outcome o = 0; o < HALO_N_OUTCOMES; o++) {
		size_t n = halo_plan_count(plan, o);

		if (n)
			halo_buf_printf(&b, ", %zu %s", n, halo_outcome_name(o));
	}
	if (exit_bits & HALO_EXIT_REBOOT)
		halo_buf_puts(&b, ctx->mode == HALO_MODE_DRY_RUN ?
				  "; reboot would be required" : "; reboot required");
	return halo_buf_steal(&b);
}

static bool shown(const struct halo_ctx *ctx, const struct halo_item *item)
{
	/* A revert lists everything it removes, restores and leaves. */
	if (ctx->verbosity > 0 || (ctx->revert && ctx->verbosity == 0))
		return true;
	if (ctx->verbosity < 0)
		return item->outcome == HALO_OUTCOME_FAILED;
	return item->outcome != HALO_OUTCOME_OK;
}

/* "wanted (was: X)" after a change, "wanted (observed: X)" where the host
 * differs, the wanted value alone otherwise. */
static void print_value(FILE *out, const struct halo_item *item)
{
	const char *wanted = item->wanted ? item->wanted : "-";
	const char *observed = item->observed ? item->observed : "absent";

	fputs(wanted, out);
	if (item->changed)
		fprintf(out, " (was: %s)", item->was ? item->was : "absent");
	else if (item->outcome != HALO_OUTCOME_OK &&
		 item->outcome != HALO_OUTCOME_UNSUPPORTED &&
		 (!item->wanted || !item->observed ||
		  strcmp(item->wanted, item->observed) != 0))
		fprintf(out, " (observed: %s)", observed);
	if (item->message)
		fprintf(out, "; %s", item->message);
	if (item->note)
		fprintf(out, "; %s", item->note);
	fputc('\n', out);
}

void halo_report_text(FILE *out, const struct halo_ctx *ctx,
		      const struct halo_plan *plan, int exit_bits)
{
	_cleanup_free_ char *summary = NULL;
	size_t key_width = 0;

	for (size_t i = 0; i < plan->n; i++) {
		size_t len = strlen(plan->items[i]->key);

		if (shown(ctx, plan->items[i]) && len > key_width)
			key_width = len;
	}
	for (size_t i = 0; i < plan->n; i++) {
		const struct halo_item *item = plan->items[i];

		if (!shown(ctx, item))
			continue;
		fprintf(out, "%-*s%-*s", OUTCOME_WIDTH, halo_outcome_name(item->outcome),
			(int)key_width + 2, item->key);
		print_value(out, item);
	}
	if (ctx->verbosity >= 0) {
		for (size_t i = 0; i < plan->n_warnings; i++)
			fprintf(out, "warning: %s\n", plan->warnings[i]);
		for (size_t i = 0; ctx->diff && i < plan->n; i++) {
			const struct halo_item *item = plan->items[i];

			if (item->diff && item->diff[0] &&
			    item->outcome != HALO_OUTCOME_OK)
				fputs(item->diff, out);
		}
	}
	summary = halo_report_summary(ctx, plan, exit_bits);
	fprintf(out, "%s\n", summary ? summary : "out of memory");
}
