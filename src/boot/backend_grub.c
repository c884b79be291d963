/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * backend_grub.c: plain GRUB. GRUB_CMDLINE_LINUX in /etc/default/grub is
 * edited in place: only the bytes of its value change. A wanted key that
 * is already in GRUB_CMDLINE_LINUX_DEFAULT is replaced there, removals
 * apply to both. Refused (validation error with FILE:LINE): an
 * unterminated quote anywhere in the file, the variable assigned twice, a
 * value spanning lines. Regeneration: update-grub, or grub2-mkconfig /
 * grub-mkconfig where there is no update-grub.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "boot/bootint.h"
#include "boot/cmdline.h"
#include "boot/grubfile.h"
#include "util/rootfs.h"
#include "util/strv.h"

static void report_where(struct halo_ctx *ctx, struct halo_errors *errs,
			 unsigned line, const char *msg)
{
	_cleanup_free_ char *where = boot_where(ctx, BOOT_DEFAULT_GRUB, line);

	halo_errors_add(errs, "%s: %s", where ? where : BOOT_DEFAULT_GRUB, msg);
}

/* Applies in-place edits from the end of the file backwards (offsets stay
 * valid), then appends. */
int boot_apply_var_edits(const char *text, const struct halo_grub_file *f,
			   struct var_edit *e, size_t n, char **ret_text)
{
	_cleanup_free_ char *cur = strdup(text);

	if (!cur)
		return -ENOMEM;
	if (n == 2 && e[0].a && e[1].a && e[0].a->start < e[1].a->start) {
		struct var_edit t = e[0];

		e[0] = e[1];
		e[1] = t;
	}
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++) {
			char *next;

			if (!e[i].encoded || (pass == 0) != (e[i].a != NULL))
				continue;
			if (halo_grubfile_set(cur, f, e[i].a, e[i].name,
					      e[i].encoded, &next) < 0)
				return -ENOMEM;
			free(cur);
			cur = next;
		}
	*ret_text = TAKE_PTR(cur);
	return 0;
}

char *boot_encode_tokens(char *const *tokens, const struct halo_grub_assign *a)
{
	_cleanup_free_ char *joined = halo_cmdline_join(tokens);

	return joined ? halo_grubfile_quote(joined, a ? a->quote : '"') : NULL;
}

static int record_var(struct boot_record *rec, const char *text,
		      const struct halo_grub_assign *a, const char *var,
		      char *const *before, char *const *after)
{
	_cleanup_free_ char *raw = a ? strndup(text + a->start, a->end - a->start) : NULL;

	if (a && !raw)
		return -ENOMEM;
	return boot_record_change(rec, BOOT_DEFAULT_GRUB, var, raw, before, after);
}

int boot_grub_edit_default(struct halo_ctx *ctx, const struct boot_want *want,
			   bool required, struct boot_edits *edits,
			   struct halo_errors *errs, unsigned *ret_changed)
{
	_cleanup_free_ char *text = NULL, *content = NULL, *msg = NULL;
	_cleanup_strv_free_ char **l = NULL, **d = NULL, **l2 = NULL,
				 **d2 = NULL, **result = NULL;
	struct halo_grub_file f = { 0 };
	const struct halo_grub_assign *al, *ad;
	struct var_edit e[2] = { { 0 } };
	unsigned line = 0;
	mode_t mode;
	int r;

	if (ret_changed)
		*ret_changed = 0;
	r = boot_read_target(ctx, BOOT_DEFAULT_GRUB, 0644, &text, &mode, errs);
	if (r < 0)
		return r;
	if (!text) {
		if (required)
			report_where(ctx, errs, 0,
				     "missing (boot.loader is grub); nothing to edit");
		return required ? -EINVAL : 0;
	}
	r = halo_grubfile_scan(text, &f, &line);
	if (r == -EINVAL) {
		report_where(ctx, errs, line, "unterminated quote");
		return r;
	}
	if (r < 0)
		return r;
	if (halo_grubfile_check_editable(&f, BOOT_VAR_LINUX, &msg, &line) < 0) {
		report_where(ctx, errs, line, msg ? msg : "cannot be edited");
		r = -EINVAL;
		goto out;
	}
	halo_grubfile_count(&f, BOOT_VAR_LINUX, &al, NULL);
	halo_grubfile_count(&f, BOOT_VAR_DEFAULT, NULL, &ad);
	r = -ENOMEM;
	if (halo_cmdline_split(al ? al->value : "", &l) < 0 ||
	    halo_cmdline_split(ad ? ad->value : "", &d) < 0 ||
	    boot_grub_split_merge(l, d, want, true, &l2, &d2) < 0)
		goto out;

	if (!halo_cmdline_equal(l, l2)) {
		e[0] = (struct var_edit){ al, BOOT_VAR_LINUX, boot_encode_tokens(l2, al) };
		if (!e[0].encoded)
			goto out;
	}
	if (!halo_cmdline_equal(d, d2)) {
		free(msg);
		msg = NULL;
		if (halo_grubfile_check_editable(&f, BOOT_VAR_DEFAULT, &msg, &line) < 0) {
			report_where(ctx, errs, line, msg ? msg : "cannot be edited");
			r = -EINVAL;
			goto out;
		}
		e[1] = (struct var_edit){ ad, BOOT_VAR_DEFAULT, boot_encode_tokens(d2, ad) };
		if (!e[1].encoded)
			goto out;
	}
	/* Recorded for --revert (record.h) before the edit exists. */
	if (record_var(&edits->rec, text, al, BOOT_VAR_LINUX, l, l2) < 0 ||
	    record_var(&edits->rec, text, ad, BOOT_VAR_DEFAULT, d, d2) < 0)
		goto out;
	if (ret_changed)
		*ret_changed = (e[0].encoded ? BOOT_CHANGES_LINUX : 0) |
			       (e[1].encoded ? BOOT_CHANGES_DEFAULT : 0);
	if (boot_apply_var_edits(text, &f, e, 2, &content) < 0 ||
	    boot_concat(l2, d2, &result) < 0)
		goto out;
	r = boot_edits_add(edits, BOOT_DEFAULT_GRUB, TAKE_PTR(text),
			   TAKE_PTR(content), mode, TAKE_PTR(result));
out:
	free(e[0].encoded);
	free(e[1].encoded);
	halo_grubfile_free(&f);
	return r;
}

/* The first assignment of NAME in a grub.d *.cfg file (sourced after
 * /etc/default/grub): *ret_where "FILE:LINE", NULL when none. */
static int dropin_assigning(struct halo_ctx *ctx, const char *name,
			    char **ret_where)
{
	_cleanup_strv_free_ char **names = NULL;
	int r = halo_root_list_dir(ctx, BOOT_GRUB_D, &names);

	*ret_where = NULL;
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	if (r < 0)
		return r;
	for (size_t i = 0; names[i] && !*ret_where; i++) {
		_cleanup_free_ char *path = NULL, *text = NULL;
		const struct halo_grub_assign *a;
		struct halo_grub_file f;
		unsigned line = 0;
		size_t n = strlen(names[i]), len;

		if (n <= 4 || strcmp(names[i] + n - 4, ".cfg") != 0)
			continue;
		path = halo_strdup_printf("%s/%s", BOOT_GRUB_D, names[i]);
		if (!path)
			return -ENOMEM;
		/* Unreadable or unparseable: boot_grub_eval reported it. */
		if (halo_read_file(ctx, path, &text, &len) < 0 ||
		    halo_grubfile_scan(text, &f, &line) < 0)
			continue;
		if (halo_grubfile_count(&f, name, &a, NULL) > 0) {
			*ret_where = boot_where(ctx, path, a->line);
			if (!*ret_where) {
				halo_grubfile_free(&f);
				return -ENOMEM;
			}
		}
		halo_grubfile_free(&f);
	}
	return 0;
}

/*
 * A grub.d drop-in that assigns a variable this backend edits would undo
 * the edit (grub-mkconfig sources the drop-ins after /etc/default/grub):
 * every apply would then fail verification. Refused up front, but only
 * for the variables the edit changes: Ubuntu cloud images replace
 * GRUB_CMDLINE_LINUX_DEFAULT in 50-cloudimg-settings.cfg, which does not
 * matter to an edit of GRUB_CMDLINE_LINUX. The variables that change are
 * those of the edit of /etc/default/grub and those the same edit would
 * change in the values the drop-ins leave (a drop-in's own token to
 * remove or replace).
 */
static int check_no_override(struct halo_ctx *ctx, const struct boot_want *want,
			     unsigned changed, struct halo_errors *errs)
{
	static const char *const vars[] = { BOOT_VAR_LINUX, BOOT_VAR_DEFAULT };
	_cleanup_free_ char *lin = NULL, *def = NULL;
	_cleanup_strv_free_ char **l = NULL, **d = NULL, **l2 = NULL, **d2 = NULL;
	int r = boot_grub_eval(ctx, true, NULL, &lin, &def, errs, NULL);

	if (r < 0)
		return r;
	if (halo_cmdline_split(lin, &l) < 0 || halo_cmdline_split(def, &d) < 0 ||
	    boot_grub_split_merge(l, d, want, true, &l2, &d2) < 0)
		return -ENOMEM;
	if (!halo_cmdline_equal(l, l2))
		changed |= BOOT_CHANGES_LINUX;
	if (!halo_cmdline_equal(d, d2))
		changed |= BOOT_CHANGES_DEFAULT;
	for (size_t v = 0; v < ARRAY_SIZE(vars); v++) {
		_cleanup_free_ char *where = NULL;

		if (!(changed & (1u << v)))
			continue;
		r = dropin_assigning(ctx, vars[v], &where);
		if (r < 0)
			return r;
		if (!where)
			continue;
		halo_errors_add(errs, "%s: assigns %s after /etc/default/grub and would undo "
				"boot.loader = \"grub\"'s edit of it; use loader \"grub-dropin\" "
				"(or \"auto\")", where, vars[v]);
		return -EINVAL;
	}
	return 0;
}

static int grub_plan(struct halo_ctx *ctx, struct boot_run *run,
		     struct boot_edits *edits, struct halo_errors *errs)
{
	unsigned changed = 0;
	int r = boot_grub_edit_default(ctx, &run->want, true, edits, errs, &changed);

	if (r < 0)
		return r;
	return check_no_override(ctx, &run->want, changed, errs);
}

/* GRUB_CMDLINE_LINUX and _DEFAULT as tokens, one after the other. */
static int configured_of(const char *lin, const char *def, char ***ret_tokens)
{
	_cleanup_strv_free_ char **l = NULL, **d = NULL;

	if (halo_cmdline_split(lin, &l) < 0 || halo_cmdline_split(def, &d) < 0)
		return -ENOMEM;
	return boot_concat(l, d, ret_tokens);
}

int boot_grub_configured(struct halo_ctx *ctx, struct boot_levels *lv,
			 char ***ret_tokens, char **ret_msg)
{
	_cleanup_free_ char *lin = NULL, *def = NULL;
	int r = boot_grub_eval(ctx, true, NULL, &lin, &def, NULL, ret_msg);

	if (r < 0)
		return r;
	return configured_of(lin, def, ret_tokens);
}

/* The same, keeping in LV the values before the drop-in, which the
 * drop-in's plan starts from: the files are evaluated once a run. */
static int dropin_configured(struct halo_ctx *ctx, struct boot_levels *lv,
			     char ***ret_tokens, char **ret_msg)
{
	_cleanup_free_ char *lin = NULL, *def = NULL;
	char *before[2] = { NULL, NULL };
	int r;

	if (!lv)
		return boot_grub_configured(ctx, lv, ret_tokens, ret_msg);
	r = boot_grub_eval_marked(ctx, BOOT_DROPIN_NAME, &lin, &def, before, ret_msg);
	if (r < 0)
		return r;
	free(lv->dropin_before[0]);
	free(lv->dropin_before[1]);
	lv->dropin_before[0] = before[0];
	lv->dropin_before[1] = before[1];
	return configured_of(lin, def, ret_tokens);
}

int boot_strv_from(char ***ret, const char *const *args)
{
	_cleanup_strv_free_ char **v = calloc(1, sizeof(char *));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; args[i]; i++)
		if (halo_strv_push(&v, args[i]) < 0)
			return -ENOMEM;
	*ret = TAKE_PTR(v);
	return 0;
}

static int grub_regen_argv(struct halo_ctx *ctx, const struct boot_want *want,
			   char ***ret_argv)
{
	static const char *const update[] = { "update-grub", NULL };
	static const char *const mk2[] = { "grub2-mkconfig", "-o",
					   "/boot/grub2/grub.cfg", NULL };
	static const char *const mk[] = { "grub-mkconfig", "-o",
					  "/boot/grub/grub.cfg", NULL };
	struct stat st;

	if (halo_root_exists(ctx, "/usr/sbin/update-grub") > 0)
		return boot_strv_from(ret_argv, update);
	if (halo_root_lstat(ctx, "/boot/grub2", &st) == 0 && S_ISDIR(st.st_mode))
		return boot_strv_from(ret_argv, mk2);
	return boot_strv_from(ret_argv, mk);
}

static int dropin_regen_argv(struct halo_ctx *ctx, const struct boot_want *want,
			     char ***ret_argv)
{
	static const char *const update[] = { "update-grub", NULL };

	return boot_strv_from(ret_argv, update);
}

const struct boot_backend halo_boot_backend_grub = {
	.loader = HALO_LOADER_GRUB,
	.plan = grub_plan,
	.configured = boot_grub_configured,
	.generated = boot_read_grub_cfg,
	.regen_argv = grub_regen_argv,
};

/* The drop-in backend differs only in how it plans (backend_dropin.c). */
const struct boot_backend halo_boot_backend_dropin = {
	.loader = HALO_LOADER_GRUB_DROPIN,
	.plan = boot_dropin_plan,
	.configured = dropin_configured,
	.generated = boot_read_grub_cfg,
	.regen_argv = dropin_regen_argv,
};
