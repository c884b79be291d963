/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state.c: the verification state file, written, and its ownership
 * records read back (state-scan.c reads them in one pass; --status reads
 * the file in state-status.c). item_json.c maps each item, as for the
 * report. It describes the host after the run, not the run itself, so
 * that an apply that changes nothing rewrites nothing: no timestamp,
 * "changed" recorded as "ok", no +2 bit, no messages on items in sync.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "engine/report.h"
#include "engine/state.h"
#include "engine/state-int.h"
#include "engine/state-scan.h"
#include "engine/subsystem.h"
#include "util/rootfs.h"
#include "util/strv.h"

static struct json_object *jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

const char *halo_state_member_string(struct json_object *o, const char *name)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, name, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

const char *halo_state_path(const struct halo_config *cfg)
{
	return cfg && cfg->state.path ? cfg->state.path : HALO_STATE_DEFAULT_PATH;
}

/* The subsystem named by O's "subsystem" member, or 0. */
static enum halo_subsys member_subsys(const struct halo_ctx *ctx, struct json_object *o)
{
	const char *name = halo_state_member_string(o, "subsystem");

	return name ? halo_subsys_from_name(ctx->registry, name) : 0;
}

/* Whether this run's PLAN has an item of the interface entry NAME. */
static bool plan_has_interface(const struct halo_plan *plan, const char *name)
{
	for (size_t i = 0; i < plan->n; i++)
		if (plan->items[i]->iface && strcmp(plan->items[i]->iface->name, name) == 0)
			return true;
	return false;
}

/* Whether an item of the last run, KEY of subsystem SUB (of the interface
 * entry IFACE, NULL for none), is one this run did not look at: another
 * subsystem (--only), or with --interface another interface's item or a
 * shared one that a one-interface run leaves alone (the NetworkManager and
 * networkd drop-ins, the firewall zone, the env file, the sysctl drop-in). */
static bool untouched_by_run(const struct halo_ctx *ctx, const struct halo_plan *plan,
			     enum halo_subsys sub, const char *key, const char *iface)
{
	enum halo_subsys limited = HALO_SUB_LINKS | HALO_SUB_ROCE | HALO_SUB_RDMA | HALO_SUB_FILES;

	if (!(sub & ctx->only))
		return true;
	if (!ctx->interface || !(sub & limited) || halo_plan_find(plan, key))
		return false;
	return !iface || !plan_has_interface(plan, iface);
}

/* The text of the last state file at PATH, or NULL: absent, unreadable
 * or refused (a refused file is named by the run, util/rootfs.h; a
 * symlink out of the root is not "no state file"). */
static char *read_prev_text(struct halo_ctx *ctx, const char *path, size_t *ret_len)
{
	char *old = NULL;
	int r = halo_read_file(ctx, path, &old, ret_len);

	if (r == -ENOENT)
		(void)halo_root_absent(ctx, path);
	if (r < 0) {
		halo_root_refusal_name(ctx, path, HALO_STATE_WHAT);
		return NULL;
	}
	return old;
}

/* The state file TEXT when it is one of ours (this schema version, an
 * items array): its items in *RET_ITEMS, the document to put in *RET.
 * Unparsable or foreign: NULL (the file is replaced). */
static struct json_object *parse_prev(const char *text, struct json_object **ret_items)
{
	struct json_object *prev, *v, *list;

	prev = text ? json_tokener_parse(text) : NULL;
	if (!prev)
		return NULL;
	if (json_object_object_get_ex(prev, "schema_version", &v) &&
	    json_object_get_int(v) == STATE_SCHEMA_VERSION &&
	    json_object_object_get_ex(prev, "items", &list) &&
	    json_object_is_type(list, json_type_array)) {
		*ret_items = list;
		return prev;
	}
	json_object_put(prev);
	return NULL;
}

/* The last state file at PATH as parse_prev takes it. */
static struct json_object *read_prev(struct halo_ctx *ctx, const char *path,
				     struct json_object **ret_items)
{
	size_t len;
	_cleanup_free_ char *old = read_prev_text(ctx, path, &len);

	return parse_prev(old, ret_items);
}

/* With --only or --interface, the items the run did not look at stay as
 * the last apply recorded them, so the file keeps describing the whole
 * host: of LIST, the last file's items (NULL: none, or a full run).
 * Appends them to ITEMS and returns the exit bits they carry. An
 * unreadable or foreign file is simply replaced. */
static int keep_other_items(struct halo_ctx *ctx, const struct halo_plan *plan,
			    struct json_object *list, struct json_object *items)
{
	int bits = 0;

	if (halo_run_is_full(ctx) || !list)
		return 0;
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		struct json_object *it = json_object_array_get_idx(list, i);
		enum halo_subsys sub = member_subsys(ctx, it);
		const char *outcome = halo_state_member_string(it, "outcome");
		const char *key = halo_state_member_string(it, "key");

		if (!sub || !key ||
		    !untouched_by_run(ctx, plan, sub, key, halo_state_member_string(it, "interface")))
			continue;
		if (!outcome)
			outcome = "";
		if (strcmp(outcome, "pending-reboot") == 0)
			bits |= HALO_EXIT_REBOOT;
		else if (strcmp(outcome, "failed") == 0)
			bits |= HALO_EXIT_FAILED;
		json_object_array_add(items, json_object_get(it));
	}
	return bits;
}

/* The `node` member (--cluster's facts, cluster.h): made by a full run;
 * a run limited by --only or --interface keeps the one of PREV, the last
 * file, as it keeps the other items (it may not have resolved every
 * interface). NULL: none (a partial run before any full one), or ENOMEM. */
static struct json_object *node_member(struct halo_ctx *ctx, const struct halo_config *cfg,
				       const struct halo_plan *plan, struct json_object *prev)
{
	struct json_object *node = NULL;

	if (halo_run_is_full(ctx))
		return ctx->registry && ctx->registry->node_facts ?
			       ctx->registry->node_facts(ctx, cfg, plan) : NULL;
	if (prev && json_object_object_get_ex(prev, "node", &node) &&
	    json_object_is_type(node, json_type_object))
		return json_object_get(node);
	return NULL;
}

/* The `textfile` member: the Prometheus textfile a full run writes, so
 * that a later apply finds it after state.prometheus moved (run.c). A run
 * limited by --only or --interface writes none: it keeps the previous
 * file's. NULL: none. */
static struct json_object *textfile_member(struct halo_ctx *ctx, const struct halo_config *cfg,
					   const struct halo_plan *plan)
{
	const char *path = cfg->state.prometheus;

	if (!halo_run_is_full(ctx))
		path = plan->records ? plan->records->textfile : NULL;
	return path && path[0] ? json_object_new_string(path) : NULL;
}

/* The `reverted` member: the subsystems a --revert --only undid (those
 * the last file, PREV with its items LIST, had items of), kept until a
 * run applies them again (not a one-interface run: it applies part of
 * them), so that --status keeps saying so after the boot unit's partial
 * apply. NULL: none. */
static struct json_object *reverted_member(struct halo_ctx *ctx, struct json_object *prev,
					   struct json_object *list)
{
	const struct halo_registry *reg = ctx->registry;
	struct json_object *v, *out;
	unsigned mask = 0, had = 0;

	if (!ctx->revert && halo_run_is_full(ctx))
		return NULL;
	if (prev && json_object_object_get_ex(prev, "reverted", &v) &&
	    json_object_is_type(v, json_type_array))
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			struct json_object *e = json_object_array_get_idx(v, i);

			if (json_object_is_type(e, json_type_string))
				mask |= halo_subsys_from_name(reg, json_object_get_string(e));
		}
	for (size_t i = 0; ctx->revert && list && i < json_object_array_length(list); i++)
		had |= member_subsys(ctx, json_object_array_get_idx(list, i));
	if (ctx->revert)
		mask |= ctx->only & had;
	else if (!ctx->interface)
		mask &= ~ctx->only;
	out = mask ? json_object_new_array() : NULL;
	for (size_t i = 0; out && reg && i < reg->n; i++)
		if (mask & reg->subsystems[i].bit)
			json_object_array_add(out, json_object_new_string(reg->subsystems[i].name));
	return out;
}


int halo_state_recorded_items(struct halo_ctx *ctx, const struct halo_config *cfg,
			      int (*fn)(void *userdata, const char *key,
					enum halo_subsys subsys, const char *path),
			      void *userdata)
{
	const char *path = halo_state_path(cfg);
	struct json_object *prev, *list = NULL;
	int r = 0;

	prev = read_prev(ctx, path, &list);
	if (!prev)
		return 0;
	for (size_t i = 0; i < json_object_array_length(list) && r >= 0; i++) {
		struct json_object *it = json_object_array_get_idx(list, i);
		enum halo_subsys sub = member_subsys(ctx, it);
		const char *key = halo_state_member_string(it, "key");

		if (sub && key)
			r = fn(userdata, key, sub, halo_state_member_string(it, "path"));
	}
	json_object_put(prev);
	return r;
}

int halo_state_records_parse(const char *text, struct halo_records *ret)
{
	struct json_object *prev, *list = NULL, *v, *owned;
	const char *textfile;
	int err = 0;

	*ret = (struct halo_records){ 0 };
	prev = parse_prev(text, &list);
	if (!prev)
		return 0;
	ret->ours = true;
	textfile = halo_state_member_string(prev, "textfile");
	if (textfile && !(ret->textfile = strdup(textfile)))
		err = -ENOMEM;
	for (size_t i = 0; i < json_object_array_length(list) && err == 0; i++) {
		struct json_object *it = json_object_array_get_idx(list, i);
		const char *key = halo_state_member_string(it, "key");
		const char *memo = halo_state_member_string(it, "memo");
		const char *path = halo_state_member_string(it, "path");
		const char *sub = halo_state_member_string(it, "subsystem");

		if (key && memo)
			err = halo_records_set_memo(ret, key, memo);
		if (err == 0 && key && path && sub)
			err = halo_records_set_file(ret, key, path, sub);
		if (err < 0 || !key || !json_object_object_get_ex(it, "owned", &owned) ||
		    !json_object_is_type(owned, json_type_array))
			continue;
		for (size_t j = 0; j < json_object_array_length(owned) && err == 0; j++) {
			v = json_object_array_get_idx(owned, j);
			/* A hand-edited entry too long to be ours is not ours,
			 * and a record past the limit is cut there. */
			if (json_object_is_type(v, json_type_string) &&
			    strlen(json_object_get_string(v)) < HALO_OWNED_LEN)
				err = halo_records_add(ret, key, json_object_get_string(v));
			if (err == -ENOSPC)
				err = 0;
		}
	}
	json_object_put(prev);
	if (err < 0)
		halo_records_free(ret);
	return err;
}

int halo_state_records_read(struct halo_ctx *ctx, const struct halo_config *cfg,
			    struct halo_records *ret)
{
	const char *path = halo_state_path(cfg);
	size_t len = 0;
	_cleanup_free_ char *text = read_prev_text(ctx, path, &len);
	int r;

	*ret = (struct halo_records){ 0 };
	if (!text)
		return 0;
	/* Plain JSON, as this tool writes it, is read in one pass; anything
	 * else is the parser's to judge. */
	r = halo_state_scan_records(text, len, STATE_SCHEMA_VERSION, ret);
	if (r == 0)
		r = halo_state_records_parse(text, ret);
	if (r < 0)
		return r;
	return ret->ours ? 0 : 1;
}

static int owned_cmp(const void *a, const void *b)
{
	return strverscmp(a, b);
}

/* ITEM's ownership record, sorted, as the "owned" member of O. */
static void add_owned(const struct halo_item *item, struct json_object *o)
{
	struct halo_owned rec;
	struct json_object *a;

	if (!item->owned || item->owned->n == 0 || item->owned->n > HALO_OWNED_MAX)
		return;
	rec = *item->owned;
	qsort(rec.v, rec.n, sizeof(rec.v[0]), owned_cmp);
	a = json_object_new_array();
	for (size_t i = 0; a && i < rec.n; i++) {
		rec.v[i][HALO_OWNED_LEN - 1] = '\0';
		json_object_array_add(a, json_object_new_string(rec.v[i]));
	}
	if (a)
		json_object_object_add(o, "owned", a);
}

int halo_state_write(struct halo_ctx *ctx, const struct halo_config *cfg,
		     const struct halo_plan *plan, int exit_bits)
{
	const char *path = halo_state_path(cfg);
	struct json_object *o, *c, *items, *node, *textfile, *reverted;
	struct json_object *prev = NULL, *list = NULL;
	_cleanup_free_ char *text = NULL;
	const char *s;
	int bits = exit_bits & ~HALO_EXIT_CHANGED;
	char digest[65];

	items = json_object_new_array();
	if (!items)
		return -ENOMEM;
	for (size_t i = 0; i < plan->n; i++) {
		struct json_object *it = halo_item_json(ctx, plan->items[i], HALO_ITEM_JSON_HOST);

		if (it)
			add_owned(plan->items[i], it);
		if (it && plan->items[i]->memo)
			json_object_object_add(it, "memo", jstr(plan->items[i]->memo));
		json_object_array_add(items, it);
	}
	/* A partial run (a partial revert included) keeps parts of the last
	 * file: it is read once for all of them. */
	if (!halo_run_is_full(ctx))
		prev = read_prev(ctx, path, &list);
	bits |= keep_other_items(ctx, plan, list, items);
	node = node_member(ctx, cfg, plan, prev);
	textfile = textfile_member(ctx, cfg, plan);
	reverted = reverted_member(ctx, prev, list);
	json_object_put(prev);

	o = json_object_new_object();
	if (!o) {
		json_object_put(items);
		json_object_put(node);
		json_object_put(textfile);
		json_object_put(reverted);
		return -ENOMEM;
	}
	json_object_object_add(o, "schema_version", json_object_new_int(STATE_SCHEMA_VERSION));
	json_object_object_add(o, "tool", json_object_new_string(PACKAGE_NAME));
	json_object_object_add(o, "version", json_object_new_string(PACKAGE_VERSION));
	c = json_object_new_object();
	json_object_object_add(c, "path", jstr(cfg->in_root ? HALO_CONFIG_DEFAULT_PATH : cfg->path));
	json_object_object_add(c, "digest", jstr(halo_config_digest(cfg, digest)));
	json_object_object_add(o, "config", c);
	json_object_object_add(o, "kernel_release", jstr(ctx->kernel_release));
	json_object_object_add(o, "failed", json_object_new_boolean(bits & HALO_EXIT_FAILED));
	json_object_object_add(o, "reboot_required",
			       json_object_new_boolean(bits & HALO_EXIT_REBOOT));
	json_object_object_add(o, "exit_bits", json_object_new_int(bits));
	if (reverted)
		json_object_object_add(o, "reverted", reverted);
	if (node)
		json_object_object_add(o, "node", node);
	if (textfile)
		json_object_object_add(o, "textfile", textfile);
	json_object_object_add(o, "items", items);

	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (s && asprintf(&text, "%s\n", s) < 0)
		text = NULL;
	json_object_put(o);
	if (!text)
		return -ENOMEM;
	return halo_write_file_atomic(ctx, path, text, strlen(text), 0644);
}
