/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit.c: the model store's .mount unit, rendered from its template. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "storage/escape.h"
#include "storage/storage-int.h"
#include "util/strv.h"
#include "util/template.h"

/* udev's links of each tag (docs/hardware.md, "Model store mounts"). */
static const char *const by_dirs[] = {
	[HALO_DEVICE_PATH] = NULL,
	[HALO_DEVICE_LABEL] = "/dev/disk/by-label/",
	[HALO_DEVICE_UUID] = "/dev/disk/by-uuid/",
	[HALO_DEVICE_PARTLABEL] = "/dev/disk/by-partlabel/",
	[HALO_DEVICE_PARTUUID] = "/dev/disk/by-partuuid/",
};

char *halo_storage_what_path(const struct halo_device_spec *what)
{
	_cleanup_free_ char *enc = NULL;

	if (what->tag == HALO_DEVICE_PATH || (size_t)what->tag >= ARRAY_SIZE(by_dirs))
		return strdup(what->value);
	enc = halo_udev_encode(what->value);
	return enc ? halo_strdup_printf("%s%s", by_dirs[what->tag], enc) : NULL;
}

int halo_storage_render_unit(const struct halo_storage *s, const char *unit,
			     char **ret)
{
	_cleanup_free_ char *what_path = halo_storage_what_path(&s->what);
	_cleanup_free_ char *what = NULL, *where = NULL, *type = NULL, *opts = NULL;
	_cleanup_free_ char *desc = NULL;

	if (!what_path)
		return -ENOMEM;
	what = halo_specifier_escape(what_path);
	where = halo_specifier_escape(s->where);
	desc = halo_strdup_printf("%s (%s)", s->where, s->what.text);
	if (s->type)
		type = halo_strdup_printf("Type=%s", s->type);
	else
		type = strdup("# Type= is not set: mount(8) detects the file system");
	/* Options are checked without '%' (config/mount-options.h): no
	 * escaping needed. */
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
