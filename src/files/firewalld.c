/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * firewalld.c: which zone already binds an interface. firewalld refuses
 * to load a configuration where two zones bind the same interface
 * (INVALID_INTERFACE, and then it falls back to its stock zones), so a
 * managed interface another zone file of /etc/firewalld/zones binds is a
 * validation error, before anything is written.
 *
 * Zone files are small XML written by firewalld or by people: the scan
 * looks at <interface .../> elements outside comments, as firewalld's
 * parser would see them. Zones of /usr/lib/firewalld bind no interfaces.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "files/firewall.h"
#include "util/rootfs.h"
#include "util/strv.h"

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Whether the attributes in [P, END) hold name="IFNAME" (or '...'). */
static bool attr_name_is(const char *p, const char *end, const char *ifname)
{
	size_t n = strlen(ifname);

	while (p < end) {
		const char *a = p;
		char q;

		while (a < end && is_space(*a))
			a++;
		p = a;
		while (p < end && *p != '=' && !is_space(*p) && *p != '/')
			p++;
		if (p >= end || p == a)
			return false;
		{
			bool is_name = (size_t)(p - a) == 4 && memcmp(a, "name", 4) == 0;

			while (p < end && is_space(*p))
				p++;
			if (p >= end || *p != '=')
				return false;
			p++;
			while (p < end && is_space(*p))
				p++;
			if (p >= end || (*p != '"' && *p != '\''))
				return false;
			q = *p++;
			a = p;
			while (p < end && *p != q)
				p++;
			if (p >= end)
				return false;
			if (is_name)
				return (size_t)(p - a) == n && memcmp(a, ifname, n) == 0;
			p++;
		}
	}
	return false;
}

bool halo_fw_zone_binds(const char *xml, const char *ifname)
{
	static const char tag[] = "<interface";
	const char *p = xml;

	while ((p = strchr(p, '<'))) {
		const char *end;

		if (strncmp(p, "<!--", 4) == 0) {
			end = strstr(p + 4, "-->");
			if (!end)
				return false;
			p = end + 3;
			continue;
		}
		end = strchr(p, '>');
		if (!end)
			return false;
		if (strncmp(p, tag, sizeof(tag) - 1) == 0 && is_space(p[sizeof(tag) - 1]) &&
		    attr_name_is(p + sizeof(tag) - 1, end, ifname))
			return true;
		p = end;
	}
	return false;
}

int halo_fw_zone_owner(const struct halo_ctx *ctx, const char *ifname, char **ret_zone)
{
	_cleanup_strv_free_ char **names = NULL;
	int r = halo_root_list_dir(ctx, HALO_FW_ZONE_DIR, &names);

	*ret_zone = NULL;
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	if (r < 0)
		return r;
	for (char **n = names; *n; n++) {
		size_t len = strlen(*n);
		_cleanup_free_ char *path = NULL, *xml = NULL;
		size_t xml_len;

		if (len <= 4 || strcmp(*n + len - 4, ".xml") != 0 ||
		    strcmp(*n, HALO_FW_ZONE ".xml") == 0)
			continue;
		path = halo_strdup_printf("%s/%s", HALO_FW_ZONE_DIR, *n);
		if (!path)
			return -ENOMEM;
		r = halo_read_file(ctx, path, &xml, &xml_len);
		if (r == -ENOENT || r == -EISDIR)
			continue;
		if (r < 0)
			return r;
		if (halo_fw_zone_binds(xml, ifname)) {
			*ret_zone = strndup(*n, len - 4);
			return *ret_zone ? 1 : -ENOMEM;
		}
	}
	return 0;
}
