/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * message.c: how messages name a config: its file name, and for Ansible's
 * config_data the JSON path of a line of the text generated from it
 * where a file's messages name the line.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "config/message.h"
#include "util/strv.h"

const char *halo_config_name(const struct halo_config *cfg)
{
	return cfg && cfg->path ? cfg->path : "config";
}

/* The path of generated line LINE, or NULL. */
static const char *line_path(char *const *paths, size_t n, long line)
{
	return line >= 1 && (size_t)line <= n ? paths[line - 1] : NULL;
}

/* Whether MSG already says where it is: it starts with PATH or with a
 * key PATH is under ("boot: unknown key ..." for "boot.x"), or it quotes
 * PATH's last key ("unknown key \"x\"" at the top). */
static bool names_path(const char *msg, const char *path)
{
	size_t n = strcspn(msg, ": "), pl = strlen(path);
	const char *last = path + strcspn(path, "");
	_cleanup_free_ char *quoted = NULL;

	/* One is the other or under it: "a.b[2]: ..." on the line of "a.b". */
	if (msg[n] == ':' && n <= pl && strncmp(msg, path, n) == 0 &&
	    (path[n] == '\0' || path[n] == '.' || path[n] == '['))
		return true;
	if (msg[n] == ':' && n > pl && strncmp(msg, path, pl) == 0 &&
	    (msg[pl] == '.' || msg[pl] == '['))
		return true;
	while (last > path && last[-1] != '.' && last[-1] != ']')
		last--;
	if (!*last)
		return false;
	quoted = halo_strdup_printf("\"%s\"", last);
	return quoted && strstr(msg, quoted);
}

char *halo_config_paths_rewrite(char *const *paths, size_t n, const char *name,
				const char *msg)
{
	struct halo_buf b = { 0 };
	size_t nl = strlen(name);
	const char *s = msg;

	/* The head: "NAME:LINE: ". */
	if (strncmp(s, name, nl) == 0 && s[nl] == ':' && isdigit((unsigned char)s[nl + 1])) {
		char *end;
		long line = strtol(s + nl + 1, &end, 10);
		const char *path = line_path(paths, n, line);

		if (path && end[0] == ':' && end[1] == ' ') {
			s = end + 2;
			halo_buf_printf(&b, "%s: ", name);
			if (path[0] && !names_path(s, path))
				halo_buf_printf(&b, "%s: ", path);
		}
	}
	/* The body: "line N" (a first occurrence, a conflict) → the path. */
	while (*s) {
		const char *hit = strstr(s, "line ");
		char *end;
		long line;
		const char *path;

		if (!hit) {
			halo_buf_puts(&b, s);
			break;
		}
		halo_buf_append(&b, s, (size_t)(hit - s));
		line = isdigit((unsigned char)hit[5]) ? strtol(hit + 5, &end, 10) : 0;
		path = line_path(paths, n, line);
		if (path && path[0] && (hit == msg || !isalpha((unsigned char)hit[-1]))) {
			halo_buf_puts(&b, path);
			s = end;
		} else {
			halo_buf_append(&b, hit, 5);
			s = hit + 5;
		}
	}
	return halo_buf_steal(&b);
}

char *halo_config_message(const struct halo_config *cfg, const char *msg)
{
	if (!cfg || !cfg->line_paths || !cfg->path)
		return strdup(msg);
	return halo_config_paths_rewrite(cfg->line_paths, cfg->n_line_paths, cfg->path, msg);
}
