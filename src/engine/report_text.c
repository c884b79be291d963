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
 * does not go to a terminal: keys are aligned on a column no wider than
 * KEY_WIDTH_MAX (a longer key pushes its own line only), and what does
 * not fit is cut (item_text) unless -v asks for everything in full. */
#define LINE_WIDTH 120
#define KEY_WIDTH_MAX 28
#define VALUE_LONG 60
#define VALUE_MAX_START 240
#define VALUE_MIN 40
#define TAIL_MIN 24
#define WORD_BACK 16 /* a message is cut at a blank this close to its cap */
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

/* TEXT, at most CAP bytes (0: whole), cut at a character boundary with
 * "..." (*CUT set); WORDS: at a blank when one is near the end. */
static void put_cut(struct halo_buf *b, const char *text, size_t cap, bool words, bool *cut)
{
	size_t len = strlen(text), n = cap > 3 ? cap - 3 : 0;

	if (!cap || len <= cap) {
		halo_buf_puts(b, text);
		return;
	}
	while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
		n--;
	for (size_t i = n; words && i > 0 && n - i < WORD_BACK; i--)
		if (text[i] == ' ') {
			n = i;
			break;
		}
	halo_buf_printf(b, "%.*s...", (int)n, text);
	*cut = true;
}

/* VALUE as shown in a line: as put_cut, but whole when no longer than
 * VALUE_LONG (a short value is worth more whole than the columns it
 * would give back). */
static void put_value(struct halo_buf *b, const char *value, size_t cap, bool *cut)
{
	put_cut(b, value, strlen(value) <= VALUE_LONG ? 0 : cap, false, cut);
}

/* How much of each part of an item's text is shown (0: whole). */
struct caps {
	size_t wanted, seen, tail;
	bool no_seen; /* the host's value left to -v, when long */
	bool no_tail; /* the message and note left to -v */
};

/* " (LABEL: VALUE)", VALUE cut to CAPS.seen; left out when CAPS.no_seen
 * and it is longer than VALUE_MIN (a short one is kept: it costs few
 * columns and says most). */
static void put_seen(struct halo_buf *b, const char *label, const char *value,
		     struct caps caps, bool *cut)
{
	if (caps.no_seen && strlen(value) > VALUE_MIN) {
		*cut = true;
		return;
	}
	halo_buf_printf(b, " (%s: ", label);
	put_value(b, value, caps.seen, cut);
	halo_buf_puts(b, ")");
}

/* "wanted (was: X)" after a change, "wanted (observed: X)" where the host
 * differs, the wanted value alone otherwise; then the message and note
 * (the tail). Caller frees; NULL on ENOMEM. */
static char *value_text(const struct halo_item *item, struct caps caps)
{
	const char *wanted = item->wanted ? item->wanted : "-";
	const char *observed = item->observed ? item->observed : "absent";
	struct halo_buf b = { 0 }, tail = { 0 };
	bool cut = false;

	if (item->wanted_command)
		put_cut(&b, wanted, caps.wanted, true, &cut);
	else
		put_value(&b, wanted, caps.wanted, &cut);
	if (item->changed)
		put_seen(&b, "was", item->was ? item->was : "absent", caps, &cut);
	else if (item->outcome != HALO_OUTCOME_OK &&
		 item->outcome != HALO_OUTCOME_UNSUPPORTED &&
		 (!item->wanted || !item->observed ||
		  strcmp(item->wanted, item->observed) != 0))
		put_seen(&b, "observed", observed, caps, &cut);
	if (item->message)
		halo_buf_printf(&tail, "; %s", item->message);
	if (item->note)
		halo_buf_printf(&tail, "; %s", item->note);
	if (tail.len) {
		if (caps.no_tail)
			cut = true;
		else
			put_cut(&b, tail.data, caps.tail, true, &cut);
		free(halo_buf_steal(&tail));
	}
	if (cut)
		halo_buf_puts(&b, CUT_HINT);
	return halo_buf_steal(&b);
}

/* Cuts *CAP further: first to START (from 0, whole), then an eighth at a
 * time, not below FLOOR. False when it is at FLOOR already. */
static bool cut_more(size_t *cap, size_t start, size_t floor)
{
	size_t next = *cap ? *cap - *cap / 8 - 1 : start;

	if (*cap && *cap <= floor)
		return false;
	*cap = next > floor ? next : floor;
	return true;
}

/* Leaves the host's value to -v, once, for an item that did not fail. */
static bool leave_seen(struct caps *caps, bool failed)
{
	if (caps->no_seen || failed)
		return false;
	caps->no_seen = true;
	return true;
}

/* Leaves the message and note to -v, once, when cutting them to their
 * floor was not enough (a long key leaves little room), for an item that
 * did not fail; item_text takes it only when the line then fits. */
static bool leave_tail(struct caps *caps, bool has_tail, bool failed)
{
	if (caps->no_tail || !has_tail || failed)
		return false;
	caps->no_tail = true;
	return true;
}

/* An item's text after its outcome and key, which take INDENT columns:
 * one line (the report's contract), kept within WIDTH by cutting what the
 * host has (a boot entry's whole command line), then leaving it to -v,
 * then cutting the wanted value (a command to paste at a blank, -v
 * giving it whole), then the
 * message and note (at a blank), each no further than its floor: the
 * start of a message says what it is about. Where a long key leaves too
 * little room even then, the message and note are left to -v if the line
 * then fits; if it would not, they stay (at their floor): a line that
 * wraps anyway is better whole. A failed item's host value is
 * cut, never left out, and its message stays whole: they explain the
 * failure. -v: everything whole.
 * Caller frees; NULL on ENOMEM. */
static char *item_text(const struct halo_ctx *ctx, const struct halo_item *item,
		       size_t indent, size_t width)
{
	size_t tail = (item->message ? strlen(item->message) + 2 : 0) +
		      (item->note ? strlen(item->note) + 2 : 0);
	bool failed = item->outcome == HALO_OUTCOME_FAILED;
	struct caps caps = { 0 };
	char *text = value_text(item, caps);

	if (!text || ctx->verbosity > 0)
		return text;
	while (indent + strlen(text) > width) {
		bool last = false;
		char *shorter;

		if (!cut_more(&caps.seen, VALUE_MAX_START, VALUE_MIN) &&
		    !leave_seen(&caps, failed) &&
		    !cut_more(&caps.wanted, VALUE_MAX_START, VALUE_MIN) &&
		    (!tail || failed || !cut_more(&caps.tail, tail, TAIL_MIN))) {
			if (!leave_tail(&caps, tail > 0, failed))
				break;
			last = true;
		}
		shorter = value_text(item, caps);
		if (!shorter)
			break;
		/* A line that runs past the width anyway keeps its note. */
		if (last && indent + strlen(shorter) > width) {
			free(shorter);
			break;
		}
		free(text);
		text = shorter;
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
			key_width = len < KEY_WIDTH_MAX ? len : KEY_WIDTH_MAX;
	}
	for (size_t i = 0; i < plan->n; i++) {
		const struct halo_item *item = plan->items[i];
		size_t key_len = strlen(item->key);

		if (!shown(ctx, item))
			continue;
		if (key_len < key_width)
			key_len = key_width;
		_cleanup_free_ char *text = item_text(ctx, item, OUTCOME_WIDTH + key_len + 2, width);

		fprintf(out, "%-*s%-*s  %s\n", OUTCOME_WIDTH, halo_outcome_name(item->outcome),
			(int)key_len, item->key, text ? text : "out of memory");
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
