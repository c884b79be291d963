/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * backend_dropin.c: Debian/Ubuntu. An owned drop-in,
 * /etc/default/grub.d/zz-halo-provision.cfg, named to sort after every
 * other drop-in (Ubuntu cloud images replace GRUB_CMDLINE_LINUX_DEFAULT
 * in 50-cloudimg-settings.cfg).
 *
 * What it holds is decided from the values the files sourced before it
 * give (/etc/default/grub, then the grub.d *.cfg that sort earlier):
 *  - only additions needed: it appends, so later edits of the other files
 *    still count:
 *      GRUB_CMDLINE_LINUX_DEFAULT="$GRUB_CMDLINE_LINUX_DEFAULT iommu=pt ..."
 *  - something must be taken out or replaced (boot.remove, a same-key
 *    parameter with another value): appending cannot remove, so it assigns
 *    the computed values of the variable(s) that change:
 *      GRUB_CMDLINE_LINUX_DEFAULT="splash iommu=pt ..."
 *    Every run recomputes them from the other files, so an edit there
 *    shows up as drift of the drop-in;
 *  - nothing needed: the drop-in must not exist (a stale one is removed).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "boot/bootint.h"
#include "boot/cmdline.h"
#include "boot/grubfile.h"
#include "util/strv.h"
#include "util/template.h"

/* True if A is a prefix of B. */
static bool is_prefix(char *const *a, char *const *b)
{
	size_t i = 0;

	for (; a[i]; i++)
		if (!b[i] || strcmp(a[i], b[i]) != 0)
			return false;
	return true;
}

static void put_assign(struct halo_buf *b, const char *name, const char *value)
{
	_cleanup_free_ char *q = halo_grubfile_quote(value, '"');

	if (!q) {
		b->oom = true;
		return;
	}
	halo_buf_printf(b, "%s=%s\n", name, q);
}

/* templates/grub-dropin.cfg with the assignment lines in B (its last
 * newline is the template's). NULL on ENOMEM. */
static char *render_template(struct halo_buf *b)
{
	_cleanup_free_ char *lines = halo_buf_steal(b);
	char *out = NULL;
	size_t len;

	if (!lines)
		return NULL;
	len = strlen(lines);
	if (len > 0 && lines[len - 1] == '\n')
		lines[len - 1] = '\0';
	if (halo_template_render("grub-dropin.cfg",
				 (const char *const[]){ "ASSIGNMENTS", lines, NULL }, &out) < 0)
		return NULL;
	return out;
}

static char *render(char *const *l, char *const *d, char *const *l2,
		    char *const *d2)
{
	struct halo_buf b = { 0 };
	bool same_l = halo_cmdline_equal(l, l2);

	if (same_l && halo_cmdline_equal(d, d2))
		return NULL;
	if (same_l && is_prefix(d, d2)) {
		_cleanup_free_ char *tail = halo_cmdline_join(d2 + halo_strv_len((char **)d));
		_cleanup_free_ char *v = tail ? halo_strdup_printf(
			"%c%s %s", HALO_GRUB_DOLLAR, BOOT_VAR_DEFAULT, tail) : NULL;

		if (!v)
			b.oom = true;
		else
			put_assign(&b, BOOT_VAR_DEFAULT, v);
		return render_template(&b);
	}
	halo_buf_puts(&b, "# Parameters had to be removed or replaced, so the values below\n"
			  "# were computed from the files sourced before this one.\n");
	if (!same_l) {
		_cleanup_free_ char *v = halo_cmdline_join(l2);

		if (!v)
			b.oom = true;
		else
			put_assign(&b, BOOT_VAR_LINUX, v);
	}
	if (!halo_cmdline_equal(d, d2)) {
		_cleanup_free_ char *v = halo_cmdline_join(d2);

		if (!v)
			b.oom = true;
		else
			put_assign(&b, BOOT_VAR_DEFAULT, v);
	}
	return render_template(&b);
}

int boot_dropin_plan(struct halo_ctx *ctx, struct boot_run *run,
		     struct boot_edits *edits, struct halo_errors *errs)
{
	_cleanup_free_ char *old = NULL, *lin = NULL, *def = NULL;
	_cleanup_strv_free_ char **l = NULL, **d = NULL, **l2 = NULL,
				 **d2 = NULL, **result = NULL;
	const struct boot_levels *lv;
	char *content;
	mode_t mode;
	int r;

	r = boot_read_target(ctx, BOOT_DROPIN_PATH, 0644, &old, &mode, errs);
	if (r < 0)
		return r;
	/* Read with the levels (GTT conflicts, pci= ask for them first)
	 * when every file evaluated cleanly; else here, to report why. */
	lv = boot_levels_peek(ctx, run);
	if (lv && lv->conf_err == 0 && lv->dropin_before[0]) {
		lin = strdup(lv->dropin_before[0]);
		def = strdup(lv->dropin_before[1]);
		if (!lin || !def)
			return -ENOMEM;
	} else {
		r = boot_grub_eval(ctx, true, BOOT_DROPIN_NAME, &lin, &def, errs, NULL);
		if (r < 0)
			return r;
	}
	if (halo_cmdline_split(lin, &l) < 0 || halo_cmdline_split(def, &d) < 0 ||
	    boot_grub_split_merge(l, d, &run->want, false, &l2, &d2) < 0 ||
	    boot_concat(l2, d2, &result) < 0)
		return -ENOMEM;
	content = render(l, d, l2, d2);
	if (!content && !(halo_cmdline_equal(l, l2) && halo_cmdline_equal(d, d2)))
		return -ENOMEM;
	/* Owned file: always 0644, whatever mode a stale copy had. */
	return boot_edits_add(edits, BOOT_DROPIN_PATH, TAKE_PTR(old), content,
			      0644, TAKE_PTR(result));
}
