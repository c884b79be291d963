/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysctl-key.c: keys, values, names and the drop-in's text (no I/O). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config/sysctl-rule.h"
#include "files/sysctl-key.h"
#include "util/strv.h"
#include "util/template.h"

const char *halo_sysctl_check_ifname(const char *ifname)
{
	if (!*ifname)
		return "is empty";
	for (const char *p = ifname; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' || *p == '.'))
			return "has a character a sysctl.d key cannot carry (letters, digits, "
			       "\"_\", \"-\" and \".\" only)";
	return NULL;
}

char *halo_sysctl_iface_name(const char *ifname, const char *leaf)
{
	char *name = halo_strdup_printf(HALO_SYSCTL_CONF_PREFIX "%s.%s", ifname, leaf);

	if (!name)
		return NULL;
	for (char *p = name + strlen(HALO_SYSCTL_CONF_PREFIX), *end = p + strlen(ifname); p < end; p++)
		if (*p == '.')
			*p = '/';
	return name;
}

char *halo_sysctl_path(const char *name)
{
	size_t first = strcspn(name, "./");
	bool swap = name[first] == '.';
	char *path = halo_strdup_printf("/proc/sys/%s", name);

	if (!path || !swap)
		return path;
	for (char *p = path + strlen("/proc/sys/"); *p; p++) {
		if (*p == '.')
			*p = '/';
		else if (*p == '/')
			*p = '.';
	}
	return path;
}

char *halo_sysctl_value_normalize(const char *raw)
{
	struct halo_buf b = { 0 };
	bool sep = false;

	for (const char *p = raw; *p; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n') {
			sep = b.len > 0;
			continue;
		}
		if (sep)
			halo_buf_puts(&b, " ");
		sep = false;
		halo_buf_append(&b, p, 1);
	}
	if (!b.data)
		halo_buf_puts(&b, "");
	return halo_buf_steal(&b);
}

int halo_sysctl_render(const struct halo_sysctl *v, size_t n, char **ret)
{
	struct halo_buf b = { 0 };
	_cleanup_free_ char *keys = NULL;
	const char *vars[] = { "KEYS", NULL, NULL };
	bool rule_seen = false, settings_seen = false;
	int r;

	*ret = NULL;
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i].line == 0 && !rule_seen) {
			halo_buf_puts(&b, "# multi_nic: each port answers ARP only for its own "
					  "addresses, from its own address;\n# loose reverse-path "
					  "filtering (replies may come back on the other port).\n");
			rule_seen = true;
		} else if (v[i].line > 0 && !settings_seen) {
			halo_buf_puts(&b, "# settings\n");
			settings_seen = true;
		}
		halo_buf_printf(&b, "%s = %s\n", v[i].name, v[i].value);
	}
	keys = halo_buf_steal(&b);
	if (!keys)
		return -ENOMEM;
	keys[strlen(keys) - 1] = '\0'; /* the template ends the line */
	vars[1] = keys;
	r = halo_template_render("sysctl-dropin.conf", vars, ret);
	return r;
}

void halo_sysctl_free_all(struct halo_sysctl *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].name);
		free(v[i].value);
	}
	free(v);
}
