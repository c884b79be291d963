/* SPDX-License-Identifier: GPL-2.0-or-later */
/* group.c: a group name in the root's /etc/group (group.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "files/group.h"
#include "util/rootfs.h"
#include "util/strv.h"

/* One line (not NUL-terminated, LEN bytes): 1 when it names NAME with a
 * numeric GID. */
static int match_line(const char *line, size_t len, const char *name, gid_t *ret_gid)
{
	size_t n = strlen(name);
	const char *pw, *gid, *end = line + len;
	unsigned long v = 0;

	if (len <= n || memcmp(line, name, n) != 0 || line[n] != ':')
		return 0;
	pw = line + n + 1;
	gid = memchr(pw, ':', (size_t)(end - pw));
	if (!gid)
		return 0;
	gid++;
	if (gid == end || *gid == ':')
		return 0;
	for (; gid < end && *gid != ':'; gid++) {
		if (*gid < '0' || *gid > '9' || v > 0xffffffffUL / 10)
			return 0;
		v = v * 10 + (unsigned long)(*gid - '0');
	}
	/* (gid_t)-1 is "no group"; the members field may be missing. */
	if (v >= 0xffffffffUL)
		return 0;
	if (ret_gid)
		*ret_gid = (gid_t)v;
	return 1;
}

int halo_group_find(const char *text, const char *name, gid_t *ret_gid)
{
	if (!name[0])
		return 0;
	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);

		if (match_line(l, len, name, ret_gid))
			return 1;
		if (!nl)
			break;
		l = nl + 1;
	}
	return 0;
}

int halo_group_lookup(const struct halo_ctx *ctx, const char *name, gid_t *ret_gid)
{
	_cleanup_free_ char *text = NULL;
	int r = halo_read_file(ctx, HALO_ETC_GROUP, &text, NULL);

	if (r < 0)
		return r;
	return halo_group_find(text, name, ret_gid);
}
