/* SPDX-License-Identifier: GPL-2.0-or-later */
/* render-test.h: what the unit tests of a rendered file compare. */
#pragma once

#include <string.h>

/* The lines of TEXT that a program reads: comments ('#' first) and blank
 * lines dropped, each ended by '\n'. A static buffer, overwritten by the
 * next call. */
static inline char *rendered_lines(const char *text)
{
	static char buf[2048];
	const char *p = text;

	buf[0] = '\0';
	while (*p) {
		size_t n = strcspn(p, "\n");

		if (n && p[0] != '#')
			strncat(buf, p, n), strcat(buf, "\n");
		p += n + (p[n] == '\n');
	}
	return buf;
}
