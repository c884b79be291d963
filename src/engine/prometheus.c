/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prometheus.c: the node_exporter textfile. Written atomically because the
 * collector may read it at any moment; it carries the run time, so unlike
 * the state file it changes on every run.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "engine/report.h"
#include "engine/state.h"
#include "engine/subsystem.h"
#include "util/rootfs.h"
#include "util/strv.h"

/* Every metric halo_prometheus_render writes (and every version wrote). */
static const char *const our_metrics[] = {
	"halo_item_in_sync", "halo_item_drift", "halo_items", "halo_warnings",
	"halo_last_run_timestamp_seconds", "halo_last_run_info", "halo_exit_code",
	"halo_build_info",
};

/* Whether the N bytes at NAME are one of our_metrics. */
static bool our_metric(const char *name, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(our_metrics); i++)
		if (strlen(our_metrics[i]) == n && memcmp(our_metrics[i], name, n) == 0)
			return true;
	return false;
}

/* The metric name a textfile line LINE (N bytes, no newline) is about:
 * a sample's name, or the name after "# HELP " or "# TYPE ". NULL for
 * any other comment. */
static const char *line_metric(const char *line, size_t n, size_t *ret_len)
{
	const char *end = line + n, *p = line;

	if (n > 0 && line[0] == '#') {
		if (n < 7 || (memcmp(line, "# HELP ", 7) != 0 && memcmp(line, "# TYPE ", 7) != 0))
			return NULL;
		p = line + 7;
	}
	for (*ret_len = 0; p + *ret_len < end && !strchr("{ \t", p[*ret_len]); (*ret_len)++)
		;
	return p;
}

bool halo_prometheus_is_ours(const char *text, size_t len, char *foreign, size_t size)
{
	const char *p = text, *end = text + len;
	bool any = false;

	if (size)
		foreign[0] = '\0';
	/* A NUL is no text this tool wrote. */
	if (memchr(text, '\0', len))
		return false;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p), name_len = 0;
		const char *name = line_metric(p, n, &name_len);

		if (!name || !our_metric(name, name_len)) {
			if (!name) {
				name = p;
				name_len = n;
			}
			if (size)
				snprintf(foreign, size, "%.*s", (int)(name_len < size ? name_len : size - 1),
					 name);
			return false;
		}
		any = true;
		p = nl ? nl + 1 : end;
	}
	return any;
}

/* Label values escape backslash, double quote and newline. */
static void put_label(struct halo_buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			halo_buf_puts(b, "\\\\");
		else if (*s == '"')
			halo_buf_puts(b, "\\\"");
		else if (*s == '\n')
			halo_buf_puts(b, "\\n");
		else
			halo_buf_append(b, s, 1);
	}
}

/* Reported, not failed: an unsupported knob the config does not require
 * is as in sync as the hardware allows (halo-provision(8), OUTPUT). */
static bool item_in_sync(const struct halo_item *item)
{
	switch (item->outcome) {
	case HALO_OUTCOME_OK:
	case HALO_OUTCOME_CHANGED:
		return true;
	case HALO_OUTCOME_UNSUPPORTED:
		return !item->required;
	default:
		return false;
	}
}

/* The textfile for PLAN at time NOW; caller frees (NULL on ENOMEM). The
 * mode is a label of halo_last_run_info only: per-item series keep the
 * same labels whether apply or check wrote them, so alerts do not churn. */
char *halo_prometheus_render(const struct halo_ctx *ctx,
			     const struct halo_plan *plan, int exit_bits,
			     double now)
{
	struct halo_buf b = { 0 };

	halo_buf_puts(&b,
		"# HELP halo_item_in_sync 1 if the item matched the config after the last run (an unsupported knob that is not required counts as in sync).\n"
		"# TYPE halo_item_in_sync gauge\n");
	for (size_t i = 0; i < plan->n; i++) {
		const struct halo_item *item = plan->items[i];

		halo_buf_puts(&b, "halo_item_in_sync{key=\"");
		put_label(&b, item->key);
		halo_buf_printf(&b, "\",subsystem=\"%s\"} %d\n",
				halo_subsys_name(ctx, item->subsys), item_in_sync(item));
	}
	/* Drift per item, so an alert on it is exact: a node with drift on
	 * one key and a reboot pending for another alerts on the first. */
	halo_buf_puts(&b,
		"# HELP halo_item_drift 1 if the item differs from the config and the run did not change it (outcome drift).\n"
		"# TYPE halo_item_drift gauge\n");
	for (size_t i = 0; i < plan->n; i++) {
		const struct halo_item *item = plan->items[i];

		halo_buf_puts(&b, "halo_item_drift{key=\"");
		put_label(&b, item->key);
		halo_buf_printf(&b, "\",subsystem=\"%s\"} %d\n",
				halo_subsys_name(ctx, item->subsys),
				item->outcome == HALO_OUTCOME_DRIFT);
	}
	halo_buf_puts(&b,
		"# HELP halo_items Items of the last run by outcome.\n"
		"# TYPE halo_items gauge\n");
	for (enum halo_outcome k = 0; k < HALO_N_OUTCOMES; k++)
		halo_buf_printf(&b, "halo_items{outcome=\"%s\"} %zu\n",
				halo_outcome_name(k), halo_plan_count(plan, k));
	halo_buf_printf(&b,
		"# HELP halo_warnings Warnings of the last run (text and --json list them).\n"
		"# TYPE halo_warnings gauge\n"
		"halo_warnings %zu\n"
		"# HELP halo_last_run_timestamp_seconds Unix time of the last run.\n"
		"# TYPE halo_last_run_timestamp_seconds gauge\n"
		"halo_last_run_timestamp_seconds %.3f\n"
		"# HELP halo_last_run_info The mode of the last run that wrote this file.\n"
		"# TYPE halo_last_run_info gauge\n"
		"halo_last_run_info{mode=\"%s\"} 1\n"
		"# HELP halo_exit_code Exit status of the last run (a bitmask: 2 changed or drift, 4 failed, 8 reboot required).\n"
		"# TYPE halo_exit_code gauge\n"
		"halo_exit_code %d\n",
		plan->n_warnings, now, halo_mode_name(ctx->mode), exit_bits);
	halo_buf_puts(&b,
		"# HELP halo_build_info The halo-provision version that wrote this file.\n"
		"# TYPE halo_build_info gauge\n"
		"halo_build_info{version=\"");
	put_label(&b, PACKAGE_VERSION);
	halo_buf_puts(&b, "\"} 1\n");
	return halo_buf_steal(&b);
}

/* A run that ends with exit 1 writes nothing: the previous series stay
 * (alerts on them do not resolve by themselves) and the timestamp goes
 * stale, which is how monitoring sees a broken config. Every other apply
 * or check rewrites the file, since the timestamp is the liveness signal;
 * that write is not one of the run's changes, so files_written leaves it
 * out (a converged apply still reports 0 files written). */
int halo_prometheus_write(struct halo_ctx *ctx, const struct halo_config *cfg,
			  const struct halo_plan *plan, int exit_bits)
{
	_cleanup_free_ char *text = NULL;
	unsigned long written = ctx->files_written;
	struct timespec ts;
	int r;

	if (exit_bits == HALO_EXIT_USAGE || !cfg || !cfg->state.prometheus ||
	    !cfg->state.prometheus[0])
		return 0;
	if (clock_gettime(CLOCK_REALTIME, &ts) < 0)
		return -errno;
	text = halo_prometheus_render(ctx, plan, exit_bits,
				      (double)ts.tv_sec + ts.tv_nsec / 1e9);
	if (!text)
		return -ENOMEM;
	r = halo_write_file_atomic(ctx, cfg->state.prometheus, text,
				   strlen(text), 0644);
	ctx->files_written = written;
	return r;
}
