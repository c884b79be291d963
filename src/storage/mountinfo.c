/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mountinfo.c: the mount at a path, from /proc/self/mountinfo text. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "storage/mountinfo.h"

void halo_mount_free(struct halo_mount *m)
{
	free(m->fstype);
	free(m->source);
	m->fstype = m->source = NULL;
}

/* The field of N bytes at S with the kernel's octal escapes undone. */
static char *unescape(const char *s, size_t n)
{
	char *out = malloc(n + 1), *o = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 3 < n && s[i + 1] >= '0' && s[i + 1] <= '3' &&
		    s[i + 2] >= '0' && s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
			*o++ = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
			i += 3;
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	return out;
}

struct field {
	const char *s;
	size_t n;
};

/* Splits LINE (N bytes) at spaces into at most MAX fields. */
static size_t split(const char *line, size_t n, struct field *f, size_t max)
{
	size_t k = 0, i = 0;

	while (i < n && k < max) {
		size_t start;

		while (i < n && line[i] == ' ')
			i++;
		if (i >= n)
			break;
		start = i;
		while (i < n && line[i] != ' ')
			i++;
		f[k].s = line + start;
		f[k].n = i - start;
		k++;
	}
	return k;
}

static bool field_is(const struct field *f, const char *s)
{
	return f->n == strlen(s) && memcmp(f->s, s, f->n) == 0;
}

/* One line: 1 when it mounts at WHERE (and *RET is replaced), 0 if not. */
static int parse_line(const char *line, size_t n, const char *where,
		      struct halo_mount *ret)
{
	struct field f[64];
	size_t k = split(line, n, f, ARRAY_SIZE(f)), sep;
	_cleanup_free_ char *point = NULL;
	struct halo_mount m = { 0 };
	char num[32];

	if (k == 0)
		return 0; /* blank line */
	/* ID PARENT MAJ:MIN ROOT POINT OPTIONS, the separator, 3 more. */
	for (sep = 6; sep < k && !field_is(&f[sep], "-"); sep++)
		;
	if (sep + 3 >= k || f[2].n >= sizeof(num))
		return -EBADMSG;
	memcpy(num, f[2].s, f[2].n);
	num[f[2].n] = '\0';
	if (sscanf(num, "%u:%u", &m.major, &m.minor) != 2)
		return -EBADMSG;
	point = unescape(f[4].s, f[4].n);
	if (!point)
		return -ENOMEM;
	if (strcmp(point, where) != 0)
		return 0;
	m.fstype = unescape(f[sep + 1].s, f[sep + 1].n);
	m.source = unescape(f[sep + 2].s, f[sep + 2].n);
	if (!m.fstype || !m.source) {
		halo_mount_free(&m);
		return -ENOMEM;
	}
	halo_mount_free(ret);
	*ret = m;
	return 1;
}

int halo_mountinfo_find(const char *text, const char *where,
			struct halo_mount *ret)
{
	struct halo_mount m = { 0 };
	bool found = false;

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		int r = parse_line(p, n, where, &m);

		if (r < 0) {
			halo_mount_free(&m);
			return r;
		}
		if (r)
			found = true;
		p += n + (nl ? 1 : 0);
	}
	if (!found)
		return 0;
	*ret = m;
	return 1;
}
