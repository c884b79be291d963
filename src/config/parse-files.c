/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse-files.c: the storage list and the state section (paths). */
#include <errno.h>
#include <string.h>

#include "config/check.h"
#include "config/device-spec.h"
#include "config/mount-options.h"
#include "config/parse-common.h"
#include "config/sections.h"

static const char *const storage_keys[] = { "what", "where", "type", "options", NULL };
static const char *const state_keys[] = { "path", "env_file", "prometheus", NULL };

static const char *parse_what(const char *text, int line, void *elem)
{
	const char *why = NULL;
	int r = halo_device_spec_parse(text, line, elem, &why);

	return r == -ENOMEM ? HALO_PARSE_OOM : why;
}

static const char *check_fstype(const char *s)
{
	if (!*s)
		return "is not a file system type (empty)";
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '.' || *s == '-'))
			return "is not a file system type";
	return NULL;
}

/* A mount point systemd can name a unit after and read back from Where=:
 * unit files trim trailing whitespace and continue a line ending in a
 * backslash; a backslash would also read as an escape in the unit name. */
static const char *check_where(const char *s)
{
	const char *why = halo_check_mount_point(s);

	if (why)
		return why;
	if (strchr(s, '\\'))
		return "is not a usable mount point (a backslash)";
	if (s[strlen(s) - 1] == ' ')
		return "is not a usable mount point (trailing whitespace)";
	return NULL;
}

void halo_parse_storage(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c)
{
	const struct halo_cset *seq;
	size_t n;
	char path[64];

	c->storage = halo_pget_table(p, root, "", "storage", sizeof(*c->storage), &seq, &n);
	if (!c->storage)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct halo_cset *g = halo_cset_elem(seq, i);
		struct halo_storage *s = &c->storage[c->n_storage];

		c->n_storage++; /* a bad entry keeps its slot (message indexes) */
		s->line = halo_cset_line(g);
		halo_pkey(path, sizeof(path), "storage", NULL, (long)i);
		if (!halo_pwant(p, g, path, HALO_CSET_GROUP))
			continue;
		halo_pcheck_keys(p, g, path, storage_keys);
		(void)halo_pget_parsed_one(p, g, path, "what", parse_what, true, s->line, &s->what);
		halo_pget_checked(p, g, path, "where", check_where, true, s->line, &s->where, &s->where_line);
		halo_pget_checked(p, g, path, "type", check_fstype, false, s->line, &s->type, NULL);
		halo_pget_checked(p, g, path, "options", halo_check_mount_options, false, s->line, &s->options, NULL);
	}
}

static const char *check_optional_path(const char *s)
{
	return *s ? halo_check_output_path(s) : NULL;
}

void halo_parse_state(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c)
{
	struct halo_state_config *st = &c->state;
	const struct halo_cset *g;

	if (halo_pget_group(p, root, "", "state", state_keys, &g) <= 0)
		return;
	st->line = halo_cset_line(g);
	halo_pget_checked(p, g, "state", "path", halo_check_output_path, false, st->line,
			  &st->path, &st->path_line);
	if (!st->path && !(st->path = strdup("/var/lib/halo-provision/state.json")))
		p->oom = true;
	halo_pget_checked(p, g, "state", "env_file", halo_check_output_path, false, st->line,
			  &st->env_file, &st->env_file_line);
	halo_pget_checked(p, g, "state", "prometheus", check_optional_path, false, st->line,
			  &st->prometheus, &st->prometheus_line);
	/* Absent keys have no line of their own (messages say "the default"). */
	if (!halo_cset_member(g, "path"))
		st->path_line = 0;
	if (!halo_cset_member(g, "env_file"))
		st->env_file_line = 0;
	if (!halo_cset_member(g, "prometheus"))
		st->prometheus_line = 0;
	if (st->prometheus && !*st->prometheus) {
		free(st->prometheus);
		st->prometheus = NULL; /* "" = none */
	}
}
