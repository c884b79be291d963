/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysctl-key.c: keys, values, names and the drop-in's text (no I/O). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "files/sysctl-key.h"
#include "util/strv.h"
#include "util/template.h"

#define CONF_PREFIX "net.ipv4.conf."
#define KEY_MAX 255

const struct halo_sysctl_rule halo_sysctl_rules[] = {
	{ "arp_ignore", "1" },   /* reply only for addresses of the port asked */
	{ "arp_announce", "2" }, /* source address of the port sending */
	{ "rp_filter", "2" },    /* loose: strict drops the other port's traffic */
	{ NULL, NULL },
};

bool halo_sysctl_rule_applies(const struct halo_config *cfg)
{
	switch (cfg->sysctl.multi_nic) {
	case HALO_MULTI_NIC_ON:
		return true;
	case HALO_MULTI_NIC_OFF:
		return false;
	case HALO_MULTI_NIC_AUTO:
		break;
	}
	return cfg->n_interfaces > 1;
}

static bool is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

static bool is_value_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("._:,/+@%-", c));
}

const char *halo_sysctl_check_key(const char *key)
{
	size_t len = strlen(key);

	if (len == 0)
		return "is not a sysctl key (empty)";
	if (len > KEY_MAX)
		return "is not a sysctl key (too long)";
	if (key[0] == '-')
		return "is not a sysctl key (a leading \"-\" means \"ignore errors\" to sysctl.d)";
	if (key[0] == '.' || key[len - 1] == '.' || strstr(key, ".."))
		return "is not a sysctl key (an empty name between dots)";
	if (strchr(key, '/'))
		return "is not a sysctl key (write it with dots, not \"/\")";
	if (!strchr(key, '.'))
		return "is not a sysctl key (no \".\": a key names a file under /proc/sys/<dir>/)";
	for (const char *p = key; *p; p++)
		if (*p != '.' && !is_key_char(*p))
			return "is not a sysctl key (names of a-z, 0-9, \"_\" and \"-\" only)";
	return NULL;
}

const char *halo_sysctl_check_value(const char *value)
{
	if (!*value)
		return "is not a sysctl value (empty)";
	if (*value == ' ')
		return "is not a sysctl value (leading blank)";
	for (const char *p = value; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return "is not a sysctl value (control character or newline)";
		if (*p == ' ') {
			if (p[1] == ' ' || !p[1])
				return "is not a sysctl value (blanks: one space between words)";
			continue;
		}
		if (!is_value_char(*p))
			return "is not a sysctl value (letters, digits, single spaces and ._:,/+@%- only)";
	}
	return NULL;
}

/* The key and value of SETTING without the blanks around "=". */
static int split(const char *setting, char **ret_key, char **ret_value)
{
	const char *eq = strchr(setting, '='), *k_end, *v;
	char *key, *value;

	if (!eq)
		return -EINVAL;
	for (k_end = eq; k_end > setting && k_end[-1] == ' '; k_end--)
		;
	for (v = eq + 1; *v == ' '; v++)
		;
	key = strndup(setting, (size_t)(k_end - setting));
	value = strdup(v);
	if (!key || !value) {
		free(key);
		free(value);
		return -ENOMEM;
	}
	*ret_key = key;
	*ret_value = value;
	return 0;
}

const char *halo_sysctl_check_setting(const char *setting)
{
	_cleanup_free_ char *key = NULL, *value = NULL;
	const char *why;
	int r = split(setting, &key, &value);

	if (r == -EINVAL)
		return "is not a setting (\"key=value\")";
	if (r < 0)
		return "cannot be checked (out of memory)";
	why = halo_sysctl_check_key(key);
	if (why)
		return why;
	/* A second "=" is refused by the value's character set. */
	return halo_sysctl_check_value(value);
}

void halo_sysctl_setting_normalize(char *setting)
{
	char *eq = strchr(setting, '='), *k_end, *v;

	if (!eq)
		return;
	for (k_end = eq; k_end > setting && k_end[-1] == ' '; k_end--)
		;
	for (v = eq + 1; *v == ' '; v++)
		;
	*k_end++ = '=';
	memmove(k_end, v, strlen(v) + 1);
}

int halo_sysctl_setting_split(const char *setting, char **ret_key, char **ret_value)
{
	return split(setting, ret_key, ret_value);
}

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
	char *name = halo_strdup_printf(CONF_PREFIX "%s.%s", ifname, leaf);

	if (!name)
		return NULL;
	for (char *p = name + strlen(CONF_PREFIX), *end = p + strlen(ifname); p < end; p++)
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

static const struct halo_sysctl_rule *rule_of(const char *leaf)
{
	for (const struct halo_sysctl_rule *r = halo_sysctl_rules; r->leaf; r++)
		if (strcmp(r->leaf, leaf) == 0)
			return r;
	return NULL;
}

/* LEAF when KEY is net.ipv4.conf.WHO.LEAF, else NULL. */
static const char *leaf_of(const char *key, const char *who)
{
	size_t n = strlen(who);

	if (strncmp(key, CONF_PREFIX, strlen(CONF_PREFIX)) != 0)
		return NULL;
	key += strlen(CONF_PREFIX);
	if (strncmp(key, who, n) != 0 || key[n] != '.')
		return NULL;
	return key + n + 1;
}

int halo_sysctl_rule_conflict(const char *key, const char *value, const char *ifname,
			      char **ret_why)
{
	const struct halo_sysctl_rule *r;
	const char *leaf;
	char *end;
	long v;

	*ret_why = NULL;
	leaf = leaf_of(key, ifname);
	if (leaf && (r = rule_of(leaf))) {
		if (strcmp(value, r->value) == 0)
			*ret_why = halo_strdup_printf("%s is already set by multi_nic (%s=%s on the "
						      "managed interfaces)", key, r->leaf, r->value);
		else
			*ret_why = halo_strdup_printf("%s=%s contradicts multi_nic (%s=%s on the "
						      "managed interfaces)", key, value, r->leaf,
						      r->value);
		return *ret_why ? 1 : -ENOMEM;
	}
	leaf = leaf_of(key, "all");
	if (!leaf || !(r = rule_of(leaf)))
		return 0;
	v = strtol(value, &end, 10);
	if (end == value || *end || v <= strtol(r->value, NULL, 10))
		return 0;
	*ret_why = halo_strdup_printf("%s=%s contradicts multi_nic (%s=%s on the managed "
				      "interfaces; the kernel uses the larger of \"all\" and the "
				      "interface's own)", key, value, r->leaf, r->value);
	return *ret_why ? 1 : -ENOMEM;
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
