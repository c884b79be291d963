/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report_status.c: --status for people, a summary of the state file (the
 * whole document stays available with --json). */
#include "config.h"

#include <string.h>
#include <time.h>

#include "engine/report.h"
#include "util/strv.h"

#define OUTCOME_WIDTH 16 /* as the run's text report */

/* "12 items, 10 ok, 1 pending-reboot, 1 failed". Caller frees. */
static char *counts_line(const struct halo_state_summary *s)
{
	struct halo_buf b = { 0 };

	halo_buf_printf(&b, "%zu item%s", s->n_items, s->n_items == 1 ? "" : "s");
	for (enum halo_outcome o = 0; o < HALO_N_OUTCOMES; o++)
		if (s->counts[o])
			halo_buf_printf(&b, ", %zu %s", s->counts[o], halo_outcome_name(o));
	if (s->n_unknown)
		halo_buf_printf(&b, ", %zu of another outcome", s->n_unknown);
	return halo_buf_steal(&b);
}

/* "12 (+4 failed, +8 reboot required)", "0 (in sync)". */
static void print_exit_bits(FILE *out, int bits)
{
	static const struct {
		int bit;
		const char *what;
	} names[] = {
		{ HALO_EXIT_CHANGED, "changed" },
		{ HALO_EXIT_FAILED, "failed" },
		{ HALO_EXIT_REBOOT, "reboot required" },
	};
	const char *sep = " (";

	fprintf(out, "%-*s%d", OUTCOME_WIDTH, "exit bits", bits);
	if (bits == 0)
		fputs(" (in sync)", out);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (bits & names[i].bit) {
			fprintf(out, "%s+%d %s", sep, names[i].bit, names[i].what);
			sep = ", ";
		}
	fputs(bits & (HALO_EXIT_CHANGED | HALO_EXIT_FAILED | HALO_EXIT_REBOOT) ? ")\n" : "\n",
	      out);
}

void halo_report_status_text(FILE *out, const struct halo_state_summary *s, int verbosity)
{
	_cleanup_free_ char *counts = counts_line(s);
	char when[64] = "unknown";
	struct tm tm;

	if (verbosity < 0) {
		fprintf(out, "%s: %s%s\n", s->reverted ? "revert" : "apply",
			counts ? counts : "out of memory",
			s->reboot_required ? "; reboot required" : "");
		return;
	}
	if (s->mtime > 0 && gmtime_r(&s->mtime, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fprintf(out, "%-*s%s\n", OUTCOME_WIDTH, "state file", s->path);
	if (s->reverted)
		fprintf(out, "%-*srevert of %s (--only), recorded %s\n", OUTCOME_WIDTH, "mode",
			s->reverted, when);
	else
		fprintf(out, "%-*sapply, recorded %s (rewritten only when the host's state changes)\n",
			OUTCOME_WIDTH, "mode", when);
	fprintf(out, "%-*s%s %s, kernel %s\n", OUTCOME_WIDTH, "tool", PACKAGE_NAME,
		s->version ? s->version : "?", s->kernel_release ? s->kernel_release : "?");
	if (s->config_path)
		fprintf(out, "%-*s%s%s%.12s%s\n", OUTCOME_WIDTH, "config", s->config_path,
			s->config_digest ? " (digest " : "",
			s->config_digest ? s->config_digest : "", s->config_digest ? ")" : "");
	fprintf(out, "%-*s%s\n", OUTCOME_WIDTH, "items", counts ? counts : "out of memory");
	print_exit_bits(out, s->exit_bits);
	fprintf(out, "%-*s%s\n", OUTCOME_WIDTH, "reboot",
		s->reboot_required ? "pending: the host matches the config after a reboot" : "none pending");
	for (size_t i = 0; s->listed && s->listed[i]; i++) {
		const char *sp = strchr(s->listed[i], ' ');

		fprintf(out, "%-*.*s%s\n", OUTCOME_WIDTH, sp ? (int)(sp - s->listed[i]) : 0,
			s->listed[i], sp ? sp + 1 : s->listed[i]);
	}
}

int halo_report_status(FILE *out, struct halo_ctx *ctx, const struct halo_config *cfg,
		       struct halo_errors *errs)
{
	struct halo_state_summary sum;
	_cleanup_free_ char *text = NULL;
	size_t len;
	int r;

	if (ctx->json) {
		r = halo_state_read_json(ctx, cfg, &text, &len, errs);
		if (r == 0)
			fwrite(text, 1, len, out);
		return r;
	}
	r = halo_state_summarize(ctx, cfg, &sum, errs);
	if (r < 0)
		return r;
	halo_report_status_text(out, &sum, ctx->verbosity);
	halo_state_summary_free(&sum);
	return 0;
}
