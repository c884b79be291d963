/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * networkd-match.c: a .network file's [Match] section and [Link]
 * Unmanaged=, and the test of a link against them, as systemd.network(5)
 * states it:
 *  - a key holds a whitespace-separated list; it is given again to add
 *    to the list, empty to reset it;
 *  - a list that starts with "!" is negated (every word of it);
 *  - a string list (Name, Path, Driver, Type, Kind, ...) holds when one
 *    positive glob matches, and no negated one does (a list of negations
 *    only holds for whatever none of them matches); Name= also tries the
 *    link's alternative names;
 *  - MACAddress=, PermanentMACAddress=, BSSID= hold when the link's
 *    address is in the list; they have no negation;
 *  - every key given must hold; a file with no key at all is ignored.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "host/networkd.h"
#include "util/strv.h"

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The list a [Match] key adds to, NULL for a key we do not keep. */
static char ***match_list(struct halo_networkd_match *m, const char *key)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "Name", offsetof(struct halo_networkd_match, name) },
		{ "Path", offsetof(struct halo_networkd_match, path) },
		{ "Driver", offsetof(struct halo_networkd_match, driver) },
		{ "Type", offsetof(struct halo_networkd_match, type) },
		{ "Kind", offsetof(struct halo_networkd_match, kind) },
		{ "Property", offsetof(struct halo_networkd_match, property) },
		{ "SSID", offsetof(struct halo_networkd_match, ssid) },
		{ "WLANInterfaceType", offsetof(struct halo_networkd_match, wlan_type) },
		{ "MACAddress", offsetof(struct halo_networkd_match, mac) },
		{ "PermanentMACAddress", offsetof(struct halo_networkd_match, perm_mac) },
		{ "BSSID", offsetof(struct halo_networkd_match, bssid) },
	};

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (strcmp(key, keys[i].key) == 0)
			return (char ***)((char *)m + keys[i].off);
	return NULL;
}

static bool is_condition(const char *key)
{
	static const char *const conds[] = {
		"Host", "Virtualization", "KernelCommandLine", "KernelVersion",
		"Credential", "Architecture", "Firmware", NULL,
	};

	return halo_keyword_index(conds, key) >= 0;
}

/* A word networkd keeps in a Name= list (systemd's ifname_valid_full()
 * for alternative names): printable, no ':', '/' or '%', shorter than
 * ALTIFNAMSIZ, not "." or "..", not a number. */
static bool ifname_word_valid(const char *w)
{
	size_t n = strlen(w);

	if (n == 0 || n >= 128 || strcmp(w, ".") == 0 || strcmp(w, "..") == 0 ||
	    strspn(w, "0123456789") == n)
		return false;
	for (const char *c = w; *c; c++)
		if ((unsigned char)*c <= 32 || (unsigned char)*c >= 127 || strchr(":/%", *c))
			return false;
	return true;
}

/* Adds the words of VALUE to *LIST ("!" prefixed to each when the value
 * starts with it); an empty value resets the list. UNQUOTE: quotes
 * group a word (the string lists); Name= and the address lists take
 * them as characters. IFNAMES: words networkd would refuse as interface
 * names are dropped, as it drops them. */
static int add_words(char ***list, const char *value, bool unquote, bool ifnames)
{
	bool negate = *value == '!';
	const char *p = value + negate;

	if (!*value) {
		halo_strv_free(*list);
		*list = NULL;
		return 0;
	}
	for (;;) {
		char word[512];
		size_t n;
		char quote = 0;

		while (blank(*p))
			p++;
		if (!*p)
			return 0;
		if (unquote && (*p == '"' || *p == '\''))
			quote = *p++;
		n = quote ? strcspn(p, quote == '"' ? "\"" : "'") : strcspn(p, " \t\r\n");
		if (n + 2 > sizeof(word))
			return -E2BIG;
		snprintf(word, sizeof(word), "%s%.*s", negate ? "!" : "", (int)n, p);
		p += n;
		if (quote && *p)
			p++;
		if (ifnames && !ifname_word_valid(word + negate))
			continue;
		if (halo_strv_push(list, word) < 0)
			return -ENOMEM;
	}
}

/* systemd's parse_boolean(). -1: neither. */
static int parse_bool(const char *v)
{
	static const char *const yes[] = { "1", "yes", "y", "true", "t", "on", NULL };
	static const char *const no[] = { "0", "no", "n", "false", "f", "off", NULL };

	for (size_t i = 0; yes[i]; i++)
		if (strcasecmp(v, yes[i]) == 0)
			return 1;
	for (size_t i = 0; no[i]; i++)
		if (strcasecmp(v, no[i]) == 0)
			return 0;
	return -1;
}

/* One "Key=Value" line of SECTION. */
static int parse_assignment(struct halo_networkd_file *f, const char *section, char *line)
{
	char *eq = strchr(line, '='), *key = line, *value, *end;
	char ***list;

	if (!eq)
		return 0; /* networkd warns and goes on */
	*eq = '\0';
	value = eq + 1;
	end = eq;
	while (end > key && blank(end[-1]))
		*--end = '\0';
	while (blank(*value))
		value++;
	if (strcmp(section, "Link") == 0 && strcmp(key, "Unmanaged") == 0) {
		int b = parse_bool(value);

		if (b >= 0)
			f->unmanaged = b;
		return 0;
	}
	if (strcmp(section, "Match") != 0)
		return 0;
	if (is_condition(key)) {
		f->match.conditions = f->match.conditions || *value;
		return 0;
	}
	list = match_list(&f->match, key);
	if (!list)
		return 0;
	if (list == &f->match.name)
		return add_words(list, value, false, true);
	if (list == &f->match.mac || list == &f->match.perm_mac || list == &f->match.bssid)
		return add_words(list, value, false, false);
	return add_words(list, value, true, false);
}

int halo_networkd_parse(const char *text, struct halo_networkd_file *f)
{
	struct halo_buf b = { 0 };
	char section[64] = "";
	const char *p = text;
	int r = 0;

	while (*p && r == 0) {
		_cleanup_free_ char *line = NULL;
		const char *s;
		char *q, *e;

		/* A line ending in a backslash goes on on the next one. */
		for (;;) {
			size_t n = strcspn(p, "\n");

			if (n && p[n - 1] == '\\') {
				halo_buf_append(&b, p, n - 1);
				halo_buf_append(&b, " ", 1);
				p += n + (p[n] == '\n');
				if (*p)
					continue;
			} else {
				halo_buf_append(&b, p, n);
				p += n + (p[n] == '\n');
			}
			break;
		}
		line = halo_buf_steal(&b);
		if (!line)
			return -ENOMEM;
		s = line;
		while (blank(*s))
			s++;
		q = (char *)s;
		e = q + strlen(q);
		while (e > q && blank(e[-1]))
			*--e = '\0';
		if (*q == '\0' || *q == '#' || *q == ';')
			continue;
		if (*q == '[') {
			size_t n = strcspn(q + 1, "]");

			if (q[1 + n] == ']' && n < sizeof(section))
				snprintf(section, sizeof(section), "%.*s", (int)n, q + 1);
			else
				section[0] = '\0';
			continue;
		}
		r = parse_assignment(f, section, q);
	}
	halo_buf_free(&b);
	return r;
}

/* A string list against S (NULL: the link has no such property), as
 * networkd's net_condition_test_strv(). ALT: further names to try. */
static bool strv_holds(char *const *patterns, const char *s, char *const *alt)
{
	bool match = false, positive = false;

	if (!patterns || !*patterns)
		return true;
	for (char *const *p = patterns; *p; p++) {
		bool invert = **p == '!';
		const char *pat = *p + invert;
		bool hit = s && fnmatch(pat, s, 0) == 0;

		for (char *const *a = alt; a && *a && !hit; a++)
			hit = fnmatch(pat, *a, 0) == 0;
		if (!invert)
			positive = true;
		if (hit) {
			if (invert)
				return false;
			match = true;
		}
	}
	return positive ? match : true;
}

static int hex(char c)
{
	return halo_hex_digit(c);
}

int halo_networkd_parse_mac(const char *s, uint8_t ret[6])
{
	size_t len = strlen(s);
	uint8_t b[6];

	if (len == 17 && (s[2] == ':' || s[2] == '-')) {
		for (int i = 0; i < 6; i++) {
			const char *q = s + 3 * i;

			if (hex(q[0]) < 0 || hex(q[1]) < 0 || (i < 5 && q[2] != s[2]))
				return -EINVAL;
			b[i] = (uint8_t)(hex(q[0]) << 4 | hex(q[1]));
		}
	} else if (len == 14 && s[4] == '.' && s[9] == '.') {
		for (int i = 0; i < 3; i++) {
			const char *q = s + 5 * i;

			for (int k = 0; k < 4; k++)
				if (hex(q[k]) < 0)
					return -EINVAL;
			b[2 * i] = (uint8_t)(hex(q[0]) << 4 | hex(q[1]));
			b[2 * i + 1] = (uint8_t)(hex(q[2]) << 4 | hex(q[3]));
		}
	} else {
		return -EINVAL;
	}
	memcpy(ret, b, 6);
	return 0;
}

/* An address list against the link's ADDR of LEN bytes: in the list.
 * Words networkd could not parse (a "!" among them) it drops. */
static bool addr_holds(char *const *list, const uint8_t *addr, size_t len)
{
	bool any = false;

	if (!list || !*list)
		return true;
	for (char *const *p = list; *p; p++) {
		uint8_t b[6];

		if (halo_networkd_parse_mac(*p, b) < 0)
			continue;
		any = true;
		if (len == 6 && memcmp(b, addr, 6) == 0)
			return true;
	}
	/* Nothing valid left: networkd has no list at all. */
	return !any;
}

static bool any_key(const struct halo_networkd_match *m)
{
	char **const lists[] = { m->name, m->path, m->driver, m->type, m->kind, m->property,
				 m->ssid, m->wlan_type, m->mac, m->perm_mac, m->bssid };

	for (size_t i = 0; i < ARRAY_SIZE(lists); i++)
		if (lists[i] && lists[i][0])
			return true;
	return m->conditions;
}

bool halo_networkd_matches(const struct halo_networkd_file *f,
			   const struct halo_networkd_link *l)
{
	const struct halo_networkd_match *m = &f->match;

	if (f->masked || !any_key(m))
		return false;
	return addr_holds(m->mac, l->mac, l->mac_len) &&
	       addr_holds(m->perm_mac, l->perm_mac, l->perm_mac_len) &&
	       strv_holds(m->path, l->path, NULL) &&
	       strv_holds(m->driver, l->driver, NULL) &&
	       strv_holds(m->type, l->type, NULL) &&
	       strv_holds(m->kind, l->kind, NULL) &&
	       strv_holds(m->name, l->name, l->altnames) &&
	       /* udev properties are not known here: a wired link has no
		* SSID, BSSID or WLAN type. */
	       strv_holds(m->ssid, NULL, NULL) &&
	       strv_holds(m->wlan_type, NULL, NULL) &&
	       addr_holds(m->bssid, NULL, 0);
}
