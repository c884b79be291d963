/* SPDX-License-Identifier: GPL-2.0-or-later */
/* strv.c: string vectors, the growable buffer, names, hex digits, keyword
 * lookup and suggestion. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "util/strv.h"

void halo_strv_free(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

size_t halo_strv_len(char *const *v)
{
	size_t n = 0;

	if (v)
		while (v[n])
			n++;
	return n;
}

int halo_strv_push(char ***v, const char *s)
{
	size_t n = halo_strv_len(*v);
	char *copy = strdup(s);
	char **nv;

	if (!copy)
		return -ENOMEM;
	/* realloc keeps *v valid on failure, so V is unchanged on -ENOMEM. */
	nv = realloc(*v, (n + 2) * sizeof(*nv));
	if (!nv) {
		free(copy);
		return -ENOMEM;
	}
	nv[n] = copy;
	nv[n + 1] = NULL;
	*v = nv;
	return 0;
}

bool halo_strv_contains(char *const *v, const char *s)
{
	if (!v || !s)
		return false;
	for (; *v; v++)
		if (strcmp(*v, s) == 0)
			return true;
	return false;
}

static bool buf_reserve(struct halo_buf *b, size_t extra)
{
	size_t need, cap;
	char *p;

	if (b->oom)
		return false;
	if (extra > SIZE_MAX - b->len - 1)
		goto oom;
	need = b->len + extra + 1;
	if (need <= b->cap)
		return true;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	p = realloc(b->data, cap);
	if (!p)
		goto oom;
	b->data = p;
	b->cap = cap;
	return true;
oom:
	b->oom = true;
	return false;
}

void halo_buf_append(struct halo_buf *b, const char *s, size_t n)
{
	if (!buf_reserve(b, n))
		return;
	if (n)
		memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void halo_buf_puts(struct halo_buf *b, const char *s)
{
	halo_buf_append(b, s, strlen(s));
}

/* Most formats in the tree are text and a few plain "%s" ("%s", "%s/%s",
 * "/sys/module/%s"): copying those costs a tenth of the printf machinery.
 * False, with B untouched, for anything else and for a NULL string (printf
 * prints "(null)"): vsnprintf does those. */
static bool buf_append_strings(struct halo_buf *b, const char *fmt, va_list ap)
{
	const char *arg[8], *p, *pct;
	size_t arg_len[ARRAY_SIZE(arg)], n = 0, total = strlen(fmt);
	char *out;

	for (p = fmt; (pct = strchr(p, '%')); p = pct + 2) {
		if (pct[1] != 's' || n == ARRAY_SIZE(arg))
			return false;
		arg[n] = va_arg(ap, const char *);
		if (!arg[n])
			return false;
		arg_len[n] = strlen(arg[n]);
		total = total - 2 + arg_len[n]; /* the "%s" is in TOTAL */
		n++;
	}
	if (!buf_reserve(b, total))
		return true;
	out = b->data + b->len;
	p = fmt;
	for (size_t i = 0; i < n; i++) {
		pct = strchr(p, '%');
		memcpy(out, p, (size_t)(pct - p));
		out += pct - p;
		memcpy(out, arg[i], arg_len[i]);
		out += arg_len[i];
		p = pct + 2;
	}
	strcpy(out, p);
	b->len += total;
	return true;
}

void halo_buf_vprintf(struct halo_buf *b, const char *fmt, va_list ap)
{
	va_list aq;
	size_t room;
	bool done;
	int n;

	if (b->oom)
		return;
	va_copy(aq, ap);
	done = buf_append_strings(b, fmt, aq);
	va_end(aq);
	if (done)
		return;
	/* One pass when the text fits the room left, two when it does not. */
	if (!buf_reserve(b, 63))
		return;
	room = b->cap - b->len;
	va_copy(aq, ap);
	n = vsnprintf(b->data + b->len, room, fmt, aq);
	va_end(aq);
	if (n >= 0 && (size_t)n >= room && buf_reserve(b, (size_t)n))
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	if (n < 0)
		b->oom = true;
	if (b->oom) {
		b->data[b->len] = '\0';
		return;
	}
	b->len += (size_t)n;
}

void halo_buf_printf(struct halo_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	halo_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

char *halo_buf_steal(struct halo_buf *b)
{
	char *s;

	if (b->oom) {
		halo_buf_free(b);
		return NULL;
	}
	/* An untouched buffer still yields "", never NULL. */
	if (!buf_reserve(b, 0))
		return NULL;
	b->data[b->len] = '\0';
	s = b->data;
	*b = (struct halo_buf){ 0 };
	return s;
}

void halo_buf_free(struct halo_buf *b)
{
	free(b->data);
	*b = (struct halo_buf){ 0 };
}

char *halo_strdup_vprintf(const char *fmt, va_list ap)
{
	struct halo_buf b = { 0 };

	halo_buf_vprintf(&b, fmt, ap);
	return halo_buf_steal(&b);
}

char *halo_strdup_printf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = halo_strdup_vprintf(fmt, ap);
	va_end(ap);
	return s;
}

size_t halo_strjoin(char *buf, size_t size, ...)
{
	size_t total = 0;
	const char *s;
	va_list ap;

	va_start(ap, size);
	while ((s = va_arg(ap, const char *))) {
		size_t n = strlen(s);

		if (total < size)
			memcpy(buf + total, s, n < size - 1 - total ? n : size - 1 - total);
		total += n;
	}
	va_end(ap);
	if (size)
		buf[total < size ? total : size - 1] = '\0';
	return total;
}

void halo_name_normalize(char *s)
{
	for (; *s; s++)
		if (*s == '-')
			*s = '_';
}

bool halo_name_eq(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((a[i] == '-' ? '_' : a[i]) != (b[i] == '-' ? '_' : b[i]))
			return false;
	return true;
}

int halo_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int halo_keyword_index(const char *const *table, const char *word)
{
	if (!table || !word)
		return -1;
	for (int i = 0; table[i]; i++)
		if (strcmp(table[i], word) == 0)
			return i;
	return -1;
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t row[64];

	if (la >= ARRAY_SIZE(row) || lb >= ARRAY_SIZE(row))
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char *halo_suggest(const char *word, const char *const *candidates)
{
	const char *best = NULL;
	size_t best_d = SIZE_MAX, len = strlen(word);

	for (size_t i = 0; candidates[i]; i++) {
		size_t d;

		if (strcasecmp(word, candidates[i]) == 0)
			return candidates[i];
		d = edit_distance(word, candidates[i]);
		if (d < best_d) {
			best_d = d;
			best = candidates[i];
		}
	}
	/* Two edits at most, and fewer than the word has letters. */
	return best_d <= 2 && best_d < len ? best : NULL;
}
