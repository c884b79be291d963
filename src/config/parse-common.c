/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse-common.c: typed getters over the libconfig tree for the schema walk.
 * Each reports its own error ("FILE:LINE: KEY: message") and returns -1, so
 * a section goes on after a bad key and every error of the file is found in
 * one pass.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "config/loose.h"
#include "config/parse-common.h"
#include "util/strv.h"

const char *halo_cset_kind_name(enum halo_cset_kind k)
{
	switch (k) {
	case HALO_CSET_GROUP: return "a group";
	case HALO_CSET_ARRAY: return "an array";
	case HALO_CSET_LIST: return "a list";
	case HALO_CSET_INT: return "an integer";
	case HALO_CSET_FLOAT: return "a float";
	case HALO_CSET_STRING: return "a string";
	case HALO_CSET_BOOL: return "a boolean";
	}
	return "?";
}

enum halo_cset_kind halo_pkind(const struct halo_pctx *p, const struct halo_cset *s)
{
	enum halo_cset_kind k = halo_cset_kind(s);

	if (p->loose && k == HALO_CSET_STRING && halo_loose_int(halo_cset_string(s), NULL))
		return HALO_CSET_INT;
	return k;
}

bool halo_pwant(struct halo_pctx *p, const struct halo_cset *s, const char *path,
		enum halo_cset_kind kind)
{
	enum halo_cset_kind k = halo_cset_kind(s);
	char q[96];

	/* Arrays and lists are interchangeable for sequences of scalars. */
	if (k == kind || (kind == HALO_CSET_LIST && k == HALO_CSET_ARRAY))
		return true;
	/* config_data: "9000" and "yes" are what YAML and templates make. */
	if (p->loose && k == HALO_CSET_STRING &&
	    (kind == HALO_CSET_INT || kind == HALO_CSET_BOOL)) {
		const char *v = halo_cset_string(s);

		if (kind == HALO_CSET_INT ? halo_loose_int(v, NULL) : halo_loose_bool(v) >= 0)
			return true;
		halo_perr(p, halo_cset_line(s), "%s: expected %s, got the string %s", path,
			  halo_cset_kind_name(kind), halo_pquote(v, q, sizeof(q)));
		return false;
	}
	halo_perr(p, halo_cset_line(s), "%s: expected %s, got %s", path,
		  kind == HALO_CSET_LIST ? "an array or list" : halo_cset_kind_name(kind),
		  halo_cset_kind_name(k));
	return false;
}

void halo_pcheck_keys(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		      const char *const *keys)
{
	for (size_t i = 0; i < halo_cset_len(g); i++) {
		const struct halo_cset *s = halo_cset_elem(g, i);
		const char *name = halo_cset_name(s), *hint;

		if (!name || halo_keyword_index(keys, name) >= 0)
			continue;
		hint = halo_suggest(name, keys);
		if (hint)
			halo_perr(p, halo_cset_line(s), "%s%sunknown key \"%s\" (did you mean \"%s\"?)",
				  path, *path ? ": " : "", name, hint);
		else
			halo_perr(p, halo_cset_line(s), "%s%sunknown key \"%s\"", path,
				  *path ? ": " : "", name);
	}
}

static bool bad_int_line(const struct halo_pctx *p, int line)
{
	for (size_t i = 0; i < p->n_bad_int_lines; i++)
		if (p->bad_int_lines[i] == line)
			return true;
	return false;
}

/* Checks one integer setting S already known to be present. */
static int int_value(struct halo_pctx *p, const struct halo_cset *s, const char *key,
		     int64_t min, int64_t max, int64_t *ret)
{
	int64_t v;

	if (!halo_pwant(p, s, key, HALO_CSET_INT))
		return -1;
	/* Already reported by the prescan: the value read is wrapped. */
	if (bad_int_line(p, halo_cset_line(s)))
		return -1;
	v = halo_cset_int(s);
	if (v < min || v > max) {
		halo_perr(p, halo_cset_line(s), "%s: %" PRId64 " is out of range (%" PRId64
			  "..%" PRId64 ")", key, v, min, max);
		return -1;
	}
	*ret = v;
	return 1;
}

int halo_pget_int(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		  const char *key, int64_t min, int64_t max, int64_t *ret, int *ret_line)
{
	const struct halo_cset *s = halo_cset_member(g, key);
	char k[256];
	int r;

	if (!s)
		return 0;
	r = int_value(p, s, halo_pkey(k, sizeof(k), path, key, 0), min, max, ret);
	if (r > 0 && ret_line)
		*ret_line = halo_cset_line(s);
	return r;
}

/* Member KEY of G if it has KIND: 1 (*RET set), 0 absent, -1 reported. */
static int typed_member(struct halo_pctx *p, const struct halo_cset *g, const char *path,
			const char *key, enum halo_cset_kind kind, const struct halo_cset **ret)
{
	const struct halo_cset *s = halo_cset_member(g, key);
	char k[256];

	if (!s)
		return 0;
	if (!halo_pwant(p, s, halo_pkey(k, sizeof(k), path, key, 0), kind))
		return -1;
	*ret = s;
	return 1;
}

int halo_pget_bool(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		   const char *key, bool *ret)
{
	const struct halo_cset *s;
	int r = typed_member(p, g, path, key, HALO_CSET_BOOL, &s);

	if (r > 0)
		*ret = halo_cset_bool(s);
	return r;
}

int halo_pget_string(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		     const char *key, char **ret, int *ret_line)
{
	const struct halo_cset *s;
	int r = typed_member(p, g, path, key, HALO_CSET_STRING, &s);
	char *v;

	if (r <= 0)
		return r;
	v = strdup(halo_cset_string(s));
	if (!v) {
		p->oom = true;
		return -1;
	}
	free(*ret);
	*ret = v;
	if (ret_line)
		*ret_line = halo_cset_line(s);
	return 1;
}

int halo_pget_keyword(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		      const char *key, const char *const *table, int *ret)
{
	const struct halo_cset *s = halo_cset_member(g, key);
	char k[256], q[96], all[256] = "";
	const char *v, *hint;
	int i;

	if (!s)
		return 0;
	halo_pkey(k, sizeof(k), path, key, 0);
	if (!halo_pwant(p, s, k, HALO_CSET_STRING))
		return -1;
	v = halo_cset_string(s);
	i = halo_keyword_index(table, v);
	if (i >= 0) {
		*ret = i;
		return 1;
	}
	for (size_t j = 0; table[j]; j++) {
		strncat(all, j ? ", " : "", sizeof(all) - strlen(all) - 1);
		strncat(all, table[j], sizeof(all) - strlen(all) - 1);
	}
	hint = halo_suggest(v, table);
	if (hint)
		halo_perr(p, halo_cset_line(s), "%s: %s is not one of %s (did you mean \"%s\"?)",
			  k, halo_pquote(v, q, sizeof(q)), all, hint);
	else
		halo_perr(p, halo_cset_line(s), "%s: %s is not one of %s", k,
			  halo_pquote(v, q, sizeof(q)), all);
	return -1;
}

int halo_pget_group(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		    const char *key, const char *const *keys, const struct halo_cset **ret)
{
	char k[256];
	int r = typed_member(p, g, path, key, HALO_CSET_GROUP, ret);

	if (r > 0)
		halo_pcheck_keys(p, *ret, halo_pkey(k, sizeof(k), path, key, 0), keys);
	return r;
}

int halo_pget_seq(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		  const char *key, const struct halo_cset **ret)
{
	return typed_member(p, g, path, key, HALO_CSET_LIST, ret);
}

void *halo_pget_table(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		      const char *key, size_t elem_size, const struct halo_cset **ret_seq,
		      size_t *ret_n)
{
	const struct halo_cset *seq;
	void *t;

	if (halo_pget_seq(p, g, path, key, &seq) <= 0)
		return NULL;
	t = calloc(halo_cset_len(seq) + 1, elem_size);
	if (!t) {
		p->oom = true;
		return NULL;
	}
	*ret_seq = seq;
	*ret_n = halo_cset_len(seq);
	return t;
}

static int strlist_push(struct halo_strlist *l, const char *s, int line)
{
	int *nl = realloc(l->line, (l->n + 1) * sizeof(int));

	if (!nl)
		return -ENOMEM;
	l->line = nl;
	if (halo_strv_push(&l->v, s) < 0)
		return -ENOMEM;
	l->line[l->n++] = line;
	return 0;
}

int halo_pget_strlist(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		      const char *key, halo_str_check_fn check,
		      void (*normalize)(char *s), struct halo_strlist *ret)
{
	const struct halo_cset *seq;
	char k[256], ek[300], q[96];
	int r = halo_pget_seq(p, g, path, key, &seq);

	if (r <= 0)
		return r;
	halo_pkey(k, sizeof(k), path, key, 0);
	for (size_t i = 0; i < halo_cset_len(seq); i++) {
		const struct halo_cset *e = halo_cset_elem(seq, i);
		int line = halo_cset_line(e);
		const char *why;
		_cleanup_free_ char *v = NULL;
		bool dup = false;

		halo_pkey(ek, sizeof(ek), k, NULL, (long)i);
		if (!halo_pwant(p, e, ek, HALO_CSET_STRING)) {
			r = -1;
			continue;
		}
		v = strdup(halo_cset_string(e));
		if (!v) {
			p->oom = true;
			return -1;
		}
		why = check ? check(v) : NULL;
		if (why) {
			halo_perr(p, line, "%s: %s %s", ek, halo_pquote(v, q, sizeof(q)), why);
			r = -1;
			continue;
		}
		if (normalize)
			normalize(v);
		for (size_t j = 0; j < ret->n; j++)
			if (strcmp(ret->v[j], v) == 0) {
				halo_perr(p, line, "%s: %s is listed twice (first at line %d)", ek,
					  halo_pquote(halo_cset_string(e), q, sizeof(q)), ret->line[j]);
				dup = true;
				r = -1;
				break;
			}
		if (!dup && strlist_push(ret, v, line) < 0) {
			p->oom = true;
			return -1;
		}
	}
	return r;
}

const char halo_parse_oom[] = "out of memory";

static bool same_text(const struct halo_elem_parser *ep, const void *a, const void *b)
{
	const char *ta = *(char *const *)((const char *)a + ep->text_offset);
	const char *tb = *(char *const *)((const char *)b + ep->text_offset);

	return strcmp(ta, tb) == 0;
}

int halo_pget_parsed(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		     const char *key, const struct halo_elem_parser *ep, void **ret,
		     size_t *ret_n)
{
	const struct halo_cset *seq;
	_cleanup_free_ int *lines = NULL;
	char k[256], ek[300], q[96], *t;
	int r = halo_pget_seq(p, g, path, key, &seq);
	size_t len, n = 0;

	if (r <= 0)
		return r;
	len = halo_cset_len(seq);
	t = calloc(len + 1, ep->elem_size);
	lines = calloc(len + 1, sizeof(*lines));
	if (!t || !lines) {
		free(t);
		p->oom = true;
		return -1;
	}
	*ret = t;
	halo_pkey(k, sizeof(k), path, key, 0);
	for (size_t i = 0; i < len; i++) {
		const struct halo_cset *e = halo_cset_elem(seq, i);
		int line = halo_cset_line(e);
		void *elem = t + n * ep->elem_size;
		const char *text, *why;
		bool dup = false;

		halo_pkey(ek, sizeof(ek), k, NULL, (long)i);
		if (!halo_pwant(p, e, ek, HALO_CSET_STRING)) {
			r = -1;
			continue;
		}
		text = halo_cset_string(e);
		why = ep->parse(text, line, elem);
		if (why == HALO_PARSE_OOM) {
			p->oom = true;
			r = -1;
			break;
		}
		if (why) {
			halo_perr(p, line, "%s: %s %s", ek, halo_pquote(text, q, sizeof(q)), why);
			r = -1;
			continue;
		}
		for (size_t j = 0; j < n && !dup; j++)
			if (same_text(ep, t + j * ep->elem_size, elem) ||
			    (ep->same && ep->same(t + j * ep->elem_size, elem))) {
				halo_perr(p, line, "%s: %s is listed twice (first at line %d)", ek,
					  halo_pquote(text, q, sizeof(q)), lines[j]);
				dup = true;
			}
		if (dup) {
			ep->clear(elem);
			memset(elem, 0, ep->elem_size);
			r = -1;
			continue;
		}
		lines[n++] = line;
	}
	*ret_n = n;
	return r;
}

int halo_pget_parsed_one(struct halo_pctx *p, const struct halo_cset *g, const char *path,
			 const char *key, const char *(*parse)(const char *text, int line, void *elem),
			 bool required, int group_line, void *elem)
{
	const struct halo_cset *s = halo_cset_member(g, key);
	const char *why;
	char k[256], q[96];

	if (!s) {
		if (required)
			halo_perr(p, group_line, "%s: \"%s\" is required", path, key);
		return 0;
	}
	halo_pkey(k, sizeof(k), path, key, 0);
	if (!halo_pwant(p, s, k, HALO_CSET_STRING))
		return -1;
	why = parse(halo_cset_string(s), halo_cset_line(s), elem);
	if (why == HALO_PARSE_OOM) {
		p->oom = true;
		return -1;
	}
	if (why) {
		halo_perr(p, halo_cset_line(s), "%s: %s %s", k,
			  halo_pquote(halo_cset_string(s), q, sizeof(q)), why);
		return -1;
	}
	return 1;
}

int halo_pget_intlist(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		      const char *key, int64_t min, int64_t max, int64_t **ret,
		      size_t *ret_n, int *ret_line)
{
	const struct halo_cset *seq;
	char k[256], ek[300];
	int r = halo_pget_seq(p, g, path, key, &seq);
	size_t n = 0;
	int64_t *v;

	if (r <= 0)
		return r;
	if (ret_line)
		*ret_line = halo_cset_line(seq);
	halo_pkey(k, sizeof(k), path, key, 0);
	v = calloc(halo_cset_len(seq) + 1, sizeof(*v));
	if (!v) {
		p->oom = true;
		return -1;
	}
	for (size_t i = 0; i < halo_cset_len(seq); i++) {
		const struct halo_cset *e = halo_cset_elem(seq, i);
		int64_t x;
		bool dup = false;

		halo_pkey(ek, sizeof(ek), k, NULL, (long)i);
		if (int_value(p, e, ek, min, max, &x) < 0) {
			r = -1;
			continue;
		}
		for (size_t j = 0; j < n; j++)
			if (v[j] == x) {
				halo_perr(p, halo_cset_line(e), "%s: %" PRId64 " is listed twice", ek, x);
				dup = true;
				r = -1;
				break;
			}
		if (!dup)
			v[n++] = x;
	}
	free(*ret);
	*ret = v;
	*ret_n = n;
	return r;
}

/* A string KEY checked by CHECK; required keys report their absence. */
void halo_pget_checked(struct halo_pctx *p, const struct halo_cset *g, const char *path,
			const char *key, halo_str_check_fn check, bool required,
			int group_line, char **ret, int *ret_line)
{
	char q[96];
	int line = group_line, r = halo_pget_string(p, g, path, key, ret, &line);

	if (ret_line)
		*ret_line = line;
	if (r == 0 && required)
		halo_perr(p, group_line, "%s: \"%s\" is required", path, key);
	if (r > 0) {
		const char *why = check(*ret);

		if (why) {
			halo_perr(p, line, "%s.%s: %s %s", path, key,
				  halo_pquote(*ret, q, sizeof(q)), why);
			free(*ret);
			*ret = NULL;
		}
	}
}
