/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan-gtt-modprobe.c: an `options ttm pages_limit=` (or amdttm, or
 * amdgpu gttsize) in modprobe.d that disagrees with the wanted GTT is
 * drift on boot/param/<prefix>.pages_limit: not ours to fix, so the item
 * says where it is.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "boot/bootint.h"
#include "boot/gtt.h"
#include "util/rootfs.h"
#include "util/strv.h"

/* modprobe.d options for the GTT that disagree (drift, not ours to fix). */
int boot_plan_gtt_modprobe(struct halo_ctx *ctx, struct boot_run *run)
{
	static const char *const dirs[] = { "/etc/modprobe.d", "/run/modprobe.d",
					    "/usr/lib/modprobe.d", "/lib/modprobe.d" };
	static const struct { const char *module, *param; } opts[] = {
		{ "ttm", "pages_limit" }, { "amdttm", "pages_limit" }, { "amdgpu", "gttsize" },
	};
	uint64_t want = halo_gtt_pages(run->gtt_mib);

	if (!run->gtt_mib)
		return 0;
	for (size_t di = 0; di < ARRAY_SIZE(dirs); di++) {
		_cleanup_strv_free_ char **names = NULL;

		if (halo_root_list_dir(ctx, dirs[di], &names) < 0)
			continue;
		for (size_t i = 0; names[i] && !run->gtt_conflict; i++) {
			_cleanup_free_ char *path = NULL, *text = NULL;
			size_t len, n = strlen(names[i]);

			if (n <= 5 || strcmp(names[i] + n - 5, ".conf") != 0)
				continue;
			path = halo_strdup_printf("%s/%s", dirs[di], names[i]);
			if (!path)
				return -ENOMEM;
			if (halo_read_file(ctx, path, &text, &len) < 0)
				continue;
			for (size_t o = 0; o < ARRAY_SIZE(opts) && !run->gtt_conflict; o++) {
				_cleanup_free_ char *value = NULL, *tok = NULL, *where = NULL;
				uint64_t pages;
				int line = halo_modprobe_find_option(text, opts[o].module,
								     opts[o].param, &value);

				if (line < 0)
					return line;
				if (line == 0)
					continue;
				tok = halo_strdup_printf("%s.%s=%s", opts[o].module,
							 opts[o].param, value);
				if (!tok)
					return -ENOMEM;
				if (halo_gtt_token_pages(tok, &pages) && pages == want)
					continue;
				where = boot_where(ctx, path, (unsigned)line);
				run->gtt_conflict = halo_strdup_printf(
					"%s: options %s %s=%s disagrees with %s=%" PRIu64
					" (remove it, then rebuild the initramfs)",
					where ? where : path, opts[o].module, opts[o].param,
					value, run->gtt_key, want);
				if (!run->gtt_conflict)
					return -ENOMEM;
			}
		}
	}
	return 0;
}
