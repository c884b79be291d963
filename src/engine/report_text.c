/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report_text.c: the report for people, and the summary line every view
 * shares. */
#include "config.h"

#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "engine/report.h"
#include "util/strv.h"

#define OUTCOME_WIDTH 16 /* "pending-reboot" and two spaces */
/* Lines are kept to the terminal's width, or this one when the report
 * does not go to a terminal, by cutting long values (a whole kernel
 * command line) to no less than VALUE_MIN bytes, unless -v asks for them
 * in full. */
#define LINE_WIDTH 120
#define VALUE_LONG 60
#define VALUE_MAX_START 240
#define VALUE_MIN 40
#define CUT_HINT " (-v: in full)"

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

/* VALUE as shown in a line: at most CAP bytes, cut at a character
 * boundary with "..." (*CUT set); whole when CAP is 0 or the value is no
 * longer than VALUE_LONG (a short value is worth more whole than the
 * columns it would give back). */
static void put_value(struct halo_buf *b, const char *value, size_t cap, bool *cut)
{
	size_t len = strlen(value), n = cap > 3 ? cap - 3 : 0;

	if (!cap || len <= cap || len <= VALUE_LONG) {
		halo_buf_puts(b, value);
		return;
	}
	while (n > 0 && ((unsigned char)value[n] & 0xc0) == 0x80)
		n--;
	halo_buf_printf(b, "%.*s...", (int)n, value);
	*cut = true;
}

/* "wanted (was: X)" after a change, "wanted (observed: X)" where the host
 * differs, the wanted value alone otherwise; then the message and note.
 * The wanted value at most CAP_WANTED bytes, the host's (observed, was) at
 * most CAP_SEEN (0: whole). Caller frees; NULL on ENOMEM. */
static char *value_text(const struct halo_item *item, size_t cap_wanted, size_t cap_seen)
{
	const char *wanted = item->wanted ? item->wanted : "-";
	const char *observed = item->observed ? item->observed : "absent";
	struct halo_buf b = { 0 };
	bool cut = false;

	put_value(&b, wanted, cap_wanted, &cut);
	if (item->changed) {
		halo_buf_puts(&b, " (was: ");
		put_value(&b, item->was ? item->was : "absent", cap_seen, &cut);
		halo_buf_puts(&b, ")");
	} else if (item->outcome != HALO_OUTCOME_OK &&
		   item->outcome != HALO_OUTCOME_UNSUPPORTED &&
		   (!item->wanted || !item->observed ||
		    strcmp(item->wanted, item->observed) != 0)) {
		halo_buf_puts(&b, " (observed: ");
		put_value(&b, observed, cap_seen, &cut);
		halo_buf_puts(&b, ")");
	}
	if (item->message)
		halo_buf_printf(&b, "; %s", item->message);
	if (item->note)
		halo_buf_printf(&b, "; %s", item->note);
	if (cut)
		halo_buf_puts(&b, CUT_HINT);
	return halo_buf_steal(&b);
}

/* An item's text after its outcome and key, which take INDENT columns:
 * one line (the report's contract), kept within WIDTH by cutting the long
 * values, what the host has first (a boot entry's whole command line),
 * then the wanted one, never below VALUE_MIN bytes each; the message and
 * note stay whole (they say what to do), so a long one may still pass
 * WIDTH. -v: every value whole. Caller frees; NULL on ENOMEM. */
static char *item_text(const struct halo_ctx *ctx, const struct halo_item *item,
		       size_t indent, size_t width)
{
	char *text = value_text(item, 0, 0);
	size_t seen = VALUE_MAX_START, wanted = VALUE_MAX_START;

	if (!text || ctx->verbosity > 0)
		return text;
	/* The largest caps that fit, an eighth less at a time. */
	while (indent + strlen(text) > width && wanted > VALUE_MIN) {
		char *shorter = value_text(item, seen > VALUE_MIN ? 0 : wanted, seen);

		if (!shorter)
			break;
		free(text);
		text = shorter;
		if (seen > VALUE_MIN)
			seen = seen - seen / 8 - 1 > VALUE_MIN ? seen - seen / 8 - 1 : VALUE_MIN;
		else
			wanted -= wanted / 8 + 1;
	}
	return text;
}

/* The width lines are kept to: the terminal's, else LINE_WIDTH. */
static size_t line_width(FILE *out)
{
	struct winsize ws;
	int fd = fileno(out);

	if (fd >= 0 && isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		return ws.ws_col;
	return LINE_WIDTH;
}

void halo_report_text(FILE *out, const struct halo_ctx *ctx,
		      const struct halo_plan *plan, int exit_bits)
{
	_cleanup_free_ char *summary = NULL;
	size_t key_width = 0, width = line_width(out);

	for (size_t i = 0; i < plan->n; i++) {
		size_t len = strlen(plan->items[i]->key);

		if (shown(ctx, plan->items[i]) && len > key_width)
			key_width = len;
	}
	for (size_t i = 0; i < plan->n; i++) {
		const struct halo_item *item = plan->items[i];

		if (!shown(ctx, item))
			continue;
		_cleanup_free_ char *text = item_text(ctx, item, OUTCOME_WIDTH + key_width + 2, width);

		fprintf(out, "%-*s%-*s%s\n", OUTCOME_WIDTH, halo_outcome_name(item->outcome),
			(int)key_width + 2, item->key, text ? text : "out of memory");
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
