/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * backend_kcmdline.c: systemd-boot / kernel-install. /etc/kernel/cmdline
 * holds the whole command line that kernel-install gives new kernels. An
 * existing file is merged (and left byte for byte when nothing changes);
 * a missing one is created from the default BLS entry's options, else
 * from /proc/cmdline without BOOT_IMAGE= and initrd= (what kernel-install
 * itself would fall back to). Tokens of the entry that refer to GRUB
 * variables ($tuned_params, $kernelopts on Fedora) are left out: GRUB
 * expands them at boot, kernel-install would copy them verbatim into
 * every new entry. The file's item says which were left out. Existing entries are rebuilt by the next
 * kernel-install; there is no regeneration step of its own.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "boot/bootint.h"
#include "boot/cmdline.h"
#include "util/rootfs.h"
#include "util/strv.h"

/* The entry's tokens without GRUB variable references; *ret_note names
 * the ones left out (NULL: none). */
static int drop_grub_vars(char **tok, const char *where, char ***ret,
			  char **ret_note)
{
	_cleanup_strv_free_ char **keep = calloc(1, sizeof(char *));
	struct halo_buf skipped = { 0 };
	bool any = false;

	if (!keep)
		return -ENOMEM;
	for (size_t i = 0; tok[i]; i++) {
		if (!halo_cmdline_has_grub_var(tok[i])) {
			if (halo_strv_push(&keep, tok[i]) < 0)
				return -ENOMEM;
			continue;
		}
		halo_buf_printf(&skipped, "%s%s", any ? " " : "", tok[i]);
		any = true;
	}
	if (any) {
		_cleanup_free_ char *list = halo_buf_steal(&skipped);

		*ret_note = list ? halo_strdup_printf(
			"created from the options of %s without %s (GRUB variables, "
			"not kernel parameters)", where, list) : NULL;
		if (!*ret_note)
			return -ENOMEM;
	}
	*ret = TAKE_PTR(keep);
	return 0;
}

/* The tokens a missing /etc/kernel/cmdline starts from. An unreadable
 * BLS entry fails with *RET_FAILED its path (when known). */
static int base_tokens(struct halo_ctx *ctx, char ***ret, char **ret_note,
		       char **ret_failed)
{
	static const char *const drop[] = { "BOOT_IMAGE", "initrd", NULL };
	_cleanup_strv_free_ char **tok = NULL;
	_cleanup_free_ char *where = NULL;
	int r = boot_read_bls_default(ctx, &tok, &where);

	if (r == -ENOENT || r == -ENOTDIR) {
		r = boot_read_active(ctx, &tok);
		if (r == -ENOENT)
			return halo_cmdline_split("", ret);
		if (r < 0)
			return r;
		return halo_cmdline_merge(tok, NULL, (char *const *)drop, ret);
	}
	if (r < 0) {
		/* where names the BLS entry that could not be read */
		*ret_failed = TAKE_PTR(where);
		return r;
	}
	return drop_grub_vars(tok, where, ret, ret_note);
}

int boot_kcmdline_edit(struct halo_ctx *ctx, const struct boot_want *want,
		       struct boot_edits *edits, struct halo_errors *errs)
{
	_cleanup_free_ char *old = NULL, *joined = NULL, *note = NULL, *failed = NULL;
	_cleanup_strv_free_ char **cur = NULL, **merged = NULL;
	char *content;
	mode_t mode;
	int r;

	r = boot_read_target(ctx, BOOT_KERNEL_CMDLINE, 0644, &old, &mode, errs);
	if (r < 0)
		return r;
	r = old ? halo_cmdline_split(old, &cur) : base_tokens(ctx, &cur, &note, &failed);
	if (r < 0 && failed && r != -ENOMEM) {
		_cleanup_free_ char *why = halo_root_read_error(ctx, failed, r);

		if (!why)
			return -ENOMEM;
		halo_errors_add(errs, "%s (the default boot entry, the base of %s)", why,
				BOOT_KERNEL_CMDLINE);
		return -EINVAL;
	}
	if (r < 0)
		return r;
	if (halo_cmdline_merge(cur, want->set, want->remove, &merged) < 0)
		return -ENOMEM;
	/* Recorded for --revert (record.h). */
	if (boot_record_change(&edits->rec, BOOT_KERNEL_CMDLINE, "-", old, cur, merged) < 0)
		return -ENOMEM;
	if (old && halo_cmdline_equal(cur, merged)) {
		content = strdup(old);
	} else {
		joined = halo_cmdline_join(merged);
		content = joined ? halo_strdup_printf("%s\n", joined) : NULL;
	}
	if (!content)
		return -ENOMEM;
	r = boot_edits_add(edits, BOOT_KERNEL_CMDLINE, TAKE_PTR(old), content,
			   mode, TAKE_PTR(merged));
	if (r >= 0)
		edits->v[edits->n - 1].note = TAKE_PTR(note);
	return r;
}

int boot_kcmdline_configured(struct halo_ctx *ctx, struct boot_levels *lv,
			     char ***ret_tokens, char **ret_msg)
{
	_cleanup_free_ char *text = NULL;
	size_t len;
	int r = halo_read_file(ctx, BOOT_KERNEL_CMDLINE, &text, &len);

	if (r == -ENOENT)
		return halo_cmdline_split("", ret_tokens);
	if (r < 0) {
		if (ret_msg)
			*ret_msg = halo_strdup_printf("%s: %s", BOOT_KERNEL_CMDLINE,
						      halo_root_strerror(r));
		return r;
	}
	return halo_cmdline_split(text, ret_tokens);
}

static int kcmdline_plan(struct halo_ctx *ctx, struct boot_run *run,
			 struct boot_edits *edits, struct halo_errors *errs)
{
	return boot_kcmdline_edit(ctx, &run->want, edits, errs);
}

static int no_generated(struct halo_ctx *ctx, char ***ret_tokens,
			char **ret_where)
{
	return -ENOENT;
}

static int no_regen(struct halo_ctx *ctx, const struct boot_want *want,
		    char ***ret_argv)
{
	*ret_argv = NULL;
	return 0;
}

const struct boot_backend halo_boot_backend_kcmdline = {
	.loader = HALO_LOADER_KERNEL_CMDLINE,
	.plan = kcmdline_plan,
	.configured = boot_kcmdline_configured,
	.generated = no_generated,
	.regen_argv = no_regen,
};
