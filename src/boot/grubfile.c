/* SPDX-License-Identifier: GPL-2.0-or-later */
/* grubfile.c: shell-syntax scanner and in-place editor (see grubfile.h). */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "boot/grubfile.h"
#include "util/strv.h"

struct scan {
	const char *t;
	size_t i, len;
	unsigned line;
	unsigned err_line;
};

static bool at_eol(const struct scan *s)
{
	return s->t[s->i] == '\n' ||
	       (s->t[s->i] == '\r' && s->t[s->i + 1] == '\n');
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool ends_word(const struct scan *s)
{
	char c = s->t[s->i];

	return s->i >= s->len || is_blank(c) || at_eol(s) || c == ';' ||
	       c == '&' || c == '|';
}

/*
 * Reads one shell word at s->i. OUT (may be NULL) gets the decoded text
 * with expansion markers. Sets *quoted_only when the word is exactly one
 * quoted string (its quote char), *continued / *multiline as in grubfile.h.
 */
static int read_word(struct scan *s, struct halo_buf *out, char *quoted_only,
		     bool *continued, bool *multiline)
{
	int pieces = 0;
	char first_quote = 0;

	while (!ends_word(s)) {
		char c = s->t[s->i];

		pieces++;
		if (c == '\'') {
			unsigned open_line = s->line;

			first_quote = pieces == 1 ? c : 0;
			s->i++;
			while (s->i < s->len && s->t[s->i] != '\'') {
				/* A run of text, or the newline that ends it. */
				size_t n = strcspn(&s->t[s->i], "'\n");

				if (n == 0) {
					s->line++;
					*multiline = true;
					n = 1;
				}
				if (out)
					halo_buf_append(out, &s->t[s->i], n);
				s->i += n;
			}
			if (s->i >= s->len) {
				s->err_line = open_line;
				return -EINVAL;
			}
			s->i++;
		} else if (c == '"') {
			unsigned open_line = s->line;

			first_quote = pieces == 1 ? c : 0;
			s->i++;
			while (s->i < s->len && s->t[s->i] != '"') {
				/* A run of what stands for itself, appended at once. */
				size_t n = strcspn(&s->t[s->i], "\"\\\n$`");
				char d = s->t[s->i];

				if (n > 0) {
					if (out)
						halo_buf_append(out, &s->t[s->i], n);
					s->i += n;
					continue;
				}
				if (d == '\\' && s->i + 1 < s->len) {
					char e = s->t[s->i + 1];

					if (e == '\n') {
						*continued = true;
						s->line++;
					} else if (e == '\r' && s->t[s->i + 2] == '\n') {
						*continued = true;
						s->line++;
						s->i++;
					} else if (e == '$' || e == '`' || e == '"' ||
						   e == '\\') {
						if (out)
							halo_buf_append(out, &e, 1);
					} else if (out) {
						halo_buf_append(out, &s->t[s->i], 2);
					}
					s->i += 2;
					continue;
				}
				if (d == '\n') {
					s->line++;
					*multiline = true;
				}
				if (out) {
					char m = d == '$' ? HALO_GRUB_DOLLAR :
						 d == '`' ? HALO_GRUB_BACKQUOTE : d;
					halo_buf_append(out, &m, 1);
				}
				s->i++;
			}
			if (s->i >= s->len) {
				s->err_line = open_line;
				return -EINVAL;
			}
			s->i++;
		} else if (c == '\\') {
			if (s->i + 1 >= s->len) {
				s->i++;
				continue;
			}
			if (s->t[s->i + 1] == '\n' ||
			    (s->t[s->i + 1] == '\r' && s->t[s->i + 2] == '\n')) {
				*continued = true;
				s->line++;
				s->i += s->t[s->i + 1] == '\r' ? 3 : 2;
				continue;
			}
			if (out)
				halo_buf_append(out, &s->t[s->i + 1], 1);
			s->i += 2;
		} else {
			/* A run that cannot end the word or start a quote,
			 * appended at once ('\r' is taken alone). */
			size_t n = strcspn(&s->t[s->i], " \t\r\n;&|'\"\\$`");

			if (n > 0) {
				if (out)
					halo_buf_append(out, &s->t[s->i], n);
				s->i += n;
				continue;
			}
			if (out) {
				char m = c == '$' ? HALO_GRUB_DOLLAR :
					 c == '`' ? HALO_GRUB_BACKQUOTE : c;
				halo_buf_append(out, &m, 1);
			}
			s->i++;
		}
	}
	/* A value "a"b is not one quoted string. */
	*quoted_only = pieces == 1 ? first_quote : 0;
	return 0;
}

/* Skips blanks and, at a word start, a comment. */
static void skip_blanks(struct scan *s)
{
	/* The shell removes backslash-newline before it splits words: a
	 * continuation between words is a blank, and the next line's
	 * assignment is still on this command (found by the grubfile fuzz
	 * target: tests/fuzz/corpus/grubfile/regress-continuation-between-words.grub). */
	for (;;) {
		if (s->i < s->len && is_blank(s->t[s->i])) {
			s->i++;
		} else if (s->i + 1 < s->len && s->t[s->i] == '\\' && s->t[s->i + 1] == '\n') {
			s->i += 2;
			s->line++;
		} else if (s->i + 2 < s->len && s->t[s->i] == '\\' && s->t[s->i + 1] == '\r' &&
			   s->t[s->i + 2] == '\n') {
			s->i += 3;
			s->line++;
		} else {
			break;
		}
	}
	if (s->i < s->len && s->t[s->i] == '#')
		s->i = (size_t)(strchrnul(&s->t[s->i], '\n') - s->t);
}

static size_t name_len(const char *p)
{
	size_t n = 0;

	if (!((p[0] >= 'A' && p[0] <= 'Z') || (p[0] >= 'a' && p[0] <= 'z') ||
	      p[0] == '_'))
		return 0;
	while ((p[n] >= 'A' && p[n] <= 'Z') || (p[n] >= 'a' && p[n] <= 'z') ||
	       (p[n] >= '0' && p[n] <= '9') || p[n] == '_')
		n++;
	return n;
}

static int add_assign(struct halo_grub_file *f, struct halo_grub_assign *a)
{
	struct halo_grub_assign *n =
		realloc(f->assigns, (f->n + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	f->assigns = n;
	f->assigns[f->n++] = *a;
	return 0;
}

/* One command: assignments first, then words up to ; & | or the line end. */
static int scan_command(struct scan *s, struct halo_grub_file *f)
{
	bool cmd_start = true;

	for (;;) {
		char q;
		bool cont = false, ml = false;
		size_t n;
		int r;

		skip_blanks(s);
		if (s->i >= s->len || at_eol(s))
			return 0;
		if (s->t[s->i] == ';' || s->t[s->i] == '&' || s->t[s->i] == '|') {
			s->i++;
			cmd_start = true;
			continue;
		}
		if (cmd_start && strncmp(&s->t[s->i], "export", 6) == 0 &&
		    is_blank(s->t[s->i + 6])) {
			s->i += 6;
			continue;
		}
		n = name_len(&s->t[s->i]);
		if (cmd_start && n > 0 && s->t[s->i + n] == '=') {
			struct halo_grub_assign a = { .line = s->line };
			struct halo_buf b = { 0 };

			a.name = strndup(&s->t[s->i], n);
			s->i += n + 1;
			a.start = s->i;
			halo_buf_puts(&b, "");
			r = read_word(s, &b, &q, &cont, &ml);
			a.value = halo_buf_steal(&b);
			a.end = s->i;
			a.quote = q;
			a.continued = cont;
			a.multiline = ml;
			if (r < 0 || !a.name || !a.value) {
				free(a.name);
				free(a.value);
				return r < 0 ? r : -ENOMEM;
			}
			r = add_assign(f, &a);
			if (r < 0) {
				free(a.name);
				free(a.value);
				return r;
			}
			continue; /* VAR=x VAR2=y cmd: still assignments */
		}
		cmd_start = false;
		r = read_word(s, NULL, &q, &cont, &ml);
		if (r < 0)
			return r;
	}
}

int halo_grubfile_scan(const char *text, struct halo_grub_file *ret,
		       unsigned *ret_err_line)
{
	struct scan s = { .t = text, .len = strlen(text), .line = 1 };
	struct halo_grub_file f = { 0 };
	const char *nl = strchr(text, '\n');

	f.crlf = nl && nl > text && nl[-1] == '\r';
	f.final_newline = s.len == 0 || text[s.len - 1] == '\n';

	while (s.i < s.len) {
		int r = scan_command(&s, &f);

		if (r < 0) {
			halo_grubfile_free(&f);
			if (r == -EINVAL && ret_err_line)
				*ret_err_line = s.err_line;
			return r;
		}
		if (s.i < s.len) { /* at a line end */
			s.i += s.t[s.i] == '\r' ? 2 : 1;
			s.line++;
		}
	}
	*ret = f;
	return 0;
}

void halo_grubfile_free(struct halo_grub_file *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->assigns[i].name);
		free(f->assigns[i].value);
	}
	free(f->assigns);
	*f = (struct halo_grub_file){ 0 };
}

size_t halo_grubfile_count(const struct halo_grub_file *f, const char *name,
			   const struct halo_grub_assign **ret_first,
			   const struct halo_grub_assign **ret_last)
{
	const struct halo_grub_assign *first = NULL, *last = NULL;
	size_t n = 0;

	for (size_t i = 0; i < f->n; i++) {
		if (strcmp(f->assigns[i].name, name) != 0)
			continue;
		if (!first)
			first = &f->assigns[i];
		last = &f->assigns[i];
		n++;
	}
	if (ret_first)
		*ret_first = first;
	if (ret_last)
		*ret_last = last;
	return n;
}

int halo_grubfile_check_editable(const struct halo_grub_file *f,
				 const char *name, char **ret_msg,
				 unsigned *ret_line)
{
	const struct halo_grub_assign *first, *last;
	size_t n = halo_grubfile_count(f, name, &first, &last);

	if (n > 1) {
		*ret_line = last->line;
		*ret_msg = halo_strdup_printf(
			"%s assigned twice (first at line %u); refusing to edit it",
			name, first->line);
		return -EINVAL;
	}
	if (n == 1 && (first->continued || first->multiline)) {
		*ret_line = first->line;
		*ret_msg = halo_strdup_printf(
			"%s spans lines (%s); refusing to edit it", name,
			first->continued ? "backslash line continuation" :
					   "newline inside quotes");
		return -EINVAL;
	}
	return 0;
}

char *halo_grubfile_quote(const char *value, char prefer)
{
	struct halo_buf b = { 0 };

	if (prefer == '\'' && !strpbrk(value, "'\x01\x02")) {
		halo_buf_printf(&b, "'%s'", value);
		return halo_buf_steal(&b);
	}
	halo_buf_puts(&b, "\"");
	for (const char *p = value; *p; p++) {
		switch (*p) {
		case HALO_GRUB_DOLLAR:
			halo_buf_puts(&b, "$");
			break;
		case HALO_GRUB_BACKQUOTE:
			halo_buf_puts(&b, "`");
			break;
		case '"':
		case '\\':
		case '$':
		case '`':
			halo_buf_puts(&b, "\\");
			/* fall through */
		default:
			halo_buf_append(&b, p, 1);
		}
	}
	halo_buf_puts(&b, "\"");
	return halo_buf_steal(&b);
}

int halo_grubfile_set(const char *text, const struct halo_grub_file *f,
		      const struct halo_grub_assign *a, const char *name,
		      const char *encoded, char **ret_text)
{
	struct halo_buf b = { 0 };
	const char *eol = f->crlf ? "\r\n" : "\n";
	char *r;

	if (a) {
		halo_buf_append(&b, text, a->start);
		halo_buf_puts(&b, encoded);
		halo_buf_puts(&b, text + a->end);
	} else {
		size_t n = strlen(text), bs = 0;

		halo_buf_puts(&b, text);
		/* A bare \r at the end must stay part of the last word, not
		 * become half of a CRLF. */
		if (!f->final_newline)
			halo_buf_puts(&b, n && text[n - 1] == '\r' ? "\r\n" : eol);
		/* A last line ending in a continuation would swallow ours:
		 * an empty line ends that command first. */
		if (n && text[n - 1] == '\n')
			n -= n > 1 && text[n - 2] == '\r' ? 2 : 1;
		while (bs < n && text[n - 1 - bs] == '\\')
			bs++;
		if (bs % 2)
			halo_buf_puts(&b, eol);
		halo_buf_printf(&b, "%s=%s%s", name, encoded, eol);
	}
	r = halo_buf_steal(&b);
	if (!r)
		return -ENOMEM;
	*ret_text = r;
	return 0;
}

char *halo_grubfile_expand(const char *value, const char *const *names,
			   const char *const *values)
{
	struct halo_buf b = { 0 };

	halo_buf_puts(&b, "");
	for (const char *p = value; *p;) {
		bool brace = p[1] == '{', done = false;
		const char *nm = p + 1 + brace;
		size_t n;

		if (*p != HALO_GRUB_DOLLAR) {
			/* The text up to the next expansion, as it is. */
			const char *q = strchrnul(p, HALO_GRUB_DOLLAR);

			halo_buf_append(&b, p, (size_t)(q - p));
			p = q;
			continue;
		}
		n = name_len(nm);
		for (size_t i = 0; names[i] && n && !done; i++) {
			if (strlen(names[i]) != n || memcmp(names[i], nm, n) != 0)
				continue;
			if (brace && nm[n] != '}')
				break; /* ${X:-y} and friends: unknown */
			halo_buf_puts(&b, values[i] ? values[i] : "");
			p = nm + n + brace;
			done = true;
		}
		if (!done)
			halo_buf_append(&b, p++, 1);
	}
	return halo_buf_steal(&b);
}

void halo_grubfile_unmark(char *value)
{
	for (char *p = value; *p; p++) {
		if (*p == HALO_GRUB_DOLLAR)
			*p = '$';
		else if (*p == HALO_GRUB_BACKQUOTE)
			*p = '`';
	}
}
