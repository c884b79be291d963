/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check-rootdev.c: before any file item is added, a root=UUID=/LABEL=/
 * PARTUUID=/PARTLABEL= in a command line that a changed file would carry
 * must resolve to a block device (rootdev.h), else a validation error.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "boot/bootint.h"
#include "boot/rootdev.h"
#include "util/blkid.h"
#include "util/rootfs.h"

/* Every tagged root= of a command line a changed file would carry. */
void boot_check_root_devices(struct halo_ctx *ctx, const struct boot_edits *edits,
			     struct halo_errors *errs)
{
	for (size_t e = 0; e < edits->n; e++) {
		const struct boot_edit *ed = &edits->v[e];

		if (!ed->content || (ed->old && strcmp(ed->old, ed->content) == 0))
			continue;
		for (size_t i = 0; ed->result && ed->result[i]; i++) {
			const char *t = ed->result[i];
			_cleanup_free_ char *dev = NULL, *where = NULL;
			int r;

			if (strncmp(t, "root=", 5) != 0 || !halo_rootdev_is_tag(t + 5))
				continue;
			r = halo_rootdev_resolve(ctx, t + 5, &dev);
			if (r >= 0)
				continue;
			where = boot_where(ctx, ed->path, 0);
			if (r == -ENODEV)
				halo_errors_add(errs, "%s: %s does not resolve to a block device%s%s",
						where ? where : ed->path, t,
						ctx->under_root ? " (libblkid cache " : "",
						ctx->under_root ? HALO_BLKID_CACHE " in the root)" : "");
			else if (r == -ENOTBLK && dev) {
				_cleanup_free_ char *what =
					halo_root_read_error(ctx, dev, -HALO_ENOTREG);

				halo_errors_add(errs, "%s: %s names %s (neither a block device nor "
						"a file system image: never probed)",
						where ? where : ed->path, t, what ? what : dev);
			}
			else
				halo_errors_add(errs, "%s: resolving %s: %s",
						where ? where : ed->path, t,
						r == -ELIBACC ? halo_blkid_why() : strerror(-r));
		}
	}
}
