/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report.c: the messages of a load (report.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "config/message.h"
#include "config/report.h"
#include "util/strv.h"

void halo_perr(struct halo_pctx *p, int line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* One line per error, whatever a value contained. */
	for (char *c = msg; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
	if (p->line_paths) {
		_cleanup_free_ char *full = halo_strdup_printf("%s:%d: %s", p->file, line, msg);
		_cleanup_free_ char *shown = full ? halo_config_paths_rewrite(
			p->line_paths, p->n_line_paths, p->file, full) : NULL;

		if (shown) {
			halo_errors_add(p->errs, "%s", shown);
			return;
		}
		p->oom = true;
	}
	halo_errors_add(p->errs, "%s:%d: %s", p->file, line, msg);
}

const char *halo_pquote(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	if (len < 10) {
		if (len)
			buf[0] = '\0';
		return buf;
	}
	buf[o++] = '"';
	/* Room for the longest escape (4), "...", the quote and the NUL. */
	for (; *s && o + 9 <= len; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			buf[o++] = '\\';
			buf[o++] = (char)c;
		} else if (c < 0x20 || c == 0x7f) {
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x", c);
		} else {
			buf[o++] = (char)c;
		}
	}
	if (*s) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o++] = '"';
	buf[o] = '\0';
	return buf;
}

/* Appends N bytes of S at *O in BUF (LEN bytes), as snprintf would: what
 * does not fit is dropped, and BUF stays NUL-terminated. */
static void put(char *buf, size_t len, size_t *o, const char *s, size_t n)
{
	if (*o + 1 >= len)
		return;
	if (n > len - 1 - *o)
		n = len - 1 - *o;
	memcpy(buf + *o, s, n);
	*o += n;
	buf[*o] = '\0';
}

/* Built for every key the walk reads, before any error: by hand, as
 * snprintf's formatting machinery costs more than the rest of the walk. */
const char *halo_pkey(char *buf, size_t len, const char *path, const char *key, long idx)
{
	size_t o = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	put(buf, len, &o, path, strlen(path));
	if (key) {
		if (*path)
			put(buf, len, &o, ".", 1);
		put(buf, len, &o, key, strlen(key));
	} else {
		char digits[24], *d = digits + sizeof(digits);
		unsigned long v = idx < 0 ? 0UL - (unsigned long)idx : (unsigned long)idx;

		*--d = ']';
		do
			*--d = (char)('0' + v % 10);
		while (v /= 10);
		if (idx < 0)
			*--d = '-';
		*--d = '[';
		put(buf, len, &o, d, (size_t)(digits + sizeof(digits) - d));
	}
	return buf;
}
