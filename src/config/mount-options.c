/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mount-options.c: the mount options of a model store (mount-options.h). */
#include <string.h>

#include "config/mount-options.h"

/* Options mount(8) takes that do not fit a unit halo-provision enables to
 * mount a block device's file system at boot. */
static const struct {
	const char *name;
	const char *why;
} refused[] = {
	{ "bind", "contains \"bind\": the model store is a device's file system, not a bind mount" },
	{ "rbind", "contains \"rbind\": the model store is a device's file system, not a bind mount" },
	{ "move", "contains \"move\": not an option of a mount unit" },
	{ "remount", "contains \"remount\": not an option of a mount unit" },
	{ "noauto", "contains \"noauto\": the unit is enabled to mount at boot; leave storage out instead" },
	{ "user", "contains \"user\": any user could unmount the model store" },
	{ "users", "contains \"users\": any user could unmount the model store" },
	{ "owner", "contains \"owner\": the device's owner could unmount the model store" },
	{ "group", "contains \"group\": the device's group could unmount the model store" },
};

static const char *check_one(const char *o, size_t n)
{
	size_t name_len = n;
	const char *eq = memchr(o, '=', n);

	if (n == 0)
		return "has an empty option (\",,\" or a leading or trailing comma)";
	if (eq)
		name_len = (size_t)(eq - o);
	if (name_len == 0)
		return "has an option with no name (\"=value\")";
	if (name_len >= 10 && strncmp(o, "x-systemd.", 10) == 0)
		return "contains an x-systemd.* option: only systemd-fstab-generator reads those, "
		       "a mount unit passes them to mount(8)";
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (strlen(refused[i].name) == name_len && strncmp(o, refused[i].name, name_len) == 0)
			return refused[i].why;
	return NULL;
}

const char *halo_check_mount_options(const char *opts)
{
	const char *why;
	const char *s;

	if (!*opts)
		return "is empty (leave it out for the defaults)";
	for (s = opts; *s; s++) {
		unsigned char c = (unsigned char)*s;

		/* The loader's wording for every word-like value. */
		if (c == ' ' || c < 0x20 || c == 0x7f)
			return "contains whitespace or a control character";
		if (c >= 0x80)
			return "contains a non-ASCII character";
		if (c == '"' || c == '\'' || c == '`' || c == '\\')
			return "contains a quote or backslash";
		if (c == '%')
			return "contains '%' (a systemd specifier in a unit file)";
	}
	if (s - opts > 1024)
		return "is too long (over 1024 characters)";
	for (s = opts;;) {
		const char *comma = strchr(s, ',');
		size_t n = comma ? (size_t)(comma - s) : strlen(s);

		why = check_one(s, n);
		if (why)
			return why;
		if (!comma)
			return NULL;
		s = comma + 1;
	}
}
