/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state-status.c: --status, the state file read back: its text (printed
 * as it is with --json, when it is one JSON document) and its summary for
 * people. A file that is not one of ours is an error here, never
 * rewritten.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "engine/report.h"
#include "engine/state-int.h"
#include "engine/state.h"
#include "util/rootfs.h"
#include "util/strv.h"

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
	const char *path = halo_state_path(cfg);
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
	shown = halo_root_display_path(ctx, halo_state_path(cfg));
	halo_errors_add(errs, "%s is not a JSON document (cut short or damaged): nothing printed",
			shown ? shown : halo_state_path(cfg));
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
	tool = o && json_object_is_type(o, json_type_object) ? halo_state_member_string(o, "tool") : NULL;
	ours = tool && strcmp(tool, PACKAGE_NAME) == 0;
	json_object_put(o);
	return ours;
}

static int dup_member(struct json_object *o, const char *name, char **ret)
{
	const char *s = halo_state_member_string(o, name);

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
		const char *outcome = halo_state_member_string(it, "outcome"), *key = halo_state_member_string(it, "key");
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
	s.path = halo_root_display_path(ctx, halo_state_path(cfg));
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
