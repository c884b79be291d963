/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lex.c: a text pass before libconfig sees the file, for two things
 * libconfig 1.5 gets wrong for us:
 *  - `@include "file"` makes it open another file by name, bypassing the
 *    ownership check done on our descriptor: refused here;
 *  - an integer literal beyond 32 bits (without an L suffix) or 64 bits is
 *    silently wrapped (99999999999 reads as 1215752191): reported here, and
 *    the schema walk stays quiet about the wrapped value on that line.
 * Strings and comments are skipped the way libconfig's scanner does.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/lex.h"
#include "util/strv.h"

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '*' || c == '-' || c == '.';
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Checks the number starting at S (after any sign); returns its length. */
static size_t check_number(struct halo_pctx *p, const char *s, const char *end,
			   bool negative, int line, bool *ret_bad)
{
	const char *q = s;
	bool hex = false, is_long = false;
	uint64_t v = 0;
	bool overflow = false;

	*ret_bad = false;
	if (end - q > 1 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
		hex = true;
		q += 2;
		while (q < end && halo_hex_digit(*q) >= 0) {
			overflow |= v > (UINT64_MAX >> 4);
			v = v << 4 | (unsigned)halo_hex_digit(*q);
			q++;
		}
	} else {
		while (q < end && is_digit(*q)) {
			unsigned d = (unsigned)(*q - '0');

			overflow |= v > (UINT64_MAX - d) / 10;
			v = v * 10 + d;
			q++;
		}
		/* A float: libconfig reads it as a double, no wrap. */
		if (q < end && (*q == '.' || *q == 'e' || *q == 'E'))
			return (size_t)(q - s);
	}
	if (q < end && *q == 'L') {
		is_long = true;
		q++;
		if (q < end && *q == 'L')
			q++;
	}
	{
		uint64_t lim = is_long ? (uint64_t)INT64_MAX : (uint64_t)INT32_MAX;

		/* -2147483648 fits; hex literals are unsigned bit patterns. */
		if (negative && !hex)
			lim++;
		if (overflow || v > lim) {
			char lit[64];
			size_t n = (size_t)(q - s) < sizeof(lit) - 2 ? (size_t)(q - s) : sizeof(lit) - 2;

			lit[0] = '-';
			memcpy(lit + 1, s, n);
			lit[n + 1] = '\0';
			if (is_long)
				halo_perr(p, line, "integer %s does not fit in 64 bits",
					  negative ? lit : lit + 1);
			else
				halo_perr(p, line, "integer %s does not fit in 32 bits "
					  "(libconfig would silently wrap it; append L for a 64-bit integer)",
					  negative ? lit : lit + 1);
			*ret_bad = true;
		}
	}
	return (size_t)(q - s);
}

static int push_line(int **v, size_t *n, int line)
{
	int *nv;

	if (*n && (*v)[*n - 1] == line)
		return 0;
	nv = realloc(*v, (*n + 1) * sizeof(int));
	if (!nv)
		return -ENOMEM;
	nv[(*n)++] = line;
	*v = nv;
	return 0;
}

/* libconfig takes ^[ \t]*@include as a directive; refuse it on any line,
 * even inside a comment or string where it would be inert, so the rule
 * does not depend on the scanner's start conditions. */
static size_t scan_includes(struct halo_pctx *p, const char *text, size_t len)
{
	const char *s = text, *end = text + len;
	int line = 1;
	size_t n = 0;

	while (s < end) {
		const char *eol = memchr(s, '\n', (size_t)(end - s));

		if (!eol)
			eol = end;
		while (s < eol && (*s == ' ' || *s == '\t'))
			s++;
		if ((size_t)(eol - s) >= 8 && memcmp(s, "@include", 8) == 0) {
			halo_perr(p, line, "@include is not allowed (an included file "
				  "would bypass the config file's ownership check)");
			n++;
		}
		if (eol == end)
			break;
		s = eol + 1;
		line++;
	}
	return n;
}

/* The bytes the prescan below stops at: line ends and what may start a
 * comment, a string or a number. Any other byte is stepped over with one
 * look-up instead of five comparisons. */
static const bool prescan_stop[256] = {
	['\n'] = true, ['#'] = true, ['/'] = true, ['"'] = true,
	['0'] = true, ['1'] = true, ['2'] = true, ['3'] = true, ['4'] = true,
	['5'] = true, ['6'] = true, ['7'] = true, ['8'] = true, ['9'] = true,
};

size_t halo_config_prescan(struct halo_pctx *p, const char *text, size_t len,
			   int **ret_bad_lines, size_t *ret_n, bool *ret_comment_open)
{
	const char *s = text, *end = text + len;
	int line = 1;
	int *bad = NULL;
	size_t nbad = 0;
	bool comment_open = false;

	size_t includes = scan_includes(p, text, len);

	while (s < end) {
		char c;

		while (s < end && !prescan_stop[(unsigned char)*s])
			s++;
		if (s == end)
			break;
		c = *s;
		if (c == '\n') {
			line++;
			s++;
			continue;
		}
		if (c == '#' || (c == '/' && s + 1 < end && s[1] == '/')) {
			while (s < end && *s != '\n')
				s++;
			continue;
		}
		if (c == '/' && s + 1 < end && s[1] == '*') {
			s += 2;
			while (s < end && !(*s == '*' && s + 1 < end && s[1] == '/')) {
				if (*s == '\n')
					line++;
				s++;
			}
			comment_open = s >= end;
			s = s < end ? s + 2 : end;
			continue;
		}
		if (c == '"') {
			s++;
			while (s < end && *s != '"') {
				if (*s == '\\' && s + 1 < end)
					s++;
				if (*s == '\n')
					line++;
				s++;
			}
			s = s < end ? s + 1 : end;
			continue;
		}
		if (is_digit(c) && (s == text || !name_char(s[-1]) ||
				    ((s[-1] == '-' || s[-1] == '+') &&
				     (s - 1 == text || !name_char(s[-2]))))) {
			bool negative = s > text && s[-1] == '-';
			bool bad_here;

			s += check_number(p, s, end, negative, line, &bad_here);
			if (bad_here && push_line(&bad, &nbad, line) < 0)
				p->oom = true;
			continue;
		}
		s++;
	}
	*ret_bad_lines = bad;
	*ret_n = nbad;
	*ret_comment_open = comment_open;
	return includes;
}

static bool name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '*';
}

const char *halo_config_line(const char *text, int line, const char **ret_eol)
{
	const char *s = text;

	for (int l = 1; l < line && s; l++) {
		s = strchr(s, '\n');
		s = s ? s + 1 : NULL;
	}
	if (!s)
		return NULL;
	*ret_eol = strchr(s, '\n');
	if (!*ret_eol)
		*ret_eol = s + strlen(s);
	return s;
}

const char *halo_config_line_skip(const char *s, const char *eol)
{
	if (*s == '#' || (*s == '/' && (s[1] == '/' || s[1] == '*')))
		return eol;
	if (*s != '"')
		return s;
	for (s++; s < eol && *s != '"'; s++)
		if (*s == '\\' && s + 1 < eol)
			s++;
	return s < eol ? s + 1 : eol;
}

int halo_config_line_setting(const char *text, int line, char *buf, size_t len)
{
	const char *eol, *s = halo_config_line(text, line, &eol);
	int found = 0;

	if (!s)
		return 0;
	while (s < eol) {
		const char *start, *q, *past = halo_config_line_skip(s, eol);

		/* strings: "a = b" is not a setting; comments end the line */
		if (past != s) {
			s = past;
			continue;
		}
		if (!name_start(*s) || (s > text && name_char(s[-1]))) {
			s++;
			continue;
		}
		start = s;
		while (s < eol && name_char(*s) && *s != '.')
			s++;
		q = s;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		if (q < eol && (*q == '=' || *q == ':')) {
			if (found++ == 0)
				snprintf(buf, len, "%.*s", (int)(s - start), start);
		}
	}
	return found;
}

/* Deeper nesting than any config has: which bracket is open is then left
 * to libconfig's own message (a comment or string still is not). */
#define BRACKETS_MAX_DEPTH 128

/* What one pass over the brackets found: OPEN, on OPEN_LINE, is the
 * innermost '{', '[' or '(' left open at the end ('"' for a string, '*'
 * for a comment), or the one CLOSER, on CLOSE_LINE, closed wrongly (the
 * pass stops there). OPEN 0: neither, or nothing it can follow. */
struct bracket_scan {
	char open, closer;
	int open_line, close_line;
};

static struct bracket_scan scan_brackets(const char *text, size_t len)
{
	const char *s = text, *end = text + len;
	char open[BRACKETS_MAX_DEPTH];
	int open_line[BRACKETS_MAX_DEPTH];
	size_t depth = 0;
	bool too_deep = false;
	int line = 1;

	while (s < end) {
		char c = *s;
		int start = line;

		if (c == '\n') {
			line++;
			s++;
		} else if (c == '#' || (c == '/' && s + 1 < end && s[1] == '/')) {
			while (s < end && *s != '\n')
				s++;
		} else if (c == '/' && s + 1 < end && s[1] == '*') {
			for (s += 2; s < end && !(*s == '*' && s + 1 < end && s[1] == '/'); s++)
				line += *s == '\n';
			if (s >= end)
				return (struct bracket_scan){ .open = '*', .open_line = start };
			s += 2;
		} else if (c == '"') {
			for (s++; s < end && *s != '"'; s++) {
				if (*s == '\\' && s + 1 < end)
					s++;
				line += *s == '\n';
			}
			if (s >= end)
				return (struct bracket_scan){ .open = '"', .open_line = start };
			s++;
		} else if (too_deep) {
			s++;
		} else if (c == '{' || c == '[' || c == '(') {
			if (depth == BRACKETS_MAX_DEPTH) {
				too_deep = true;
				continue;
			}
			open[depth] = c;
			open_line[depth++] = line;
			s++;
		} else if (c == '}' || c == ']' || c == ')') {
			char want = c == '}' ? '{' : c == ']' ? '[' : '(';

			/* A closer with nothing open: libconfig's to say. */
			if (depth == 0)
				return (struct bracket_scan){ 0 };
			if (open[depth - 1] != want)
				return (struct bracket_scan){ .open = open[depth - 1], .closer = c,
							      .open_line = open_line[depth - 1],
							      .close_line = line };
			depth--;
			s++;
		} else {
			s++;
		}
	}
	if (depth == 0 || too_deep)
		return (struct bracket_scan){ 0 };
	return (struct bracket_scan){ .open = open[depth - 1], .open_line = open_line[depth - 1] };
}

char halo_config_unclosed(const char *text, size_t len, int *ret_line)
{
	struct bracket_scan b = scan_brackets(text, len);

	if (!b.open || b.closer)
		return 0;
	*ret_line = b.open_line;
	return b.open;
}

char halo_config_mismatched(const char *text, size_t len, int *ret_open_line, char *ret_closer,
			    int *ret_close_line)
{
	struct bracket_scan b = scan_brackets(text, len);

	if (!b.closer)
		return 0;
	*ret_open_line = b.open_line;
	*ret_closer = b.closer;
	*ret_close_line = b.close_line;
	return b.open;
}
