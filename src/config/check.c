/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check.c: syntax of the values the config names (modules, interfaces,
 * groups, paths, MAC and PCI addresses). Each returns
 * NULL when fine, else the rest of a sentence saying why not. */
#include <string.h>

#include "config/check.h"
#include "config/hwaddr.h"

static bool is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool has_ctl(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

const char *halo_check_module_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0)
		return "is not a module name (empty)";
	/* MODULE_NAME_LEN is 64 - sizeof(unsigned long), with the NUL. */
	if (n > 55)
		return "is not a module name (longer than 55 characters)";
	for (; *s; s++)
		if (!is_alnum(*s) && *s != '_' && *s != '-')
			return "is not a module name (only letters, digits, '_' and '-')";
	return NULL;
}

const char *halo_check_ifname(const char *s)
{
	size_t n = strlen(s);

	/* The kernel's dev_valid_name(): IFNAMSIZ 16 with the NUL. */
	if (n == 0)
		return "is not an interface name (empty)";
	if (n > 15)
		return "is not an interface name (longer than 15 characters)";
	if (strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return "is not an interface name";
	for (; *s; s++)
		if (*s == '/' || *s == ':' || *s == ' ' || (unsigned char)*s <= 0x20 || *s == 0x7f)
			return "is not an interface name (no '/', ':', whitespace or control characters)";
	return NULL;
}

const char *halo_check_group_name(const char *s)
{
	size_t n = strlen(s);

	/* The portable subset useradd/groupadd and systemd accept. */
	if (n == 0 || n > 32)
		return "is not a group name (1..32 characters)";
	if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
		return "is not a group name (must start with a letter or '_')";
	for (; *s; s++)
		if (!is_alnum(*s) && *s != '_' && *s != '-')
			return "is not a group name (only letters, digits, '_' and '-')";
	return NULL;
}

const char *halo_check_abs_path(const char *s)
{
	if (s[0] != '/')
		return "is not an absolute path";
	if (has_ctl(s))
		return "is not a usable path (control character)";
	for (const char *c = s; (c = strstr(c, "..")); c += 2)
		if (c[-1] == '/' && (c[2] == '/' || c[2] == '\0'))
			return "is not a usable path (contains \"..\")";
	for (const char *c = s; (c = strchr(c, '.')); c++)
		if (c[-1] == '/' && (c[1] == '/' || c[1] == '\0'))
			return "is not a usable path (contains a \".\" component)";
	if (strlen(s) > 1 && s[strlen(s) - 1] == '/')
		return "is not a usable path (trailing '/')";
	if (strstr(s, "//"))
		return "is not a usable path (\"//\")";
	if (strlen(s) >= 4096)
		return "is not a usable path (too long)";
	return NULL;
}

const char *halo_check_mac(const char *s)
{
	struct halo_mac m;

	if (halo_mac_parse(s, &m) < 0)
		return "is not a MAC address (aa:bb:cc:dd:ee:ff)";
	if (halo_mac_is_multicast(&m))
		return "is a multicast MAC address, not an interface's";
	return halo_mac_is_zero(&m) ? "is the all-zero MAC address" : NULL;
}

const char *halo_check_pci(const char *s)
{
	/* DDDD:BB:DD.F as sysfs names it; device <= 0x1f, function <= 7. */
	static const char shape[] = "xxxx:xx:xx.x";
	size_t n = strlen(s);

	if (n == 7 || n == 9)
		return "is not a full PCI address (write the domain too, e.g. 0000:c2:00.0)";
	if (n != sizeof(shape) - 1)
		return "is not a PCI address (DDDD:BB:DD.F)";
	for (size_t i = 0; i < n; i++)
		if (shape[i] == 'x' ? !is_hex(s[i]) : s[i] != shape[i])
			return "is not a PCI address (DDDD:BB:DD.F)";
	if (s[8] > '1')
		return "is not a PCI address (device above 1f)";
	if (s[11] > '7')
		return "is not a PCI address (function above 7)";
	return NULL;
}

const char *halo_check_word(const char *s)
{
	if (!*s)
		return "is empty";
	for (; *s; s++) {
		if (*s == ' ' || (unsigned char)*s < 0x20 || *s == 0x7f)
			return "contains whitespace or a control character";
		if (*s == '"' || *s == '\'' || *s == '\\')
			return "contains a quote or backslash";
	}
	return NULL;
}
