/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * syntax-hint.c: what most likely made libconfig say only "syntax error"
 * on a line: the mistakes people make writing libconfig by hand. Each
 * needs the line alone (and, for a trailing comma, the text before it).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "config/lex.h"

static bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '*' || c == '.';
}

static bool word_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* A closer on the line whose element before it, across blank space and
 * lines, ends with ',': "[ "a", ]". */
static bool comma_before(const char *text, const char *closer)
{
	const char *q = closer;

	while (q > text && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\n' || q[-1] == '\r'))
		q--;
	return q > text && q[-1] == ',';
}

const char *halo_config_syntax_hint(const char *text, int line, char *buf, size_t size)
{
	const char *eol, *s = halo_config_line(text, line, &eol);

	if (!s)
		return NULL;
	while (s < eol) {
		const char *start, *q, *past = halo_config_line_skip(s, eol);

		/* no mistake in a string; a comment ends the line */
		if (past != s) {
			s = past;
			continue;
		}
		if ((*s == ']' || *s == ')') && comma_before(text, s)) {
			snprintf(buf, size, "a ',' before '%c': libconfig takes none after the last element",
				 *s);
			return buf;
		}
		if (*s == ';') {
			for (q = s + 1; q < eol && (*q == ' ' || *q == '\t'); q++)
				;
			if (q < eol && *q == ';') {
				snprintf(buf, size, "';;': one ';' ends a setting");
				return buf;
			}
		}
		if (!word_start(*s) || (s > text && word_char(s[-1]))) {
			s++;
			continue;
		}
		/* A word that names no setting (no '=' or ':' after it) is a
		 * value, and the only bare values are true and false. */
		start = s;
		while (s < eol && word_char(*s))
			s++;
		for (q = s; q < eol && (*q == ' ' || *q == '\t'); q++)
			;
		if (q < eol && (*q == '=' || *q == ':'))
			continue;
		if ((s - start == 4 && strncasecmp(start, "true", 4) == 0) ||
		    (s - start == 5 && strncasecmp(start, "false", 5) == 0))
			continue;
		snprintf(buf, size, "%.*s is not quoted: strings are in double quotes (\"%.*s\")",
			 (int)(s - start > 40 ? 40 : s - start), start,
			 (int)(s - start > 40 ? 40 : s - start), start);
		return buf;
	}
	return NULL;
}
