/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blacklist.c: the module blacklist as modprobe computes it, read by us
 * rather than by libkmod, because libkmod adds the running kernel's
 * /proc/cmdline to it and the root's command line is the one that counts.
 * Pure: modprobe.d text (libkmod-config.c: lines joined at a trailing
 * '\', "blacklist NAME" with '-' read as '_') and a kernel command line
 * (modprobe.blacklist=a,b, names taken as written, as libkmod does).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "modules/internal.h"
#include "util/strv.h"

const char *const halo_modprobe_dirs[HALO_MODPROBE_N_DIRS + 1] = {
	"/etc/modprobe.d",
	"/run/modprobe.d",
	"/usr/local/lib/modprobe.d",
	"/lib/modprobe.d",
	NULL,
};

bool halo_modprobe_conf_name(const char *n)
{
	size_t len = strlen(n);

	return n[0] != '.' && len >= 6 &&
	       (strcmp(n + len - 5, ".conf") == 0 || strcmp(n + len - 6, ".alias") == 0);
}

static int add_name(char ***names, const char *s, size_t n)
{
	_cleanup_free_ char *name = strndup(s, n);

	if (!name)
		return -ENOMEM;
	if (!*name || halo_strv_contains(*names, name))
		return 0;
	return halo_strv_push(names, name);
}

/* libkmod's underscores(): '-' → '_' outside [...]; an unbalanced ']' or
 * '[' makes the line a syntax error (ignored). */
static bool underscores(char *s)
{
	for (size_t i = 0; s[i]; i++) {
		if (s[i] == '-') {
			s[i] = '_';
		} else if (s[i] == ']') {
			return false;
		} else if (s[i] == '[') {
			i += strcspn(s + i, "]");
			if (!s[i])
				return false;
		}
	}
	return true;
}

struct scan {
	char ***blacklist;
	char ***softdeps; /* NULL: not wanted */
	bool needs_libkmod;
};

static int parse_line(char *line, struct scan *sc)
{
	char *save = NULL, *cmd, *name;

	if (line[0] == '\0' || line[0] == '#')
		return 0;
	cmd = strtok_r(line, "\t ", &save);
	if (!cmd)
		return 0;
	/* Lookups that these change are left to libkmod, which applies
	 * them (aliases resolve to other modules, commands replace loads). */
	if (strcmp(cmd, "alias") == 0 || strcmp(cmd, "install") == 0 ||
	    strcmp(cmd, "remove") == 0) {
		sc->needs_libkmod = true;
		return 0;
	}
	if (strcmp(cmd, "blacklist") != 0 &&
	    !(sc->softdeps && strcmp(cmd, "softdep") == 0))
		return 0;
	name = strtok_r(NULL, "\t ", &save);
	if (!name || !underscores(name))
		return 0;
	return add_name(cmd[0] == 'b' ? sc->blacklist : sc->softdeps, name, strlen(name));
}

static int scan_text(const char *text, struct scan *sc)
{
	_cleanup_free_ char *line = NULL;
	size_t cap = 0, len = 0;
	int r;

	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		bool cont = n > 0 && p[n - 1] == '\\';
		size_t take = cont ? n - 1 : n;

		if (len + take + 1 > cap) {
			char *nl;

			cap = (len + take + 1) * 2;
			nl = realloc(line, cap);
			if (!nl)
				return -ENOMEM;
			line = nl;
		}
		memcpy(line + len, p, take);
		len += take;
		line[len] = '\0';
		p += n + (p[n] == '\n');
		if (cont && *p)
			continue;
		r = parse_line(line, sc);
		if (r < 0)
			return r;
		len = 0;
	}
	return 0;
}

int halo_blacklist_from_modprobe(const char *text, char ***names)
{
	struct scan sc = { .blacklist = names };

	return scan_text(text, &sc);
}

int halo_modprobe_scan(const char *text, char ***blacklist, char ***softdeps)
{
	struct scan sc = { .blacklist = blacklist, .softdeps = softdeps };
	int r;

	r = scan_text(text, &sc);
	return r < 0 ? r : sc.needs_libkmod;
}

int halo_blacklist_from_cmdline(const char *cmdline, char ***names)
{
	static const char key[] = "modprobe.blacklist=";
	const char *p = cmdline;

	while (*p) {
		_cleanup_free_ char *word = NULL;
		bool quoted = false;
		size_t n = 0, w = 0;

		while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
			p++;
		if (!*p)
			break;
		while (p[n] && (quoted || !(p[n] == ' ' || (p[n] >= '\t' && p[n] <= '\r')))) {
			if (p[n] == '"')
				quoted = !quoted;
			n++;
		}
		/* The word without its quotes, as the kernel hands it on. */
		word = malloc(n + 1);
		if (!word)
			return -ENOMEM;
		for (size_t i = 0; i < n; i++)
			if (p[i] != '"')
				word[w++] = p[i];
		word[w] = '\0';
		p += n;
		if (strncmp(word, key, sizeof(key) - 1) != 0)
			continue;
		for (const char *v = word + sizeof(key) - 1;;) {
			size_t m = strcspn(v, ",");
			int r = add_name(names, v, m);

			if (r < 0)
				return r;
			if (!v[m])
				break;
			v += m + 1;
		}
	}
	return 0;
}
