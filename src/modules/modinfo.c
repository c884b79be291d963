/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * modinfo.c: what a module's .modinfo entries say, kept in a struct
 * halo_modinfo, whoever read them (libkmod in kmod.c, or native.c from
 * the module's ELF file). Pure.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modules/internal.h"
#include "util/strv.h"

struct halo_modinfo *halo_modinfo_new(const char *name)
{
	struct halo_modinfo *mi = calloc(1, sizeof(*mi));

	if (mi)
		mi->name = halo_modname_dup(name);
	if (mi && !mi->name) {
		free(mi);
		return NULL;
	}
	return mi;
}

void halo_modinfo_free(struct halo_modinfo *mi)
{
	if (!mi)
		return;
	free(mi->name);
	free(mi->relpath);
	halo_strv_free(mi->parms);
	halo_strv_free(mi->deps);
	halo_strv_free(mi->blacklisted);
	free(mi->install_cmd);
	free(mi);
}

const char *halo_modinfo_parm_type(const struct halo_modinfo *mi, const char *parm)
{
	size_t n = strlen(parm);

	for (char **p = mi->parms; p && *p; p++)
		if (strncmp(*p, parm, n) == 0 && (*p)[n] == ':')
			return *p + n + 1;
	return NULL;
}

/* Adds "name:type" (or "name:" for a parm without parmtype) once. */
static int parm_add(struct halo_modinfo *mi, const char *value, bool typed)
{
	size_t n = strcspn(value, ":");
	_cleanup_free_ char *name = strndup(value, n);
	char **p;

	if (!name)
		return -ENOMEM;
	halo_name_normalize(name);
	for (p = mi->parms; p && *p; p++)
		if (strncmp(*p, name, n) == 0 && (*p)[n] == ':')
			break;
	if (p && *p) {
		/* A parmtype without ':' has no type to add (and nothing
		 * after its name to read). */
		if (typed && value[n] == ':' && (*p)[n + 1] == '\0') {
			char *t = halo_strdup_printf("%s:%s", name, value + n + 1);

			if (!t)
				return -ENOMEM;
			free(*p);
			*p = t;
		}
		return 0;
	}
	_cleanup_free_ char *entry = halo_strdup_printf(
		"%s:%s", name, typed && value[n] == ':' ? value + n + 1 : "");
	if (!entry)
		return -ENOMEM;
	return halo_strv_push(&mi->parms, entry);
}

int halo_modinfo_add_entry(struct halo_modinfo *mi, const char *key, const char *value)
{
	if (strcmp(key, "parmtype") == 0)
		return parm_add(mi, value, true);
	if (strcmp(key, "parm") == 0)
		return parm_add(mi, value, false);
	return 0;
}

/* Whether the entry name S (N bytes) is one halo_modinfo_add_entry reads. */
static bool entry_read(const char *s, size_t n)
{
	return (n == 4 && memcmp(s, "parm", 4) == 0) ||
	       (n == 8 && memcmp(s, "parmtype", 8) == 0);
}

int halo_modinfo_add_section(struct halo_modinfo *mi, const char *sec, size_t len)
{
	size_t i = 0;

	/* libkmod's kmod_elf_get_strings: entries split at runs of NUL
	 * bytes, the last one possibly unterminated; an entry without '='
	 * has no value and says nothing. */
	while (i < len) {
		const char *s = sec + i, *nul = memchr(s, '\0', len - i);
		size_t n = nul ? (size_t)(nul - s) : len - i;
		const char *eq = memchr(s, '=', n);

		i += n + 1;
		/* Most entries (alias, srcversion, ...) say nothing: they are
		 * not copied. */
		if (n == 0 || !eq || !entry_read(s, (size_t)(eq - s)))
			continue;
		_cleanup_free_ char *key = strndup(s, (size_t)(eq - s));
		_cleanup_free_ char *value = strndup(eq + 1, n - (size_t)(eq - s) - 1);
		int r;

		if (!key || !value)
			return -ENOMEM;
		r = halo_modinfo_add_entry(mi, key, value);
		if (r < 0)
			return r;
	}
	return 0;
}
