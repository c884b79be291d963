/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * backend_bls.c: Fedora/RHEL with Boot Loader Specification entries.
 * docs/hardware.md "Boot loader files": grubby --update-kernel=ALL --args/--remove-args edits
 * the existing entries (the regeneration step, run on the host only),
 * /etc/kernel/cmdline carries the same parameters to future kernels, and
 * GRUB_CMDLINE_LINUX in /etc/default/grub gets the same edit so a later
 * `grub2-mkconfig --update-bls-cmdline` agrees. The configured level is
 * /etc/kernel/cmdline, the generated one the default kernel's entry.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "boot/bootint.h"
#include "boot/cmdline.h"
#include "util/strv.h"

static int bls_plan(struct halo_ctx *ctx, struct boot_run *run,
		    struct boot_edits *edits, struct halo_errors *errs)
{
	int r = boot_kcmdline_edit(ctx, &run->want, edits, errs);
	int r2 = boot_grub_edit_default(ctx, &run->want, false, edits, errs, NULL);

	return r < 0 ? r : r2;
}

static int bls_regen_argv(struct halo_ctx *ctx, const struct boot_want *want,
			  char ***ret_argv)
{
	_cleanup_strv_free_ char **v = calloc(1, sizeof(char *));
	_cleanup_free_ char *args = halo_cmdline_join(want->set);
	_cleanup_free_ char *rm = halo_cmdline_join(want->remove);

	if (!v || !args || !rm)
		return -ENOMEM;
	if (halo_strv_push(&v, "grubby") < 0 ||
	    halo_strv_push(&v, "--update-kernel=ALL") < 0)
		return -ENOMEM;
	if (*args) {
		_cleanup_free_ char *a = halo_strdup_printf("--args=%s", args);

		if (!a || halo_strv_push(&v, a) < 0)
			return -ENOMEM;
	}
	if (*rm) {
		_cleanup_free_ char *a = halo_strdup_printf("--remove-args=%s", rm);

		if (!a || halo_strv_push(&v, a) < 0)
			return -ENOMEM;
	}
	*ret_argv = TAKE_PTR(v);
	return 0;
}

const struct boot_backend halo_boot_backend_bls = {
	.loader = HALO_LOADER_BLS,
	.plan = bls_plan,
	.configured = boot_kcmdline_configured,
	.generated = boot_read_bls_default,
	.regen_argv = bls_regen_argv,
};
