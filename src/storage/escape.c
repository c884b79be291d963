/* SPDX-License-Identifier: GPL-2.0-or-later */
/* escape.c: systemd's and udev's names for paths and labels (escape.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "storage/escape.h"
#include "util/strv.h"

/* systemd's UNIT_NAME_MAX (256) includes the NUL. */
#define UNIT_NAME_MAX_LEN 255

static bool unit_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == ':' || c == '_' || c == '.';
}

static void put_hex(struct halo_buf *b, unsigned char c)
{
	halo_buf_printf(b, "\\x%02x", c);
}

int halo_mount_unit_name(const char *path, char **ret)
{
	struct halo_buf b = { 0 };
	const char *p = path;
	char *s;

	if (path[0] != '/' || strstr(path, "//") || strstr(path, "/./") ||
	    strstr(path, "/../"))
		return -EINVAL;
	if (strcmp(path, "/") == 0) {
		s = strdup("-.mount");
		goto out;
	}
	while (*p == '/')
		p++;
	if (strcmp(p, ".") == 0 || strcmp(p, "..") == 0 ||
	    (strlen(p) >= 2 && strcmp(p + strlen(p) - 2, "/.") == 0) ||
	    (strlen(p) >= 3 && strcmp(p + strlen(p) - 3, "/..") == 0) ||
	    p[strlen(p) - 1] == '/')
		return -EINVAL;
	/* No unit name starts with "." (a "/.dotdir" mount point). */
	if (*p == '.')
		put_hex(&b, (unsigned char)*p++);
	for (; *p; p++) {
		if (*p == '/')
			halo_buf_puts(&b, "-");
		else if (unit_char(*p))
			halo_buf_append(&b, p, 1);
		else
			put_hex(&b, (unsigned char)*p);
	}
	halo_buf_puts(&b, ".mount");
	s = halo_buf_steal(&b);
out:
	if (!s)
		return -ENOMEM;
	if (strlen(s) > UNIT_NAME_MAX_LEN) {
		free(s);
		return -ENAMETOOLONG;
	}
	*ret = s;
	return 0;
}

/* The length of the valid UTF-8 sequence of at least two bytes at S,
 * 0 if there is none. */
static size_t utf8_seq(const unsigned char *s)
{
	size_t n;
	unsigned cp;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and beyond U+10FFFF are invalid. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

char *halo_udev_encode(const char *s)
{
	struct halo_buf b = { 0 };
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = utf8_seq(p);

		if (n) {
			halo_buf_append(&b, (const char *)p, n);
			p += n;
			continue;
		}
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("#+-.:=@_", *p))
			halo_buf_append(&b, (const char *)p, 1);
		else
			put_hex(&b, *p);
		p++;
	}
	return halo_buf_steal(&b);
}

char *halo_specifier_escape(const char *s)
{
	struct halo_buf b = { 0 };

	for (; *s; s++)
		halo_buf_append(&b, *s == '%' ? "%%" : s, *s == '%' ? 2 : 1);
	return halo_buf_steal(&b);
}
