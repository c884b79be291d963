/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * grubeval.c: the GRUB_CMDLINE_LINUX(_DEFAULT) values that grub-mkconfig
 * will see: /etc/default/grub, then /etc/default/grub.d *.cfg in name
 * order, each assignment evaluated in turn (self references such as
 * "$GRUB_CMDLINE_LINUX_DEFAULT iommu=pt" expanded; other expansions kept
 * as text). Shared by the grub and grub-dropin backends.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "boot/bootint.h"
#include "boot/cmdline.h"
#include "boot/grubfile.h"
#include "util/rootfs.h"
#include "util/strv.h"

static const char *const var_names[] = { BOOT_VAR_LINUX, BOOT_VAR_DEFAULT, NULL };

static void report(struct halo_errors *errs, char **ret_msg, const char *where,
		   const char *what)
{
	if (errs)
		halo_errors_add(errs, "%s: %s", where, what);
	else if (ret_msg && !*ret_msg)
		*ret_msg = halo_strdup_printf("%s: %s", where, what);
}

static int eval_file(struct halo_ctx *ctx, const char *path, char **vals,
		     struct halo_errors *errs, char **ret_msg)
{
	_cleanup_free_ char *text = NULL;
	struct halo_grub_file f;
	unsigned line = 0;
	size_t len;
	int r = halo_read_file(ctx, path, &text, &len);

	if (r == -ENOENT)
		return 0;
	if (r < 0) {
		_cleanup_free_ char *where = boot_where(ctx, path, 0);

		report(errs, ret_msg, where ? where : path, halo_root_strerror(r));
		return -EINVAL;
	}
	r = halo_grubfile_scan(text, &f, &line);
	if (r == -EINVAL) {
		_cleanup_free_ char *where = boot_where(ctx, path, line);

		report(errs, ret_msg, where ? where : path,
		       "unterminated quote");
		return r;
	}
	if (r < 0)
		return r;
	for (size_t i = 0; i < f.n; i++)
		for (size_t v = 0; var_names[v]; v++) {
			char *nv;

			if (strcmp(f.assigns[i].name, var_names[v]) != 0)
				continue;
			nv = halo_grubfile_expand(f.assigns[i].value, var_names,
						  (const char *const *)vals);
			if (!nv) {
				halo_grubfile_free(&f);
				return -ENOMEM;
			}
			free(vals[v]);
			vals[v] = nv;
		}
	halo_grubfile_free(&f);
	return 0;
}

/* Copies of VALS into RET_MARK (once: a NULL first slot). */
static int mark_here(char *const vals[2], char *ret_mark[2])
{
	if (!ret_mark || ret_mark[0])
		return 0;
	ret_mark[0] = strdup(vals[0]);
	ret_mark[1] = strdup(vals[1]);
	return ret_mark[0] && ret_mark[1] ? 0 : -ENOMEM;
}

/* boot_grub_eval; with MARK (and STOP_BEFORE NULL) the values before the
 * grub.d file MARK also go to RET_MARK, which the caller frees. */
static int eval_all(struct halo_ctx *ctx, bool with_main, const char *stop_before,
		    const char *mark, char *ret_mark[2], char **ret_linux,
		    char **ret_default, struct halo_errors *errs, char **ret_msg)
{
	_cleanup_strv_free_ char **names = NULL;
	char *vals[2] = { strdup(""), strdup("") };
	int r = 0;

	if (!vals[0] || !vals[1]) {
		r = -ENOMEM;
		goto out;
	}
	if (with_main) {
		r = eval_file(ctx, BOOT_DEFAULT_GRUB, vals, errs, ret_msg);
		if (r < 0)
			goto out;
	}
	r = halo_root_list_dir(ctx, BOOT_GRUB_D, &names);
	if (r == -ENOENT || r == -ENOTDIR)
		r = 0;
	else if (r < 0)
		goto out;
	for (size_t i = 0; names && names[i]; i++) {
		_cleanup_free_ char *path = NULL;
		size_t n = strlen(names[i]);

		if (n <= 4 || strcmp(names[i] + n - 4, ".cfg") != 0)
			continue;
		if (stop_before && strcmp(names[i], stop_before) >= 0)
			break;
		if (mark && strcmp(names[i], mark) >= 0) {
			r = mark_here(vals, ret_mark);
			if (r < 0)
				goto out;
		}
		path = halo_strdup_printf("%s/%s", BOOT_GRUB_D, names[i]);
		if (!path) {
			r = -ENOMEM;
			goto out;
		}
		r = eval_file(ctx, path, vals, errs, ret_msg);
		if (r < 0)
			goto out;
	}
	if (mark) {
		r = mark_here(vals, ret_mark); /* no file at or after MARK */
		if (r < 0)
			goto out;
	}
	*ret_linux = TAKE_PTR(vals[0]);
	*ret_default = TAKE_PTR(vals[1]);
out:
	free(vals[0]);
	free(vals[1]);
	return r;
}

int boot_grub_eval(struct halo_ctx *ctx, bool with_main,
		   const char *stop_before, char **ret_linux,
		   char **ret_default, struct halo_errors *errs,
		   char **ret_msg)
{
	return eval_all(ctx, with_main, stop_before, NULL, NULL, ret_linux,
			ret_default, errs, ret_msg);
}

int boot_grub_eval_marked(struct halo_ctx *ctx, const char *mark,
			  char **ret_linux, char **ret_default,
			  char *ret_mark[2], char **ret_msg)
{
	char *m[2] = { NULL, NULL };
	int r = eval_all(ctx, true, NULL, mark, m, ret_linux, ret_default, NULL, ret_msg);

	if (r < 0) {
		free(m[0]);
		free(m[1]);
		return r;
	}
	ret_mark[0] = m[0];
	ret_mark[1] = m[1];
	return 0;
}

static bool key_in_tokens(char *const *tokens, const char *tok)
{
	const char *k;
	size_t n = halo_kernel_param_key(tok, &k);
	_cleanup_free_ char *key = strndup(k, n);

	for (size_t i = 0; key && tokens && tokens[i]; i++)
		if (halo_kernel_param_has_key(tokens[i], key))
			return true;
	return false;
}

int boot_grub_split_merge(char *const *l, char *const *d,
			  const struct boot_want *want, bool to_linux,
			  char ***ret_l, char ***ret_d)
{
	_cleanup_strv_free_ char **set_l = calloc(1, sizeof(char *));
	_cleanup_strv_free_ char **set_d = calloc(1, sizeof(char *));
	_cleanup_strv_free_ char **rm_d = calloc(1, sizeof(char *));
	_cleanup_strv_free_ char **out_l = NULL, **out_d = NULL;

	if (!set_l || !set_d || !rm_d)
		return -ENOMEM;
	for (size_t i = 0; want->remove && want->remove[i]; i++)
		if (halo_strv_push(&rm_d, want->remove[i]) < 0)
			return -ENOMEM;
	for (size_t i = 0; want->set && want->set[i]; i++) {
		const char *t = want->set[i];
		bool in_l = key_in_tokens(l, t);
		bool in_d = !in_l && key_in_tokens(d, t);
		bool go_l = in_l || (!in_d && to_linux);

		if (halo_strv_push(go_l ? &set_l : &set_d, t) < 0)
			return -ENOMEM;
		/* Placed in LINUX: a same-key token in DEFAULT would win. */
		if (go_l) {
			const char *k;
			size_t n = halo_kernel_param_key(t, &k);
			_cleanup_free_ char *key = strndup(k, n);

			if (!key || halo_strv_push(&rm_d, key) < 0)
				return -ENOMEM;
		}
	}
	if (halo_cmdline_merge(l, set_l, want->remove, &out_l) < 0 ||
	    halo_cmdline_merge(d, set_d, rm_d, &out_d) < 0)
		return -ENOMEM;
	*ret_l = TAKE_PTR(out_l);
	*ret_d = TAKE_PTR(out_d);
	return 0;
}

int boot_concat(char *const *l, char *const *d, char ***ret)
{
	_cleanup_strv_free_ char **v = calloc(1, sizeof(char *));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; l && l[i]; i++)
		if (halo_strv_push(&v, l[i]) < 0)
			return -ENOMEM;
	for (size_t i = 0; d && d[i]; i++)
		if (halo_strv_push(&v, d[i]) < 0)
			return -ENOMEM;
	*ret = TAKE_PTR(v);
	return 0;
}
