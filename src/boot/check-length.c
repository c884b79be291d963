/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check-length.c: the command line must fit COMMAND_LINE_SIZE. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "boot/bootint.h"
#include "boot/cmdline.h"
#include "util/strv.h"

/* One line over COMMAND_LINE_SIZE (cmdline.h): false, with the error. */
static bool length_fits(struct halo_ctx *ctx, const char *path,
			char *const *tokens, struct halo_errors *errs)
{
	_cleanup_free_ char *where = NULL;
	size_t n = halo_cmdline_size(tokens);

	if (n <= HALO_CMDLINE_SIZE)
		return true;
	where = boot_where(ctx, path, 0);
	halo_errors_add(errs, "%s: the kernel command line would be %zu bytes (with its "
			"terminating NUL), over the limit of %d bytes on %s (COMMAND_LINE_SIZE)",
			where ? where : path, n, HALO_CMDLINE_SIZE, HALO_CMDLINE_ARCH);
	return false;
}

/*
 * The kernel cuts a longer command line at COMMAND_LINE_SIZE, silently
 * dropping the parameters at its end: refuse before anything is written.
 * Checked: the command line every changed file would give, and the
 * default boot entry (grub.cfg, BLS) once regenerated with the edit.
 * One error at most: they all have the same cause.
 */
int boot_check_lengths(struct halo_ctx *ctx, struct boot_run *run,
		       const struct boot_edits *edits, struct halo_errors *errs)
{
	_cleanup_strv_free_ char **gen = NULL;
	const struct boot_levels *lv;
	int r;

	for (size_t e = 0; e < edits->n; e++) {
		const struct boot_edit *ed = &edits->v[e];

		if (!ed->content || (ed->old && strcmp(ed->old, ed->content) == 0))
			continue;
		if (!length_fits(ctx, ed->path, ed->result, errs))
			return 0;
	}
	r = boot_levels_get(ctx, run, &lv);
	if (r < 0 || lv->gen_err < 0 ||
	    halo_cmdline_satisfies(lv->gen, run->want.set, run->want.remove))
		return r < 0 ? r : 0;
	if (halo_cmdline_merge(lv->gen, run->want.set, run->want.remove, &gen) < 0)
		return -ENOMEM;
	(void)length_fits(ctx, lv->gen_where, gen, errs);
	return 0;
}
