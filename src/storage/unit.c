/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit.c: the model store's .mount unit, rendered from its template. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "storage/escape.h"
#include "storage/storage-int.h"
#include "util/strv.h"
#include "util/template.h"

static const struct {
	const char *tag;
	const char *dir;
} by_dirs[] = {
	{ "UUID=", "/dev/disk/by-uuid/" },
	{ "LABEL=", "/dev/disk/by-label/" },
	{ "PARTUUID=", "/dev/disk/by-partuuid/" },
	{ "PARTLABEL=", "/dev/disk/by-partlabel/" },
};

char *halo_storage_what_path(const char *spec)
{
	for (size_t i = 0; i < ARRAY_SIZE(by_dirs); i++) {
		size_t n = strlen(by_dirs[i].tag);
		_cleanup_free_ char *enc = NULL;

		if (strncmp(spec, by_dirs[i].tag, n) != 0)
			continue;
		enc = halo_udev_encode(spec + n);
		return enc ? halo_strdup_printf("%s%s", by_dirs[i].dir, enc) : NULL;
	}
	return strdup(spec);
}

int halo_storage_render_unit(const struct halo_storage *s, const char *unit,
			     char **ret)
{
	_cleanup_free_ char *what_path = halo_storage_what_path(s->what);
	_cleanup_free_ char *what = NULL, *where = NULL, *type = NULL, *opts = NULL;
	_cleanup_free_ char *desc = NULL;

	if (!what_path)
		return -ENOMEM;
	what = halo_specifier_escape(what_path);
	where = halo_specifier_escape(s->where);
	desc = halo_strdup_printf("%s (%s)", s->where, s->what);
	if (s->type)
		type = halo_strdup_printf("Type=%s", s->type);
	else
		type = strdup("# Type= is not set: mount(8) detects the file system");
	/* Options are checked without '%' (options.h): no escaping needed. */
	if (s->options)
		opts = halo_strdup_printf("Options=%s", s->options);
	else
		opts = strdup("# Options= is not set: the file system's defaults");
	if (!what || !where || !desc || !type || !opts)
		return -ENOMEM;
	{
		_cleanup_free_ char *d = halo_specifier_escape(desc);
		const char *const vars[] = {
			"UNIT", unit, "DESCRIPTION", d, "WHAT", what, "WHERE", where,
			"TYPE", type, "OPTIONS", opts, NULL,
		};

		if (!d)
			return -ENOMEM;
		return halo_template_render("model-store.mount", vars, ret);
	}
}
