/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state.c: the verification state file. One of the three files that
 * include json-c; item_json.c maps each item, as for the report. It
 * describes the host after the run, not the run itself, so that an apply
 * that changes nothing rewrites nothing: no timestamp, "changed"
 * recorded as "ok", no +2 bit, no messages on items in sync.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "engine/report.h"
#include "engine/state.h"
#include "engine/state-scan.h"
#include "engine/subsystem.h"
#include "util/rootfs.h"
#include "util/strv.h"

#define STATE_SCHEMA_VERSION 1

static struct json_object *jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* The string member NAME of O, or NULL (absent or not a string). */
static const char *member_string(struct json_object *o, const char *name)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, name, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* The subsystem named by O's "subsystem" member, or 0. */
static enum halo_subsys member_subsys(const struct halo_ctx *ctx, struct json_object *o)
{
	const char *name = member_string(o, "subsystem");

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
 * host. Appends them to ITEMS and returns the exit bits they carry. An
 * unreadable or foreign file is simply replaced. */
static int keep_other_items(struct halo_ctx *ctx, const struct halo_plan *plan,
			    const char *path, struct json_object *items)
{
	struct json_object *prev, *list = NULL;
	int bits = 0;

	if (halo_run_is_full(ctx))
		return 0;
	prev = read_prev(ctx, path, &list);
	if (!prev)
		return 0;
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		struct json_object *it = json_object_array_get_idx(list, i);
		enum halo_subsys sub = member_subsys(ctx, it);
		const char *outcome = member_string(it, "outcome"), *key = member_string(it, "key");

		if (!sub || !key || !untouched_by_run(ctx, plan, sub, key, member_string(it, "interface")))
			continue;
		if (!outcome)
			outcome = "";
		if (strcmp(outcome, "pending-reboot") == 0)
			bits |= HALO_EXIT_REBOOT;
		else if (strcmp(outcome, "failed") == 0)
			bits |= HALO_EXIT_FAILED;
		json_object_array_add(items, json_object_get(it));
	}
	json_object_put(prev);
	return bits;
}

/* The `node` member (--cluster's facts, cluster.h): made by a full run;
 * a run limited by --only or --interface keeps the previous file's, as it
 * keeps the other items (it may not have resolved every interface).
 * NULL: none (a partial run before any full one), or ENOMEM. */
static struct json_object *node_member(struct halo_ctx *ctx, const struct halo_config *cfg,
				       const struct halo_plan *plan, const char *path)
{
	struct json_object *prev, *list = NULL, *node = NULL;

	if (halo_run_is_full(ctx))
		return ctx->registry && ctx->registry->node_facts ?
			       ctx->registry->node_facts(ctx, cfg, plan) : NULL;
	prev = read_prev(ctx, path, &list);
	if (prev && json_object_object_get_ex(prev, "node", &node) &&
	    json_object_is_type(node, json_type_object))
		json_object_get(node);
	else
		node = NULL;
	json_object_put(prev);
	return node;
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
 * the last file had items of), kept until a run applies them again (not
 * a one-interface run: it applies part of them), so that --status keeps
 * saying so after the boot unit's partial apply. NULL: none. */
static struct json_object *reverted_member(struct halo_ctx *ctx, const char *path)
{
	const struct halo_registry *reg = ctx->registry;
	struct json_object *prev, *list = NULL, *v, *out;
	unsigned mask = 0, had = 0;

	if (!ctx->revert && halo_run_is_full(ctx))
		return NULL;
	prev = read_prev(ctx, path, &list);
	if (prev && json_object_object_get_ex(prev, "reverted", &v) &&
	    json_object_is_type(v, json_type_array))
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			struct json_object *e = json_object_array_get_idx(v, i);

			if (json_object_is_type(e, json_type_string))
				mask |= halo_subsys_from_name(reg, json_object_get_string(e));
		}
	for (size_t i = 0; ctx->revert && list && i < json_object_array_length(list); i++)
		had |= member_subsys(ctx, json_object_array_get_idx(list, i));
	json_object_put(prev);
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

/* The state file of CFG (NULL: the default one), inside the root. */
static const char *state_path(const struct halo_config *cfg)
{
	return cfg && cfg->state.path ? cfg->state.path : HALO_STATE_DEFAULT_PATH;
}

/* When PATH was last written, 0 if that cannot be told. */
static time_t mtime_of(struct halo_ctx *ctx, const char *path)
{
	_cleanup_close_ int fd = -1;
	struct stat st;

	if (halo_root_openat(ctx, path, O_PATH, 0, &fd) < 0 || fstat(fd, &st) < 0)
		return 0;
	return st.st_mtim.tv_sec;
}

int halo_state_read_text(struct halo_ctx *ctx, const struct halo_config *cfg,
			 char **ret_text, size_t *ret_len, time_t *ret_mtime,
			 struct halo_errors *errs)
{
	const char *path = state_path(cfg);
	_cleanup_free_ char *shown = NULL;
	int r = halo_read_file(ctx, path, ret_text, ret_len);

	if (r >= 0) {
		if (ret_mtime)
			*ret_mtime = mtime_of(ctx, path);
		return 0;
	}
	shown = halo_root_display_path(ctx, path);
	if (r == -ENOENT) {
		char *why = NULL;

		if (halo_root_explain_missing(ctx, path, &why) < 0 && why) {
			halo_errors_add(errs, "cannot read state file: %s", why);
			free(why);
			return -ELOOP;
		}
		halo_errors_add(errs, "no state file at %s (no apply has run on this host yet, "
				"or a revert removed it)", shown ? shown : path);
	} else if (r == -HALO_ENOTREG || r == -EISDIR) {
		_cleanup_free_ char *why = halo_root_read_error(ctx, path, r);

		halo_errors_add(errs, "cannot read state file: %s", why ? why : path);
	} else
		halo_errors_add(errs, "cannot read state file %s: %s", shown ? shown : path,
				halo_root_strerror(r));
	return r;
}

/* Whether TEXT (LEN bytes, NUL-terminated) is one JSON document, blanks
 * around it. */
static bool one_json_document(const char *text, size_t len)
{
	struct json_tokener *tok;
	struct json_object *o;
	size_t end;

	if (strlen(text) != len || len >= INT_MAX || !(tok = json_tokener_new()))
		return false;
	/* With its NUL: a document that is a bare number ends there. */
	o = json_tokener_parse_ex(tok, text, (int)len + 1);
	end = json_tokener_get_error(tok) == json_tokener_success ?
		      json_tokener_get_parse_end(tok) : 0;
	if (end > len)
		end = len;
	json_tokener_free(tok);
	json_object_put(o);
	if (!o)
		return false;
	while (end < len && strchr(" \t\r\n", text[end]))
		end++;
	return end == len;
}

int halo_state_read_json(struct halo_ctx *ctx, const struct halo_config *cfg,
			 char **ret_text, size_t *ret_len, struct halo_errors *errs)
{
	int r = halo_state_read_text(ctx, cfg, ret_text, ret_len, NULL, errs);
	_cleanup_free_ char *shown = NULL;

	if (r < 0 || one_json_document(*ret_text, *ret_len))
		return r;
	shown = halo_root_display_path(ctx, state_path(cfg));
	halo_errors_add(errs, "%s is not a JSON document (cut short or damaged): nothing printed",
			shown ? shown : state_path(cfg));
	free(*ret_text);
	*ret_text = NULL;
	return -EBADMSG;
}

bool halo_state_is_ours(const char *text, size_t len)
{
	struct json_object *o;
	const char *tool;
	bool ours;

	/* A NUL inside is no JSON this tool wrote. */
	if (!text || strlen(text) != len)
		return false;
	o = json_tokener_parse(text);
	tool = o && json_object_is_type(o, json_type_object) ? member_string(o, "tool") : NULL;
	ours = tool && strcmp(tool, PACKAGE_NAME) == 0;
	json_object_put(o);
	return ours;
}

static int dup_member(struct json_object *o, const char *name, char **ret)
{
	const char *s = member_string(o, name);

	*ret = NULL;
	if (s && !(*ret = strdup(s)))
		return -ENOMEM;
	return 0;
}

/* The counts and the items of the ITEMS array into S: those not ok, or
 * with EVERY (-v) all of them. */
static int summarize_items(struct json_object *items, bool every, struct halo_state_summary *s)
{
	for (size_t i = 0; i < json_object_array_length(items); i++) {
		struct json_object *it = json_object_array_get_idx(items, i);
		const char *outcome = member_string(it, "outcome"), *key = member_string(it, "key");
		_cleanup_free_ char *line = NULL;
		bool known = false;

		s->n_items++;
		for (enum halo_outcome o = 0; outcome && o < HALO_N_OUTCOMES; o++)
			if (strcmp(outcome, halo_outcome_name(o)) == 0) {
				s->counts[o]++;
				known = true;
				break;
			}
		if (!known)
			s->n_unknown++;
		if (known && strcmp(outcome, "ok") == 0 && !every)
			continue;
		line = halo_strdup_printf("%s %s", outcome ? outcome : "?", key ? key : "?");
		if (!line || halo_strv_push(&s->listed, line) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* The strings of the array A, ", "-joined, into *RET (NULL for none).
 * 0 or -ENOMEM. */
static int join_strings(struct json_object *a, char **ret)
{
	struct halo_buf b = { 0 };

	for (size_t i = 0; i < json_object_array_length(a); i++) {
		struct json_object *e = json_object_array_get_idx(a, i);

		if (json_object_is_type(e, json_type_string) && json_object_get_string_len(e))
			halo_buf_printf(&b, "%s%s", b.len ? ", " : "", json_object_get_string(e));
	}
	if (!b.len) {
		halo_buf_free(&b);
		return 0;
	}
	*ret = halo_buf_steal(&b);
	return *ret ? 0 : -ENOMEM;
}

int halo_state_summarize(struct halo_ctx *ctx, const struct halo_config *cfg,
			 struct halo_state_summary *ret, struct halo_errors *errs)
{
	struct halo_state_summary s = { 0 };
	_cleanup_free_ char *text = NULL;
	struct json_object *o, *v, *items, *c;
	size_t len;
	int r = halo_state_read_text(ctx, cfg, &text, &len, &s.mtime, errs);

	if (r < 0)
		return r;
	s.path = halo_root_display_path(ctx, state_path(cfg));
	if (!s.path)
		return -ENOMEM;
	o = one_json_document(text, len) ? json_tokener_parse(text) : NULL;
	if (!o || !json_object_object_get_ex(o, "schema_version", &v) ||
	    json_object_get_int(v) != STATE_SCHEMA_VERSION ||
	    !json_object_object_get_ex(o, "items", &items) ||
	    !json_object_is_type(items, json_type_array)) {
		if (!one_json_document(text, len))
			halo_errors_add(errs, "%s is not a halo-provision state file: not a JSON "
					"document (cut short or damaged)", s.path);
		else
			halo_errors_add(errs, "%s is not a halo-provision state file (schema version %d); --status --json prints it as it is",
					s.path, STATE_SCHEMA_VERSION);
		json_object_put(o);
		halo_state_summary_free(&s);
		return -EBADMSG;
	}
	r = dup_member(o, "version", &s.version);
	if (r == 0)
		r = dup_member(o, "kernel_release", &s.kernel_release);
	if (r == 0 && json_object_object_get_ex(o, "config", &c)) {
		r = dup_member(c, "path", &s.config_path);
		if (r == 0)
			r = dup_member(c, "digest", &s.config_digest);
	}
	if (json_object_object_get_ex(o, "failed", &v))
		s.failed = json_object_get_boolean(v);
	if (json_object_object_get_ex(o, "reboot_required", &v))
		s.reboot_required = json_object_get_boolean(v);
	if (json_object_object_get_ex(o, "exit_bits", &v))
		s.exit_bits = json_object_get_int(v);
	if (r == 0 && json_object_object_get_ex(o, "reverted", &v) &&
	    json_object_is_type(v, json_type_array))
		r = join_strings(v, &s.reverted);
	if (r == 0)
		r = summarize_items(items, ctx->verbosity > 0, &s);
	json_object_put(o);
	if (r < 0) {
		halo_state_summary_free(&s);
		return r;
	}
	*ret = s;
	return 0;
}

void halo_state_summary_free(struct halo_state_summary *s)
{
	free(s->path);
	free(s->version);
	free(s->kernel_release);
	free(s->config_path);
	free(s->config_digest);
	free(s->reverted);
	halo_strv_free(s->listed);
	*s = (struct halo_state_summary){ 0 };
}

int halo_state_recorded_items(struct halo_ctx *ctx, const struct halo_config *cfg,
			      int (*fn)(void *userdata, const char *key,
					enum halo_subsys subsys, const char *path),
			      void *userdata)
{
	const char *path = cfg->state.path ? cfg->state.path : HALO_STATE_DEFAULT_PATH;
	struct json_object *prev, *list = NULL;
	int r = 0;

	prev = read_prev(ctx, path, &list);
	if (!prev)
		return 0;
	for (size_t i = 0; i < json_object_array_length(list) && r >= 0; i++) {
		struct json_object *it = json_object_array_get_idx(list, i);
		enum halo_subsys sub = member_subsys(ctx, it);
		const char *key = member_string(it, "key");

		if (sub && key)
			r = fn(userdata, key, sub, member_string(it, "path"));
	}
	json_object_put(prev);
	return r;
}

int halo_state_records_parse(const char *text, struct halo_records *ret)
{
	struct json_object *prev, *list = NULL, *v, *owned;
	int err = 0;

	*ret = (struct halo_records){ 0 };
	prev = parse_prev(text, &list);
	if (!prev)
		return 0;
	ret->ours = true;
	if (member_string(prev, "textfile") && !(ret->textfile = strdup(member_string(prev, "textfile"))))
		err = -ENOMEM;
	for (size_t i = 0; i < json_object_array_length(list) && err == 0; i++) {
		struct json_object *it = json_object_array_get_idx(list, i);
		const char *key = member_string(it, "key"), *memo = member_string(it, "memo");
		const char *path = member_string(it, "path"), *sub = member_string(it, "subsystem");

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
	const char *path = cfg->state.path ? cfg->state.path : HALO_STATE_DEFAULT_PATH;
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
	const char *path = cfg->state.path ? cfg->state.path : HALO_STATE_DEFAULT_PATH;
	struct json_object *o, *c, *items, *node, *textfile, *reverted;
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
	bits |= keep_other_items(ctx, plan, path, items);
	node = node_member(ctx, cfg, plan, path);
	textfile = textfile_member(ctx, cfg, plan);
	reverted = reverted_member(ctx, path);

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
