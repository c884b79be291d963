/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan-want.c: the wanted edit of the command line from boot = { }.
 *
 * Wanted parameters, in this order: iommu=<iommu>, pcie_aspm=<pcie_aspm>,
 * pci=realloc, the GTT parameter(s), then extra. pci_realloc = false puts
 * "pci=realloc" on the removal list, next to boot.remove.
 *
 * GTT: <prefix>.pages_limit = MiB * 256 where the prefix is "amdttm" for
 * gtt_params = "amdttm", or for "auto" when the run found amdgpu to be
 * the amdgpu-dkms build (ctx->amdgpu_dkms: /sys/module/amdttm under the
 * root, or a DKMS amdgpu module file); "ttm" otherwise. "ttm+gttsize"
 * adds amdgpu.gttsize=<MiB>.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "boot/bootint.h"
#include "boot/cmdline.h"
#include "boot/gtt.h"
#include "util/strv.h"

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

static bool use_amdttm(const struct halo_ctx *ctx, enum halo_gtt_params p)
{
	if (p == HALO_GTT_PARAMS_AMDTTM)
		return true;
	return p == HALO_GTT_PARAMS_AUTO && ctx->amdgpu_dkms;
}

int boot_plan_want(struct halo_ctx *ctx, const struct halo_config *cfg,
		   struct boot_run *run, struct halo_errors *errs)
{
	const struct halo_boot_config *b = &cfg->boot;
	struct boot_want *w = &run->want;

	w->set = calloc(1, sizeof(char *));
	w->remove = calloc(1, sizeof(char *));
	if (!w->set || !w->remove)
		return -ENOMEM;
	if (b->iommu != HALO_IOMMU_UNSET &&
	    push_printf(&w->set, "iommu=%s", halo_iommu_mode_name(b->iommu)) < 0)
		return -ENOMEM;
	if (b->pcie_aspm != HALO_PCIE_ASPM_UNSET &&
	    push_printf(&w->set, "pcie_aspm=%s", halo_pcie_aspm_name(b->pcie_aspm)) < 0)
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
		const struct halo_kernel_param *x = &b->extra.v[i];

		/* amd_iommu has no "pt" mode: iommu=pt is meant
		 * (docs/hardware.md, "Kernel command line"). */
		if (strcmp(x->key, "amd_iommu") == 0 && x->value && strcmp(x->value, "pt") == 0)
			halo_errors_add(errs, "%s:%d: boot.extra: amd_iommu=pt is not a kernel "
					"option (amd_iommu has no pt mode); use boot.iommu = \"pt\"",
					halo_config_name(cfg), x->line);
		if (halo_strv_push(&w->set, x->text) < 0)
			return -ENOMEM;
	}
	for (size_t i = 0; i < b->remove.n; i++)
		if (halo_strv_push(&w->remove, b->remove.v[i].text) < 0)
			return -ENOMEM;
	return 0;
}
