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

/* One conversion of a format: where it is, and the text it makes. */
struct conv {
	const char *start, *end;
	const char *text;
	size_t len;
	char digits[24]; /* a 64-bit octal number, or a width of 20 */
};

/* Takes the conversion at P (a '%') and its argument: "%%", a plain "%s",
 * and d, u, x, o with l or z (not zd), a 0 flag and a width up to 20.
 * False for anything else, and for a NULL string (printf's "(null)"). */
static bool take_conv(struct conv *c, const char *p, va_list *ap)
{
	char *const end = c->digits + sizeof(c->digits), *out = end;
	unsigned long long v;
	unsigned width = 0, base = 10;
	bool zero = false, neg = false;
	char mod = 0;

	c->start = p++;
	if (*p == '%' || *p == 's') {
		c->text = *p == '%' ? "%" : va_arg(*ap, const char *);
		c->end = p + 1;
		if (!c->text)
			return false;
		c->len = strlen(c->text);
		return true;
	}
	if (*p == '0') {
		zero = true;
		p++;
	}
	while (*p >= '0' && *p <= '9')
		if ((width = width * 10 + (unsigned)(*p++ - '0')) > 20)
			return false;
	if (*p == 'l' || *p == 'z')
		mod = *p++;
	if (*p == 'd' && mod != 'z') {
		long long sv = mod == 'l' ? va_arg(*ap, long) : va_arg(*ap, int);

		neg = sv < 0;
		v = neg ? 0ull - (unsigned long long)sv : (unsigned long long)sv;
	} else if (*p == 'u' || *p == 'x' || *p == 'o') {
		base = *p == 'u' ? 10 : *p == 'x' ? 16 : 8;
		v = mod == 'l' ? va_arg(*ap, unsigned long) :
		    mod == 'z' ? va_arg(*ap, size_t) : va_arg(*ap, unsigned);
	} else {
		return false;
	}
	c->end = p + 1;
	do {
		*--out = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (zero && (size_t)(end - out) + neg < width)
		*--out = '0';
	if (neg)
		*--out = '-';
	while ((size_t)(end - out) < width)
		*--out = ' ';
	c->text = out;
	c->len = (size_t)(end - out);
	return true;
}

/* Most formats in the tree are text with a few "%s" and plain numbers
 * ("%s", "%s/%s", "%u", "mode %04o, %zu bytes"): making those here costs
 * a fraction of the printf machinery. False, with B untouched, for any
 * other format: vsnprintf does those. */
static bool buf_append_simple(struct halo_buf *b, const char *fmt, va_list *ap)
{
	struct conv conv[8];
	const char *p, *pct;
	size_t n = 0, total = 0;
	char *out;

	for (p = fmt; (pct = strchr(p, '%')); p = conv[n++].end) {
		if (n == ARRAY_SIZE(conv) || !take_conv(&conv[n], pct, ap))
			return false;
		total += (size_t)(pct - p) + conv[n].len;
	}
	total += strlen(p);
	if (!buf_reserve(b, total))
		return true;
	out = b->data + b->len;
	p = fmt;
	for (size_t i = 0; i < n; i++) {
		memcpy(out, p, (size_t)(conv[i].start - p));
		out += conv[i].start - p;
		memcpy(out, conv[i].text, conv[i].len);
		out += conv[i].len;
		p = conv[i].end;
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
	done = buf_append_simple(b, fmt, &aq);
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
