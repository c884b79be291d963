/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * boot.c: turns boot = { } into items (DESIGN.md "boot").
 *
 * Wanted parameters, in this order: iommu=<iommu>, pcie_aspm=<pcie_aspm>,
 * pci=realloc, the GTT parameter(s), then extra. pci_realloc = false puts
 * "pci=realloc" on the removal list, next to boot.remove.
 *
 * GTT (gtt_mib, FACTS.md 2): <prefix>.pages_limit = MiB * 256 where the
 * prefix is "amdttm" for gtt_params = "amdttm", or for "auto" when
 * /sys/module/amdttm exists under the root or the modules subsystem says
 * amdgpu is the DKMS build; "ttm" otherwise. "ttm+gttsize" adds
 * amdgpu.gttsize=<MiB>. Validation errors: /proc/meminfo missing or without
 * MemTotal, GTT above MemTotal - reserve_mib. A warning above the ROCm
 * ceiling. Existing GTT parameters on the configured command line that
 * disagree with the wanted size (another pages_limit, amdgpu.gttsize * 256
 * != pages) are removed (their boot/remove/<token> item shows the drift);
 * an `options ttm pages_limit=` (or amdttm, or amdgpu gttsize) in
 * modprobe.d that disagrees is drift on boot/param/<prefix>.pages_limit.
 *
 * Before any file item is added: a root=UUID=/LABEL=/PARTUUID=/PARTLABEL=
 * in a command line that a changed file would carry must resolve to a block
 * device (rootdev.h), else a validation error.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>

#include "boot/boot.h"
#include "boot/bootint.h"
#include "boot/cmdline.h"
#include "boot/detect.h"
#include "boot/gtt.h"
#include "boot/rootdev.h"
#include "modules/modules.h"
#include "util/rootfs.h"
#include "util/strv.h"

static const char *const gtt_keys[] = { "ttm.pages_limit", "amdttm.pages_limit",
					"amdgpu.gttsize", NULL };

static const struct boot_backend *backend_for(enum halo_boot_loader l)
{
	switch (l) {
	case HALO_LOADER_GRUB:
		return &halo_boot_backend_grub;
	case HALO_LOADER_GRUB_DROPIN:
		return &halo_boot_backend_dropin;
	case HALO_LOADER_BLS:
		return &halo_boot_backend_bls;
	case HALO_LOADER_KERNEL_CMDLINE:
		return &halo_boot_backend_kcmdline;
	default:
		return NULL;
	}
}

static int push_printf(char ***v, const char *fmt, ...) _printf_(2, 3);
static int push_printf(char ***v, const char *fmt, ...)
{
	struct halo_buf b = { 0 };
	_cleanup_free_ char *s = NULL;
	va_list ap;

	va_start(ap, fmt);
	halo_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	s = halo_buf_steal(&b);
	if (!s)
		return -ENOMEM;
	return halo_strv_push(v, s);
}

static bool use_amdttm(struct halo_ctx *ctx, enum halo_gtt_params p)
{
	bool dkms = false;

	if (p == HALO_GTT_PARAMS_AMDTTM)
		return true;
	if (p != HALO_GTT_PARAMS_AUTO)
		return false;
	if (halo_root_exists(ctx, "/sys/module/amdttm") > 0)
		return true;
	return halo_modules_amdgpu_is_dkms(ctx, &dkms) >= 0 && dkms;
}

/* The GTT size in MiB (0: not managed), checked against /proc/meminfo. */
static int plan_gtt(struct halo_ctx *ctx, const struct halo_config *cfg,
		    struct halo_plan *plan, struct halo_errors *errs,
		    uint64_t *ret_mib)
{
	const struct halo_boot_config *b = &cfg->boot;
	_cleanup_free_ char *text = NULL, *where = NULL;
	uint64_t kib, ram, gtt, limit, ceiling;
	size_t len;
	int r;

	*ret_mib = 0;
	if (!b->gtt_set)
		return 0;
	where = boot_where(ctx, "/proc/meminfo", 0);
	if (!where)
		return -ENOMEM;
	r = halo_read_file(ctx, "/proc/meminfo", &text, &len);
	if (r < 0) {
		halo_errors_add(errs, "%s: %s (needed for boot.gtt_mib)", where,
				r == -ENOENT ? "missing" : strerror(-r));
		return 0;
	}
	if (halo_meminfo_memtotal_kib(text, &kib) < 0) {
		halo_errors_add(errs, "%s: no MemTotal line in kB (needed for boot.gtt_mib)",
				where);
		return 0;
	}
	ram = kib / 1024;
	gtt = b->gtt_auto ? halo_gtt_auto_mib(ram, b->reserve_mib) : b->gtt_mib;
	limit = ram > b->reserve_mib ? ram - b->reserve_mib : 0;
	if (gtt == 0 || gtt > limit) {
		halo_errors_add(errs,
				"%s:%d: boot.gtt_mib %s%" PRIu64 " MiB does not fit MemTotal %" PRIu64
				" MiB minus reserve_mib %" PRIu64 " MiB (at most %" PRIu64 " MiB)",
				cfg->path, b->gtt_line ? b->gtt_line : b->line,
				b->gtt_auto ? "\"auto\" = " : "", gtt, ram, b->reserve_mib, limit);
		return 0;
	}
	ceiling = halo_gtt_ceiling_mib(ram);
	if (gtt > ceiling &&
	    halo_plan_warn(plan, "boot.gtt_mib %" PRIu64 " MiB is above what ROCm can use "
			   "(MemTotal - MemTotal/64 - 1.5 GiB = %" PRIu64 " MiB)",
			   gtt, ceiling) < 0)
		return -ENOMEM;
	*ret_mib = gtt;
	return 0;
}

static int build_want(struct halo_ctx *ctx, const struct halo_config *cfg,
		      struct boot_run *run, struct halo_errors *errs)
{
	const struct halo_boot_config *b = &cfg->boot;
	struct boot_want *w = &run->want;

	w->set = calloc(1, sizeof(char *));
	w->remove = calloc(1, sizeof(char *));
	if (!w->set || !w->remove)
		return -ENOMEM;
	if (b->iommu && push_printf(&w->set, "iommu=%s", b->iommu) < 0)
		return -ENOMEM;
	if (b->pcie_aspm && push_printf(&w->set, "pcie_aspm=%s", b->pcie_aspm) < 0)
		return -ENOMEM;
	if (b->pci_realloc == HALO_TRUE && halo_strv_push(&w->set, "pci=realloc") < 0)
		return -ENOMEM;
	if (b->pci_realloc == HALO_FALSE && halo_strv_push(&w->remove, "pci=realloc") < 0)
		return -ENOMEM;
	if (run->gtt_mib) {
		bool amdttm = use_amdttm(ctx, b->gtt_params);

		run->gtt_key = strdup(amdttm ? "amdttm.pages_limit" : "ttm.pages_limit");
		if (!run->gtt_key ||
		    push_printf(&w->set, "%s=%" PRIu64, run->gtt_key,
				halo_gtt_pages(run->gtt_mib)) < 0)
			return -ENOMEM;
		if (b->gtt_params == HALO_GTT_PARAMS_TTM_GTTSIZE &&
		    push_printf(&w->set, "amdgpu.gttsize=%" PRIu64, run->gtt_mib) < 0)
			return -ENOMEM;
	}
	for (size_t i = 0; i < b->extra.n; i++) {
		const char *t = b->extra.v[i];

		/* FACTS.md 9: amd_iommu has no "pt" mode; iommu=pt is meant. */
		if (halo_cmdline_remove_matches("amd_iommu=pt", t))
			halo_errors_add(errs, "%s:%d: boot.extra: amd_iommu=pt is not a kernel "
					"option (amd_iommu has no pt mode); use boot.iommu = \"pt\"",
					cfg->path, b->extra.line[i]);
		if (halo_strv_push(&w->set, t) < 0)
			return -ENOMEM;
	}
	for (size_t i = 0; i < b->remove.n; i++)
		if (halo_strv_push(&w->remove, b->remove.v[i]) < 0)
			return -ENOMEM;
	return 0;
}

/* Pages that a GTT token stands for; false if it is not a number. */
static bool gtt_token_pages(const char *tok, uint64_t *ret)
{
	const char *eq = strchr(tok, '=');
	char *end;
	uint64_t v;

	if (!eq || !eq[1])
		return false;
	errno = 0;
	v = strtoull(eq + 1, &end, 10);
	if (errno || *end)
		return false;
	*ret = halo_cmdline_has_key(tok, "amdgpu.gttsize") ? v * 256 : v;
	return true;
}

/* Tokens of TOKS that carry a GTT size other than the wanted one go. */
static int remove_gtt_conflicts(struct boot_run *run, char *const *toks)
{
	uint64_t want = halo_gtt_pages(run->gtt_mib);

	for (size_t i = 0; toks && toks[i]; i++) {
		uint64_t pages;
		bool managed = false;

		for (size_t s = 0; run->want.set[s]; s++) {
			const char *k;
			size_t n = halo_cmdline_key(run->want.set[s], &k);
			_cleanup_free_ char *key = strndup(k, n);

			if (!key)
				return -ENOMEM;
			managed = managed || halo_cmdline_has_key(toks[i], key);
		}
		if (managed)
			continue;
		for (size_t g = 0; gtt_keys[g]; g++)
			if (halo_cmdline_has_key(toks[i], gtt_keys[g]) &&
			    (!gtt_token_pages(toks[i], &pages) || pages != want) &&
			    !halo_strv_contains(run->want.remove, toks[i]) &&
			    halo_strv_push(&run->want.remove, toks[i]) < 0)
				return -ENOMEM;
	}
	return 0;
}

/*
 * Existing GTT parameters that disagree with the wanted size go, from the
 * configured level and from the generated one too: once the files are
 * fixed, a boot entry that was never regenerated (grubby failed, an image
 * build) must still get its stale amdgpu.gttsize= removed.
 */
static int plan_gtt_conflicts(struct halo_ctx *ctx, struct boot_run *run)
{
	const struct boot_levels *lv;
	int r;

	if (!run->gtt_mib)
		return 0;
	r = boot_levels_get(ctx, run, &lv);
	/* Unreadable files: the backend's own plan reports them. */
	if (r < 0 || lv->conf_err < 0)
		return r;
	r = remove_gtt_conflicts(run, lv->conf);
	if (r < 0 || lv->gen_err < 0)
		return r;
	return remove_gtt_conflicts(run, lv->gen);
}

/*
 * pci= takes a comma list and the kernel reads every pci= token, so
 * pci=realloc must never replace the host's pci=noaer: the wanted token is
 * the host's own options in one list, with realloc added (or taken out for
 * pci_realloc = false). Recomputed every run from the configured level,
 * where it then reads back the same.
 */
static int plan_pci(struct halo_ctx *ctx, const struct halo_boot_config *b,
		    struct boot_run *run)
{
	_cleanup_strv_free_ char **opts = NULL;
	_cleanup_free_ char *tok = NULL;
	const struct boot_levels *lv;
	struct halo_buf list = { 0 };
	char *const *conf;
	char **slot = NULL;
	int r;

	if (b->pci_realloc == HALO_UNSET)
		return 0;
	r = boot_levels_get(ctx, run, &lv);
	/* Unreadable files: the backend's own plan reports them. */
	if (r < 0 || lv->conf_err < 0)
		return r;
	conf = lv->conf;
	for (size_t i = 0; conf[i]; i++) {
		_cleanup_free_ char *v = NULL;
		char *save = NULL;

		if (!halo_cmdline_has_key(conf[i], "pci") || !strchr(conf[i], '='))
			continue;
		v = strdup(strchr(conf[i], '=') + 1);
		if (!v)
			return -ENOMEM;
		for (char *o = strtok_r(v, ",", &save); o; o = strtok_r(NULL, ",", &save))
			if (strcmp(o, "realloc") != 0 && !halo_strv_contains(opts, o) &&
			    halo_strv_push(&opts, o) < 0)
				return -ENOMEM;
	}
	if (!opts)
		return 0; /* no other pci= options: pci=realloc as it is */
	for (size_t i = 0; opts[i]; i++)
		halo_buf_printf(&list, "%s%s", i ? "," : "", opts[i]);
	if (b->pci_realloc == HALO_TRUE)
		halo_buf_puts(&list, ",realloc");
	{
		_cleanup_free_ char *values = halo_buf_steal(&list);

		if (!values)
			return -ENOMEM;
		tok = halo_strdup_printf("pci=%s", values);
		if (!tok)
			return -ENOMEM;
	}
	/* Replace the plain pci=realloc wanted (or removed) by build_want. */
	for (size_t i = 0; run->want.set[i]; i++)
		if (strcmp(run->want.set[i], "pci=realloc") == 0)
			slot = &run->want.set[i];
	if (slot) {
		free(*slot);
		*slot = TAKE_PTR(tok);
		return 0;
	}
	for (size_t i = 0; run->want.remove[i]; i++)
		if (strcmp(run->want.remove[i], "pci=realloc") == 0) {
			/* Remove only realloc: the rest stays as one token. */
			free(run->want.remove[i]);
			for (size_t j = i; run->want.remove[j]; j++)
				run->want.remove[j] = run->want.remove[j + 1];
			return halo_strv_push(&run->want.set, tok);
		}
	return 0;
}

/* modprobe.d options for the GTT that disagree (drift, not ours to fix). */
static int plan_gtt_modprobe(struct halo_ctx *ctx, struct boot_run *run)
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
				if (gtt_token_pages(tok, &pages) && pages == want)
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

/* Every tagged root= of a command line a changed file would carry. */
static void check_root_devices(struct halo_ctx *ctx, const struct boot_edits *edits,
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
						ctx->under_root ? "/run/blkid/blkid.tab in the root)" : "");
			else
				halo_errors_add(errs, "%s: resolving %s: %s",
						where ? where : ed->path, t, strerror(-r));
		}
	}
}

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
static int check_lengths(struct halo_ctx *ctx, struct boot_run *run,
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

static int add_files(struct halo_plan *plan, const struct boot_edits *edits)
{
	for (size_t e = 0; e < edits->n; e++) {
		const struct boot_edit *ed = &edits->v[e];
		struct halo_item *item;
		int r = halo_plan_add_file(plan, HALO_SUB_BOOT, HALO_PHASE_BOOT, ed->path,
					   ed->content, ed->mode, &item);

		if (r < 0)
			return r;
		item->activates_on_reboot = true;
		if (ed->note && halo_item_set_message(item, "%s", ed->note) < 0)
			return -ENOMEM;
	}
	return 0;
}

int halo_boot_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		   struct halo_plan *plan, struct halo_errors *errs)
{
	const struct halo_boot_config *b = &cfg->boot;
	_cleanup_(boot_edits_free) struct boot_edits edits = { 0 };
	struct boot_run *run;
	enum halo_boot_loader loader = b->loader;
	size_t n_errs = errs->n;
	int r;

	if (!b->present || loader == HALO_LOADER_NONE)
		return 0;
	if (loader == HALO_LOADER_AUTO) {
		struct halo_boot_facts f;

		r = halo_boot_gather_facts(ctx, &f);
		if (r < 0)
			return r;
		loader = halo_boot_detect(&f);
		if (loader == HALO_LOADER_AUTO) {
			halo_errors_add(errs, "%s:%d: boot.loader = \"auto\": no boot loader found "
					"under %s (no /etc/default/grub, /etc/kernel/cmdline or "
					"/boot/loader/entries); set boot.loader",
					cfg->path, b->line, ctx->root);
			return 0;
		}
	}
	run = calloc(1, sizeof(*run));
	if (!run)
		return -ENOMEM;
	run->refs = 1;
	run->backend = backend_for(loader);
	run->regenerate = b->regenerate;

	r = plan_gtt(ctx, cfg, plan, errs, &run->gtt_mib);
	if (r >= 0)
		r = build_want(ctx, cfg, run, errs);
	if (r >= 0)
		r = plan_gtt_conflicts(ctx, run);
	if (r >= 0)
		r = plan_pci(ctx, b, run);
	if (r >= 0)
		r = plan_gtt_modprobe(ctx, run);
	if (r >= 0) {
		r = run->backend->plan(ctx, run, &edits, errs);
		if (r == -EINVAL && errs->n > n_errs)
			r = 0;
	}
	if (r >= 0)
		check_root_devices(ctx, &edits, errs);
	if (r >= 0 && errs->n == n_errs)
		r = check_lengths(ctx, run, &edits, errs);
	/* Nothing is added unless the whole boot section is valid. */
	if (r >= 0 && errs->n == n_errs) {
		r = add_files(plan, &edits);
		if (r >= 0)
			r = boot_add_items(ctx, plan, run);
	}
	boot_run_unref(run);
	return r < 0 ? r : 0;
}
