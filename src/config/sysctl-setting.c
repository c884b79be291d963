/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysctl-setting.c: a "key=value" of sysctl.settings (sysctl-setting.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "config/sysctl-setting.h"

/* A longer name has no file under /proc/sys (a name is one path). */
#define KEY_MAX 255

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

int halo_sysctl_setting_parse(const char *text, int line, struct halo_sysctl_setting *ret,
			      const char **ret_why)
{
	const char *eq = strchr(text, '='), *k_end, *v;
	struct halo_sysctl_setting s = { .line = line };

	if (!eq) {
		*ret_why = "is not a setting (\"key=value\")";
		return -EINVAL;
	}
	for (k_end = eq; k_end > text && k_end[-1] == ' '; k_end--)
		;
	for (v = eq + 1; *v == ' '; v++)
		;
	s.key = strndup(text, (size_t)(k_end - text));
	s.value = strdup(v);
	s.text = strdup(text);
	if (!s.key || !s.value || !s.text) {
		halo_sysctl_setting_clear(&s);
		return -ENOMEM;
	}
	/* A second "=" is refused by the value's character set. */
	*ret_why = halo_sysctl_check_key(s.key);
	if (!*ret_why)
		*ret_why = halo_sysctl_check_value(s.value);
	if (*ret_why) {
		halo_sysctl_setting_clear(&s);
		return -EINVAL;
	}
	*ret = s;
	return 0;
}

void halo_sysctl_setting_clear(struct halo_sysctl_setting *s)
{
	free(s->key);
	free(s->value);
	free(s->text);
	s->key = s->value = s->text = NULL;
}
