/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * items.c: the boot items besides the files.
 *
 *  boot/param/<key>    the wanted tokens with that key (e.g. iommu=pt);
 *  boot/remove/<spec>  a parameter that must be absent;
 *  boot/regenerate     the distribution's tool (update-grub, grub2-mkconfig,
 *                      grubby) has turned the files into boot entries;
 *  boot/gtt            the GTT size amdgpu reports after boot.
 *
 * Params and removals have no apply op: the file items carry the change.
 * Their observation looks at three levels: configured (the files), generated
 * (grub.cfg or the default BLS entry, when there is one) and active
 * (/proc/cmdline). Configured but not generated or not active is
 * pending-reboot.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "boot/bootint.h"
#include "boot/cmdline.h"
#include "boot/gtt.h"
#include "boot/shellquote.h"
#include "host/drm.h"
#include "util/rootfs.h"
#include "util/spawn.h"
#include "util/strv.h"

enum kind { KIND_PARAM, KIND_REMOVE, KIND_REGEN, KIND_GTT };

struct item_data {
	struct boot_run *run;
	enum kind kind;
	char *key;    /* param key or removal spec */
	char **group; /* KIND_PARAM: the wanted tokens with that key */
	char **argv;  /* KIND_REGEN */
	const char *note; /* static: said when nothing else needs saying */
};

void boot_run_unref(struct boot_run *run)
{
	if (!run || --run->refs > 0)
		return;
	boot_levels_free(&run->levels);
	halo_strv_free(run->want.set);
	halo_strv_free(run->want.remove);
	free(run->gtt_key);
	free(run->gtt_conflict);
	free(run);
}

static void item_data_free(void *p)
{
	struct item_data *d = p;

	if (!d)
		return;
	boot_run_unref(d->run);
	free(d->key);
	halo_strv_free(d->group);
	halo_strv_free(d->argv);
	free(d);
}

/* A generated level that is there but unreadable (a FIFO, a device, a
 * huge file): the item fails naming the file. */
static int gen_failed(struct halo_ctx *ctx, struct halo_item *item,
		      const struct boot_levels *lv)
{
	_cleanup_free_ char *shown = lv->gen_where ? halo_root_display_path(ctx, lv->gen_where) :
						    NULL;

	if (lv->gen_where && !shown)
		return -ENOMEM;
	return halo_item_fail(item, lv->gen_err, "reading the generated boot entry%s%s",
			      shown ? " " : "", shown ? shown : "");
}

/* The levels for an observation, or a failed item. */
static int levels_read(struct halo_ctx *ctx, struct halo_item *item,
		       struct boot_run *run, const struct boot_levels **ret)
{
	const struct boot_levels *lv;
	int r = boot_levels_get(ctx, run, &lv);

	if (r < 0)
		return r;
	if (lv->conf_err < 0)
		return halo_item_fail(item, lv->conf_err, "%s",
				      lv->conf_msg ? lv->conf_msg : "reading the configured command line");
	if (lv->gen_err < 0 && lv->gen_err != -ENOENT && lv->gen_err != -ENOTDIR)
		return gen_failed(ctx, item, lv);
	if (lv->act_err < 0 && lv->act_err != -ENOENT)
		return halo_item_fail(item, lv->act_err, "reading /proc/cmdline");
	*ret = lv;
	return 0;
}

static bool holds(const struct item_data *d, char *const *tokens)
{
	if (d->kind == KIND_PARAM)
		return halo_cmdline_has_group(tokens, d->group, d->key);
	return !halo_cmdline_has_removable(tokens, d->key);
}

/* What a level has for this item; NULL when absent. */
static char *shown(const struct item_data *d, char *const *tokens)
{
	struct halo_buf b = { 0 };
	bool any = false;

	for (size_t i = 0; tokens[i]; i++) {
		bool match = d->kind == KIND_PARAM ?
				     halo_kernel_param_has_key(tokens[i], d->key) :
				     halo_cmdline_remove_matches(d->key, tokens[i]);
		if (!match)
			continue;
		if (any)
			halo_buf_append(&b, " ", 1);
		halo_buf_puts(&b, tokens[i]);
		any = true;
	}
	if (!any) {
		halo_buf_free(&b);
		return NULL;
	}
	return halo_buf_steal(&b);
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* "iommu=pt" when every level agrees, else each level's value. */
static int set_observed(struct halo_item *item, const struct item_data *d,
			const struct boot_levels *lv)
{
	_cleanup_free_ char *c = shown(d, lv->conf);
	_cleanup_free_ char *g = lv->gen ? shown(d, lv->gen) : NULL;
	_cleanup_free_ char *a = lv->act ? shown(d, lv->act) : NULL;

	if ((!lv->gen || same_str(c, g)) && (!lv->act || same_str(c, a)))
		return c ? halo_item_set_observed(item, "%s", c) :
			   halo_item_set_observed(item, NULL);
	return halo_item_set_observed(item, "configured: %s%s%s, active: %s",
				      c ? c : "absent",
				      lv->gen ? ", generated: " : "",
				      lv->gen ? (g ? g : "absent") : "",
				      lv->act ? (a ? a : "absent") : "unknown");
}

static int cmdline_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	struct item_data *d = item->data;
	const struct boot_levels *lv = NULL;
	int r = levels_read(ctx, item, d->run, &lv);

	if (r < 0)
		return r;
	r = set_observed(item, d, lv);
	if (r < 0)
		return r;
	if (!holds(d, lv->conf)) {
		/* Whether the change would leave a reboot pending, which a
		 * dry-run's exit status predicts: not when the running kernel
		 * already has it (a revert before any reboot), unless the
		 * generated level stays behind (regeneration is not run under
		 * --root). */
		item->activates_on_reboot = !lv->act || !holds(d, lv->act) ||
					    (ctx->under_root && lv->gen && !holds(d, lv->gen));
		r = HALO_SYNC_DIFFERS;
	} else if (lv->gen && !holds(d, lv->gen))
		r = halo_item_set_message(item, "regenerate, then reboot (not yet in %s)",
					  lv->gen_where) < 0 ? -ENOMEM : HALO_SYNC_PENDING;
	else if (!lv->act)
		r = halo_item_set_message(item, "no /proc/cmdline to compare") < 0 ?
			    -ENOMEM : HALO_SYNC_PENDING;
	else if (!holds(d, lv->act))
		r = halo_item_set_message(item, "active after reboot") < 0 ?
			    -ENOMEM : HALO_SYNC_PENDING;
	else
		r = d->note && halo_item_set_message(item, "%s", d->note) < 0 ?
			    -ENOMEM : HALO_SYNC_OK;
	/* A modprobe.d setting that disagrees: the host cannot match. */
	if (r >= 0 && d->kind == KIND_PARAM && d->run->gtt_conflict &&
	    d->run->gtt_key && strcmp(d->key, d->run->gtt_key) == 0) {
		if (halo_item_set_message(item, "%s", d->run->gtt_conflict) < 0)
			r = -ENOMEM;
		else
			r = HALO_SYNC_DIFFERS;
	}
	return r;
}

static const struct halo_item_ops cmdline_ops = {
	.observe = cmdline_observe,
	.apply = NULL,
	.free_data = item_data_free,
};

/* Shown for pasting: each argument one shell word (grubby's --args=
 * holds spaces). */
static char *argv_display(char *const *argv)
{
	return halo_shell_join(argv);
}

static int regen_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	struct item_data *d = item->data;
	const struct boot_want *w = &d->run->want;
	const struct boot_levels *lv;
	_cleanup_free_ char *shown_gen = NULL;
	int r = boot_levels_get(ctx, d->run, &lv);

	if (r < 0)
		return -ENOMEM;
	r = lv->gen_err;
	if (r == -ENOENT || r == -ENOTDIR) {
		if (halo_item_set_observed(item, NULL) < 0)
			return -ENOMEM;
		/* Under --root an image may have no boot entries yet. */
		return ctx->under_root ? HALO_SYNC_OK : HALO_SYNC_DIFFERS;
	}
	if (r < 0)
		return gen_failed(ctx, item, lv);
	shown_gen = halo_cmdline_join(lv->gen);
	if (!shown_gen || halo_item_set_observed(item, "%s: %s", lv->gen_where, shown_gen) < 0)
		return -ENOMEM;
	if (halo_cmdline_satisfies(lv->gen, w->set, w->remove))
		return HALO_SYNC_OK;
	if (!ctx->under_root)
		return HALO_SYNC_DIFFERS;
	/* The command is the wanted value, quoted for pasting. */
	if (halo_item_set_message(item, "run it in the image") < 0)
		return -ENOMEM;
	return HALO_SYNC_PENDING;
}

static int regen_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	struct item_data *d = item->data;
	_cleanup_free_ char *out = NULL, *err = NULL;
	int status = 0, r;

	if (ctx->under_root)
		return halo_item_set_note(item, "not run under --root") < 0 ? -ENOMEM : 0;
	r = halo_spawn(ctx, (const char *const *)d->argv, &status, &out, &err);
	if (r < 0)
		return halo_item_fail(item, r, "running %s", d->argv[0]);
	if (status != 0) {
		if (err)
			err[strcspn(err, "\n")] = '\0';
		(void)halo_item_set_message(item, "%s exited with status %d%s%s",
					    d->argv[0], status,
					    err && *err ? ": " : "", err ? err : "");
		return -EIO;
	}
	return 0;
}

static const struct halo_item_ops regen_ops = {
	.observe = regen_observe,
	.apply = regen_apply,
	.free_data = item_data_free,
};

static int gtt_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	struct item_data *d = item->data;
	const struct boot_levels *lv;
	uint64_t want = d->run->gtt_mib * 1024 * 1024, have = 0;
	_cleanup_free_ char *dir = NULL, *path = NULL, *text = NULL;
	char *end;
	size_t len;
	int r;

	r = halo_host_amdgpu_card(ctx, &dir);
	if (r == -ENOENT) {
		(void)halo_item_set_observed(item, NULL);
		return halo_item_set_message(item, "no amdgpu card under /sys/class/drm") < 0 ?
			       -ENOMEM : HALO_SYNC_UNSUPPORTED;
	}
	if (r < 0)
		return halo_item_fail(item, r, "looking for the amdgpu card");
	path = halo_strdup_printf("%s/mem_info_gtt_total", dir);
	if (!path)
		return -ENOMEM;
	r = halo_read_file(ctx, path, &text, &len);
	if (r < 0)
		return halo_item_fail(item, r, "reading %s", path);
	errno = 0;
	have = strtoull(text, &end, 10);
	if (errno || end == text)
		return halo_item_fail(item, -EINVAL, "%s: not a number", path);
	if (halo_item_set_observed(item, "%" PRIu64 " MiB", have / (1024 * 1024)) < 0)
		return -ENOMEM;
	if (have == want)
		return HALO_SYNC_OK;
	r = boot_levels_get(ctx, d->run, &lv);
	if (r < 0)
		return r;
	if (lv->act_err < 0 && lv->act_err != -ENOENT)
		return halo_item_fail(item, lv->act_err, "reading /proc/cmdline");
	if (lv->act && halo_cmdline_has_group(lv->act, d->run->want.set, d->run->gtt_key)) {
		/* Booted with it, yet the driver did not take it. */
		return halo_item_set_message(item,
			"%s is active but amdgpu reports %" PRIu64 " MiB (amdgpu-dkms reads amdttm., "
			"newer kernels cap GTT at RAM)",
			d->run->gtt_key, have / (1024 * 1024)) < 0 ? -ENOMEM : HALO_SYNC_DIFFERS;
	}
	return halo_item_set_message(item, "active after reboot") < 0 ? -ENOMEM :
									   HALO_SYNC_PENDING;
}

static const struct halo_item_ops gtt_ops = {
	.observe = gtt_observe,
	.apply = NULL,
	.free_data = item_data_free,
};

static int add(struct halo_plan *plan, struct boot_run *run, enum kind kind,
	       const char *key, const char *item_key,
	       const struct halo_item_ops *ops, struct halo_item **ret)
{
	struct item_data *d;
	int r;

	r = halo_plan_add_new(plan, item_key, HALO_SUB_BOOT, HALO_PHASE_BOOT, ops,
			      sizeof(*d), ret);
	if (r < 0)
		return r;
	(*ret)->activates_on_reboot = kind != KIND_REGEN;
	d = (*ret)->data;
	run->refs++;
	d->run = run;
	d->kind = kind;
	if (key && !(d->key = strdup(key)))
		return -ENOMEM;
	return 0;
}

static int add_param(struct halo_plan *plan, struct boot_run *run,
		     const char *tok)
{
	const char *k;
	size_t n = halo_kernel_param_key(tok, &k);
	_cleanup_free_ char *key = strndup(k, n), *ikey = NULL, *wanted = NULL;
	struct halo_item *item;
	struct item_data *d;
	int r;

	if (!key)
		return -ENOMEM;
	ikey = halo_strdup_printf("boot/param/%s", key);
	if (!ikey)
		return -ENOMEM;
	if (halo_plan_find(plan, ikey))
		return 0; /* a repeated key (console=...): one item per group */
	r = add(plan, run, KIND_PARAM, key, ikey, &cmdline_ops, &item);
	if (r < 0)
		return r;
	item->cmdline_param = true;
	d = item->data;
	d->group = calloc(1, sizeof(char *));
	if (!d->group)
		return -ENOMEM;
	for (size_t i = 0; run->want.set[i]; i++)
		if (halo_kernel_param_has_key(run->want.set[i], key) &&
		    halo_strv_push(&d->group, run->want.set[i]) < 0)
			return -ENOMEM;
	/* A common misreading of this parameter (docs/hardware.md "Kernel command line"). */
	if (halo_strv_contains(d->group, "pcie_aspm=off"))
		d->note = "pcie_aspm=off leaves the firmware's ASPM setup as it is; "
			  "pcie_aspm.policy=performance disables ASPM";
	wanted = halo_cmdline_join(d->group);
	if (!wanted)
		return -ENOMEM;
	return halo_item_set_wanted(item, "%s", wanted);
}

int boot_add_items(struct halo_ctx *ctx, struct halo_plan *plan,
		   struct boot_run *run)
{
	struct halo_item *item;
	int r;

	if (run->regenerate) {
		_cleanup_strv_free_ char **argv = NULL;
		_cleanup_free_ char *cmd = NULL;

		r = run->backend->regen_argv(ctx, &run->want, &argv);
		if (r < 0)
			return r;
		if (argv) {
			cmd = argv_display(argv);
			if (!cmd)
				return -ENOMEM;
			r = add(plan, run, KIND_REGEN, NULL, "boot/regenerate", &regen_ops, &item);
			if (r < 0)
				return r;
			((struct item_data *)item->data)->argv = TAKE_PTR(argv);
			item->wanted_command = true;
			r = halo_item_set_wanted(item, "%s", cmd);
			if (r < 0)
				return r;
		}
	}
	for (size_t i = 0; run->want.set[i]; i++) {
		r = add_param(plan, run, run->want.set[i]);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; run->want.remove[i]; i++) {
		_cleanup_free_ char *ikey = halo_strdup_printf("boot/remove/%s",
								run->want.remove[i]);

		if (!ikey)
			return -ENOMEM;
		if (halo_plan_find(plan, ikey))
			continue;
		r = add(plan, run, KIND_REMOVE, run->want.remove[i], ikey, &cmdline_ops, &item);
		if (r < 0)
			return r;
		r = halo_item_set_wanted(item, "absent");
		if (r < 0)
			return r;
	}
	if (run->gtt_mib) {
		r = add(plan, run, KIND_GTT, NULL, "boot/gtt", &gtt_ops, &item);
		if (r < 0)
			return r;
		r = halo_item_set_wanted(item, "%" PRIu64 " MiB", run->gtt_mib);
		if (r < 0)
			return r;
	}
	return 0;
}
