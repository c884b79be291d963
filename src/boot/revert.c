/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * revert.c: --revert's boot items. What apply changed in files it does
 * not own is undone from the record (record.h): a key whose tokens are
 * still the ones apply set gets its earlier tokens back, a key the
 * operator changed since stays; when nothing else changed, the value's
 * earlier bytes come back exactly. The owned drop-in and the record are
 * plain owned files (engine/revert.c removes them by their header). The
 * parameters taken out are pending until a reboot; the distribution's
 * regeneration runs as for apply (grubby with the reverse edit), and
 * under --root is reported, not run.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "boot/bootint.h"
#include "boot/cmdline.h"
#include "engine/revert.h"
#include "util/rootfs.h"
#include "util/strv.h"

/* Adds the reverse of the entries of PATH/VAR that CUR still holds to
 * WANT: "was" to set, "ours" to remove. */
static int want_reverse(const struct boot_record *rec, const char *path, const char *var,
			char *const *cur, struct boot_want *want)
{
	for (size_t i = 0; i < rec->nk; i++) {
		const struct boot_rec_key *e = &rec->k[i];
		size_t n = 0, m = 0;

		if (strcmp(e->path, path) != 0 || strcmp(e->var, var) != 0)
			continue;
		for (size_t j = 0; cur[j]; j++)
			n += halo_kernel_param_has_key(cur[j], e->key);
		for (size_t j = 0; e->ours[j]; j++)
			m += halo_strv_contains((char **)cur, e->ours[j]);
		if (n != halo_strv_len(e->ours) || m != n)
			continue; /* the operator's now */
		for (size_t j = 0; e->ours[j]; j++)
			if (!halo_strv_contains(want->remove, e->ours[j]) &&
			    halo_strv_push(&want->remove, e->ours[j]) < 0)
				return -ENOMEM;
		for (size_t j = 0; e->was[j]; j++)
			if (!halo_strv_contains(want->set, e->was[j]) &&
			    halo_strv_push(&want->set, e->was[j]) < 0)
				return -ENOMEM;
	}
	return 0;
}

/* The undone value of one variable: its earlier bytes when the result
 * is what was there before, else the tokens quoted like the value.
 * *ret_encoded NULL: no change; *ret_delete: the line goes (apply had
 * added it). */
static int undo_var(const struct boot_record *rec, const char *var,
		    const struct halo_grub_assign *a, struct boot_want *want,
		    char **ret_encoded, bool *ret_delete)
{
	const struct boot_rec_orig *o = boot_record_orig(rec, BOOT_DEFAULT_GRUB, var);
	_cleanup_strv_free_ char **cur = NULL, **res = NULL;

	*ret_encoded = NULL;
	*ret_delete = false;
	if (!o || !a)
		return 0; /* no edit recorded, or the operator took the line out */
	if (halo_cmdline_split(a->value, &cur) < 0 ||
	    want_reverse(rec, BOOT_DEFAULT_GRUB, var, cur, want) < 0 ||
	    boot_record_undo(rec, BOOT_DEFAULT_GRUB, var, cur, &res, NULL) < 0)
		return -ENOMEM;
	if (halo_cmdline_equal(cur, res))
		return 0;
	if (boot_tokens_same_set(res, o->tokens)) {
		if (!o->raw) {
			*ret_delete = true;
			return 0;
		}
		*ret_encoded = strdup(o->raw);
	} else {
		*ret_encoded = boot_encode_tokens(res, a);
	}
	return *ret_encoded ? 0 : -ENOMEM;
}

/* Takes out the line of NAME's (only) assignment in TEXT. */
static int delete_line(char **text, const char *name)
{
	struct halo_grub_file f = { 0 };
	const struct halo_grub_assign *a;
	unsigned line;
	char *s = *text, *start, *end;

	if (halo_grubfile_scan(s, &f, &line) < 0)
		return 0;
	if (halo_grubfile_count(&f, name, &a, NULL) == 1) {
		start = s + a->start;
		while (start > s && start[-1] != '\n')
			start--;
		end = strchr(s + a->end, '\n');
		end = end ? end + 1 : s + strlen(s);
		memmove(start, end, strlen(end) + 1);
	}
	halo_grubfile_free(&f);
	return 0;
}

static int add_edit(struct halo_plan *plan, const char *path, const char *content,
		    mode_t mode)
{
	struct halo_item *item;
	int r = halo_plan_add_file(plan, HALO_SUB_BOOT, HALO_PHASE_BOOT, path, content, mode,
				   &item);

	if (r < 0)
		return r;
	item->reverting = true;
	return halo_item_set_note(item, "--revert: the parameters halo-provision set, taken out");
}

static int revert_default_grub(struct halo_ctx *ctx, const struct boot_record *rec,
			       struct halo_plan *plan, struct boot_want *want,
			       struct halo_errors *errs)
{
	static const char *const vars[] = { BOOT_VAR_LINUX, BOOT_VAR_DEFAULT };
	_cleanup_free_ char *text = NULL, *content = NULL;
	struct halo_grub_file f = { 0 };
	struct var_edit e[2] = { { 0 } };
	bool del[2] = { false, false };
	unsigned line = 0;
	mode_t mode;
	int r;

	if (!boot_record_orig(rec, BOOT_DEFAULT_GRUB, BOOT_VAR_LINUX) &&
	    !boot_record_orig(rec, BOOT_DEFAULT_GRUB, BOOT_VAR_DEFAULT))
		return 0;
	r = boot_read_target(ctx, BOOT_DEFAULT_GRUB, 0644, &text, &mode, errs);
	if (r < 0 || !text)
		return r;
	r = halo_grubfile_scan(text, &f, &line);
	if (r == -EINVAL) {
		_cleanup_free_ char *where = boot_where(ctx, BOOT_DEFAULT_GRUB, line);

		halo_errors_add(errs, "%s: unterminated quote", where ? where : BOOT_DEFAULT_GRUB);
		return r;
	}
	if (r < 0)
		return r;
	for (size_t v = 0; v < 2 && r >= 0; v++) {
		const struct halo_grub_assign *a = NULL;

		/* Assigned more than once: not the file apply edited. */
		if (halo_grubfile_count(&f, vars[v], &a, NULL) > 1)
			continue;
		e[v] = (struct var_edit){ a, vars[v], NULL };
		r = undo_var(rec, vars[v], a, want, &e[v].encoded, &del[v]);
	}
	if (r >= 0)
		r = boot_apply_var_edits(text, &f, e, 2, &content);
	for (size_t v = 0; v < 2 && r >= 0; v++)
		if (del[v])
			r = delete_line(&content, vars[v]);
	if (r >= 0)
		r = add_edit(plan, BOOT_DEFAULT_GRUB, content, mode);
	free(e[0].encoded);
	free(e[1].encoded);
	halo_grubfile_free(&f);
	return r;
}

static int revert_kcmdline(struct halo_ctx *ctx, const struct boot_record *rec,
			   struct halo_plan *plan, struct boot_want *want,
			   struct halo_errors *errs)
{
	const struct boot_rec_orig *o = boot_record_orig(rec, BOOT_KERNEL_CMDLINE, "-");
	_cleanup_free_ char *old = NULL, *joined = NULL, *content = NULL;
	_cleanup_strv_free_ char **cur = NULL, **res = NULL;
	mode_t mode;
	int r;

	if (!o)
		return 0;
	r = boot_read_target(ctx, BOOT_KERNEL_CMDLINE, 0644, &old, &mode, errs);
	if (r < 0 || !old)
		return r;
	if (halo_cmdline_split(old, &cur) < 0 ||
	    want_reverse(rec, BOOT_KERNEL_CMDLINE, "-", cur, want) < 0 ||
	    boot_record_undo(rec, BOOT_KERNEL_CMDLINE, "-", cur, &res, NULL) < 0)
		return -ENOMEM;
	if (halo_cmdline_equal(cur, res)) {
		content = strdup(old);
	} else if (boot_tokens_same_set(res, o->tokens)) {
		/* Apply had created it: it goes again. */
		if (!o->raw)
			return add_edit(plan, BOOT_KERNEL_CMDLINE, NULL, mode);
		content = strdup(o->raw);
	} else {
		joined = halo_cmdline_join(res);
		content = joined ? halo_strdup_printf("%s\n", joined) : NULL;
	}
	if (!content)
		return -ENOMEM;
	return add_edit(plan, BOOT_KERNEL_CMDLINE, content, mode);
}

/* The owned drop-in's parameters: what the files sourced before it give,
 * against what they give with it. */
static int dropin_reverse(struct halo_ctx *ctx, struct boot_want *want,
			  struct halo_errors *errs)
{
	_cleanup_free_ char *text = NULL, *l1 = NULL, *d1 = NULL;
	_cleanup_strv_free_ char **a = NULL, **b = NULL, **x = NULL, **y = NULL;
	char *before[2] = { NULL, NULL };
	_cleanup_free_ char *l0 = NULL, *d0 = NULL;
	size_t len;
	int r = halo_read_file(ctx, BOOT_DROPIN_PATH, &text, &len);

	if (r < 0 || !halo_is_managed(text, len))
		return 0; /* absent or not ours: the file item says so */
	/* One evaluation gives both; any file unreadable fails both. */
	if (boot_grub_eval_marked(ctx, BOOT_DROPIN_NAME, &l1, &d1, before, NULL) < 0)
		return 0; /* unreadable files: nothing known to take out */
	l0 = before[0];
	d0 = before[1];
	(void)errs;
	if (halo_cmdline_split(l0, &x) < 0 || halo_cmdline_split(d0, &y) < 0 ||
	    boot_concat(x, y, &a) < 0)
		return -ENOMEM;
	halo_strv_free(x);
	halo_strv_free(y);
	x = y = NULL;
	if (halo_cmdline_split(l1, &x) < 0 || halo_cmdline_split(d1, &y) < 0 ||
	    boot_concat(x, y, &b) < 0)
		return -ENOMEM;
	for (size_t i = 0; b[i]; i++)
		if (!halo_strv_contains(a, b[i]) && !halo_strv_contains(want->remove, b[i]) &&
		    halo_strv_push(&want->remove, b[i]) < 0)
			return -ENOMEM;
	for (size_t i = 0; a[i]; i++)
		if (!halo_strv_contains(b, a[i]) && !halo_strv_contains(want->set, a[i]) &&
		    halo_strv_push(&want->set, a[i]) < 0)
			return -ENOMEM;
	return 0;
}

int boot_revert_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		     const struct boot_backend *backend, struct halo_plan *plan,
		     struct halo_errors *errs)
{
	struct boot_record rec = { 0 };
	struct halo_item *record;
	struct boot_run *run = calloc(1, sizeof(*run));
	size_t n_errs = errs->n, first;
	int r;

	if (!run)
		return -ENOMEM;
	run->refs = 1;
	run->backend = backend;
	run->regenerate = cfg->boot.present ? cfg->boot.regenerate : true;
	run->want.set = calloc(1, sizeof(char *));
	run->want.remove = calloc(1, sizeof(char *));
	r = run->want.set && run->want.remove ? boot_record_load(ctx, &rec, errs) : -ENOMEM;
	if (r >= 0)
		r = dropin_reverse(ctx, &run->want, errs);
	if (r >= 0)
		r = revert_default_grub(ctx, &rec, plan, &run->want, errs);
	if (r >= 0)
		r = revert_kcmdline(ctx, &rec, plan, &run->want, errs);
	if (r == -EINVAL && errs->n > n_errs)
		r = 0;
	/* The owned files, by the header rule (engine/revert.c). */
	if (r >= 0 && errs->n == n_errs)
		r = halo_plan_add_file(plan, HALO_SUB_BOOT, HALO_PHASE_BOOT, BOOT_DROPIN_PATH,
				       NULL, 0644, NULL);
	if (r >= 0 && errs->n == n_errs) {
		r = halo_plan_add_file(plan, HALO_SUB_BOOT, HALO_PHASE_BOOT, BOOT_RECORD_PATH,
				       NULL, 0644, &record);
		if (r >= 0)
			record->what = BOOT_RECORD_WHAT;
	}
	first = plan->n;
	/* Parameters to take out or put back: their items, and the
	 * regeneration when the loader is known. */
	if (r >= 0 && errs->n == n_errs && backend && (run->want.set[0] || run->want.remove[0])) {
		r = boot_add_items(ctx, plan, run);
		for (size_t i = first; i < plan->n; i++)
			plan->items[i]->reverting = true;
	}
	boot_record_free(&rec);
	boot_run_unref(run);
	return r < 0 ? r : 0;
}
