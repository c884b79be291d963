/* SPDX-License-Identifier: GPL-2.0-or-later */
/* record.c: the record of command-line edits for --revert (record.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "boot/cmdline.h"
#include "boot/record.h"
#include "engine/plan.h"
#include "util/rootfs.h"
#include "util/strv.h"

void boot_record_free(struct boot_record *rec)
{
	for (size_t i = 0; i < rec->no; i++) {
		free(rec->o[i].path);
		free(rec->o[i].var);
		free(rec->o[i].raw);
		halo_strv_free(rec->o[i].tokens);
	}
	for (size_t i = 0; i < rec->nk; i++) {
		free(rec->k[i].path);
		free(rec->k[i].var);
		free(rec->k[i].key);
		halo_strv_free(rec->k[i].ours);
		halo_strv_free(rec->k[i].was);
	}
	free(rec->o);
	free(rec->k);
	*rec = (struct boot_record){ 0 };
}

static void put_field(struct halo_buf *b, const char *s)
{
	halo_buf_puts(b, "\t");
	if (!s) {
		halo_buf_puts(b, "-");
		return;
	}
	if (strcmp(s, "-") == 0) {
		halo_buf_puts(b, "%2D");
		return;
	}
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p <= ' ' || *p == '%' || *p == 0x7f)
			halo_buf_printf(b, "%%%02X", *p);
		else
			halo_buf_append(b, (const char *)p, 1);
	}
}

static void put_tokens(struct halo_buf *b, char *const *tokens)
{
	_cleanup_free_ char *j = halo_cmdline_join(tokens);

	if (!j)
		b->oom = true;
	else
		put_field(b, j);
}

/* Decodes FIELD in place; *ret NULL for "-". A "%" not followed by two
 * hex digits of a nonzero byte is -EBADMSG (put_field writes none). */
static int field_decode(char *field, char **ret)
{
	char *w = field;

	*ret = NULL;
	if (strcmp(field, "-") == 0)
		return 0;
	for (const char *p = field; *p; p++) {
		if (*p == '%') {
			int hi = halo_hex_digit(p[1]), lo = hi < 0 ? -1 : halo_hex_digit(p[2]);

			if (lo < 0 || (hi | lo) == 0)
				return -EBADMSG;
			*w++ = (char)(hi << 4 | lo);
			p += 2;
		} else {
			*w++ = *p;
		}
	}
	*w = '\0';
	*ret = strdup(field);
	return *ret ? 0 : -ENOMEM;
}

static int split_field(char *field, char ***ret)
{
	_cleanup_free_ char *s = NULL;
	int r = field_decode(field, &s);

	*ret = NULL;
	return r < 0 ? r : halo_cmdline_split(s ? s : "", ret);
}

/* One line: 0 (a line of another shape is skipped: a later version's),
 * -EBADMSG for a field that does not decode, -ENOMEM. */
static int parse_line(char *line, struct boot_record *rec)
{
	char *f[6] = { NULL };
	size_t n = 0;
	int r;

	for (char *p = line, *t; n < ARRAY_SIZE(f) && (t = strsep(&p, "\t")) != NULL;)
		f[n++] = t;
	if (n == 5 && strcmp(f[0], "orig") == 0) {
		struct boot_rec_orig *v = realloc(rec->o, (rec->no + 1) * sizeof(*v));
		struct boot_rec_orig o = { 0 };

		if (!v)
			return -ENOMEM;
		rec->o = v;
		r = field_decode(f[1], &o.path);
		if (r >= 0)
			r = field_decode(f[2], &o.var);
		if (r >= 0)
			r = field_decode(f[3], &o.raw);
		if (r >= 0)
			r = split_field(f[4], &o.tokens);
		if (r >= 0 && (!o.path || !o.var))
			r = -EBADMSG;
		if (r < 0) {
			free(o.path);
			free(o.var);
			free(o.raw);
			halo_strv_free(o.tokens);
			return r;
		}
		rec->o[rec->no++] = o;
	} else if (n == 6 && strcmp(f[0], "key") == 0) {
		struct boot_rec_key *v = realloc(rec->k, (rec->nk + 1) * sizeof(*v));
		struct boot_rec_key k = { 0 };

		if (!v)
			return -ENOMEM;
		rec->k = v;
		r = field_decode(f[1], &k.path);
		if (r >= 0)
			r = field_decode(f[2], &k.var);
		if (r >= 0)
			r = field_decode(f[3], &k.key);
		if (r >= 0)
			r = split_field(f[4], &k.ours);
		if (r >= 0)
			r = split_field(f[5], &k.was);
		if (r >= 0 && (!k.path || !k.var || !k.key))
			r = -EBADMSG;
		if (r < 0) {
			free(k.path);
			free(k.var);
			free(k.key);
			halo_strv_free(k.ours);
			halo_strv_free(k.was);
			return r;
		}
		rec->k[rec->nk++] = k;
	}
	return 0;
}

int boot_record_parse(const char *text, struct boot_record *ret, unsigned *ret_line)
{
	_cleanup_free_ char *copy = strdup(text);
	unsigned lineno = 0;
	int r = 0;

	*ret = (struct boot_record){ 0 };
	*ret_line = 0;
	if (!copy)
		return -ENOMEM;
	if (!halo_is_managed(copy, strlen(copy)))
		return 0;
	for (char *p = copy, *line; r >= 0 && (line = strsep(&p, "\n")) != NULL;) {
		lineno++;
		if (line[0] != '#')
			r = parse_line(line, ret);
	}
	if (r < 0) {
		boot_record_free(ret);
		*ret_line = lineno;
	}
	return r;
}

int boot_record_load(struct halo_ctx *ctx, struct boot_record *rec, struct halo_errors *errs)
{
	_cleanup_free_ char *text = NULL, *shown = NULL;
	unsigned line;
	size_t len;
	int r = halo_read_file(ctx, BOOT_RECORD_PATH, &text, &len);

	*rec = (struct boot_record){ 0 };
	/* Absent, or refused (named by the run: util/rootfs.h), never
	 * taken for "no edits" in silence. */
	if (r == -ENOENT)
		r = halo_root_absent(ctx, BOOT_RECORD_PATH);
	if (r < 0) {
		halo_root_refusal_name(ctx, BOOT_RECORD_PATH, BOOT_RECORD_WHAT);
		return r == -ENOMEM ? r : 0;
	}
	r = boot_record_parse(text, rec, &line);
	if (r != -EBADMSG)
		return r;
	shown = halo_root_display_path(ctx, BOOT_RECORD_PATH);
	halo_errors_add(errs, "%s:%u: not a record of command-line edits halo-provision "
			"can read (a field does not decode): restore it, or move it away "
			"to give up undoing those edits", shown ? shown : BOOT_RECORD_PATH, line);
	return 0;
}

int boot_record_render(const struct boot_record *rec, char **ret_text)
{
	struct halo_buf b = { 0 };

	*ret_text = NULL;
	if (rec->no == 0 && rec->nk == 0)
		return 0;
	halo_buf_puts(&b, HALO_MANAGED_HEADER
		      "# What halo-provision changed in command lines it does not own,\n"
		      "# so that halo-provision --revert undoes only that.\n");
	for (size_t i = 0; i < rec->no; i++) {
		halo_buf_puts(&b, "orig");
		put_field(&b, rec->o[i].path);
		put_field(&b, rec->o[i].var);
		put_field(&b, rec->o[i].raw);
		put_tokens(&b, rec->o[i].tokens);
		halo_buf_puts(&b, "\n");
	}
	for (size_t i = 0; i < rec->nk; i++) {
		halo_buf_puts(&b, "key");
		put_field(&b, rec->k[i].path);
		put_field(&b, rec->k[i].var);
		put_field(&b, rec->k[i].key);
		put_tokens(&b, rec->k[i].ours);
		put_tokens(&b, rec->k[i].was);
		halo_buf_puts(&b, "\n");
	}
	*ret_text = halo_buf_steal(&b);
	return *ret_text ? 0 : -ENOMEM;
}

static bool same_place(const char *p, const char *v, const char *path, const char *var)
{
	return strcmp(p, path) == 0 && strcmp(v, var) == 0;
}

const struct boot_rec_orig *boot_record_orig(const struct boot_record *rec,
					     const char *path, const char *var)
{
	for (size_t i = 0; i < rec->no; i++)
		if (same_place(rec->o[i].path, rec->o[i].var, path, var))
			return &rec->o[i];
	return NULL;
}

/* The tokens of V with key KEY (NULL-terminated copy). */
static char **with_key(char *const *v, const char *key)
{
	char **out = calloc(1, sizeof(char *));

	for (size_t i = 0; out && v && v[i]; i++)
		if (halo_kernel_param_has_key(v[i], key) && halo_strv_push(&out, v[i]) < 0) {
			halo_strv_free(out);
			return NULL;
		}
	return out;
}

static int copy_tokens(char *const *v, char ***ret)
{
	return halo_cmdline_merge(v, NULL, NULL, ret);
}

/* The key entry of PATH/VAR/KEY, added when absent. */
static struct boot_rec_key *key_entry(struct boot_record *rec, const char *path,
				      const char *var, const char *key, bool *ret_new)
{
	struct boot_rec_key *v;

	*ret_new = false;
	for (size_t i = 0; i < rec->nk; i++)
		if (same_place(rec->k[i].path, rec->k[i].var, path, var) &&
		    halo_kernel_param_has_key(key, rec->k[i].key) &&
		    strlen(key) == strlen(rec->k[i].key))
			return &rec->k[i];
	v = realloc(rec->k, (rec->nk + 1) * sizeof(*v));
	if (!v)
		return NULL;
	rec->k = v;
	v = &rec->k[rec->nk];
	*v = (struct boot_rec_key){ strdup(path), strdup(var), strdup(key), NULL, NULL };
	if (!v->path || !v->var || !v->key) {
		free(v->path);
		free(v->var);
		free(v->key);
		return NULL;
	}
	rec->nk++;
	*ret_new = true;
	return v;
}

static int record_key(struct boot_record *rec, const char *path, const char *var,
		      const char *tok, char *const *before, char *const *after)
{
	const char *k;
	size_t n = halo_kernel_param_key(tok, &k);
	_cleanup_free_ char *key = strndup(k, n);
	_cleanup_strv_free_ char **b = NULL, **a = NULL;
	struct boot_rec_key *e;
	bool fresh;

	if (!key)
		return -ENOMEM;
	b = with_key(before, key);
	a = with_key(after, key);
	if (!a || !b)
		return -ENOMEM;
	if (halo_cmdline_equal(a, b))
		return 0;
	e = key_entry(rec, path, var, key, &fresh);
	if (!e)
		return -ENOMEM;
	halo_strv_free(e->ours);
	e->ours = TAKE_PTR(a);
	if (fresh)
		e->was = TAKE_PTR(b);
	return 0;
}

int boot_record_change(struct boot_record *rec, const char *path, const char *var,
		       const char *raw, char *const *before, char *const *after)
{
	int r = 0;

	if (halo_cmdline_equal(before, after))
		return 0;
	if (!boot_record_orig(rec, path, var)) {
		struct boot_rec_orig *v = realloc(rec->o, (rec->no + 1) * sizeof(*v));
		struct boot_rec_orig o = { strdup(path), strdup(var), raw ? strdup(raw) : NULL, NULL };

		if (v)
			rec->o = v;
		if (!v || !o.path || !o.var || (raw && !o.raw) || copy_tokens(before, &o.tokens) < 0) {
			free(o.path);
			free(o.var);
			free(o.raw);
			return -ENOMEM;
		}
		rec->o[rec->no++] = o;
	}
	for (size_t i = 0; after[i] && r >= 0; i++)
		r = record_key(rec, path, var, after[i], before, after);
	for (size_t i = 0; before[i] && r >= 0; i++)
		r = record_key(rec, path, var, before[i], before, after);
	return r;
}

int boot_record_undo(const struct boot_record *rec, const char *path, const char *var,
		     char *const *cur, char ***ret_tokens, bool *ret_undone)
{
	_cleanup_strv_free_ char **out = NULL;
	bool all = true;

	if (copy_tokens(cur, &out) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < rec->nk; i++) {
		const struct boot_rec_key *e = &rec->k[i];
		_cleanup_strv_free_ char **c = NULL, **next = NULL;
		char *const none[] = { NULL };
		char *rm[] = { e->key, NULL };

		if (!same_place(e->path, e->var, path, var))
			continue;
		c = with_key(out, e->key);
		if (!c)
			return -ENOMEM;
		if (!halo_cmdline_equal(c, e->ours)) {
			all = false; /* changed since: the operator's now */
			continue;
		}
		/* merge puts "was" in place of the first token of the key,
		 * or appends it; with no "was", the key goes. */
		if (halo_cmdline_merge(out, e->was[0] ? e->was : none,
				       e->was[0] ? none : rm, &next) < 0)
			return -ENOMEM;
		halo_strv_free(out);
		out = TAKE_PTR(next);
	}
	*ret_tokens = TAKE_PTR(out);
	if (ret_undone)
		*ret_undone = all;
	return 0;
}

static int strcmp_p(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

bool boot_tokens_same_set(char *const *a, char *const *b)
{
	_cleanup_strv_free_ char **x = NULL, **y = NULL;
	size_t n = halo_strv_len(a);

	if (n != halo_strv_len(b) || copy_tokens(a, &x) < 0 || copy_tokens(b, &y) < 0)
		return false;
	qsort(x, n, sizeof(char *), strcmp_p);
	qsort(y, n, sizeof(char *), strcmp_p);
	return halo_cmdline_equal(x, y);
}
