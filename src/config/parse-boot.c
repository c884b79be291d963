/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse-boot.c: the boot = { } section (kernel command line). */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "config/kernel-param.h"
#include "config/parse-common.h"
#include "config/sections.h"
#include "util/strv.h"

static const char *const boot_keys[] = {
	"loader", "iommu", "gtt_mib", "reserve_mib", "gtt_params", "pci_realloc",
	"pcie_aspm", "extra", "remove", "regenerate", NULL,
};

static const char *parse_param(const char *text, int line, void *elem)
{
	const char *why = NULL;
	int r = halo_kernel_param_parse(text, line, elem, &why);

	return r == -ENOMEM ? HALO_PARSE_OOM : why;
}

static void clear_param(void *elem) { halo_kernel_param_clear(elem); }

/* The same token twice is listed twice; one key with two values is
 * checked below. */
static const struct halo_elem_parser param_parser = {
	.elem_size = sizeof(struct halo_kernel_param),
	.text_offset = offsetof(struct halo_kernel_param, text),
	.parse = parse_param,
	.clear = clear_param,
};

static void get_params(struct halo_pctx *p, const struct halo_cset *g, const char *key,
		       struct halo_kernel_params *ret)
{
	void *v = NULL;

	(void)halo_pget_parsed(p, g, "boot", key, &param_parser, &v, &ret->n);
	ret->v = v;
}

/* Which key owns a parameter this config already sets, or NULL. */
static const char *managed_by(const struct halo_boot_config *b, const char *key)
{
	if (b->iommu != HALO_IOMMU_UNSET && strcmp(key, "iommu") == 0)
		return "boot.iommu";
	if (b->pci_realloc != HALO_UNSET && strcmp(key, "pci") == 0)
		return "boot.pci_realloc";
	if (b->pcie_aspm != HALO_PCIE_ASPM_UNSET && strcmp(key, "pcie_aspm") == 0)
		return "boot.pcie_aspm";
	if (b->gtt_set && (strcmp(key, "ttm.pages_limit") == 0 ||
			   strcmp(key, "amdttm.pages_limit") == 0 ||
			   strcmp(key, "amdgpu.gttsize") == 0))
		return "boot.gtt_mib";
	return NULL;
}

/* Parameters the kernel takes several times, each adding to the last:
 * consoles, hugepage pools (hugepagesz=1G hugepages=4 hugepagesz=2M ...),
 * memory map entries. Any other key given twice is a mistake. */
static bool param_repeatable(const char *key)
{
	static const char *const keys[] = { "console", "hugepagesz", "hugepages", "memmap", NULL };

	return halo_keyword_index(keys, key) >= 0;
}

static void check_params(struct halo_pctx *p, const struct halo_boot_config *b)
{
	char q[96];

	for (size_t i = 0; i < b->extra.n; i++) {
		const struct halo_kernel_param *x = &b->extra.v[i];
		const char *owner = managed_by(b, x->key);

		if (owner)
			halo_perr(p, x->line, "boot.extra: %s conflicts with %s "
				  "(set it there, or drop that key)",
				  halo_pquote(x->text, q, sizeof(q)), owner);
		for (size_t j = 0; j < i; j++) {
			const struct halo_kernel_param *y = &b->extra.v[j];

			if (strcmp(x->key, y->key) == 0 &&
			    (!param_repeatable(x->key) || strcmp(x->text, y->text) == 0)) {
				halo_perr(p, x->line, "boot.extra: parameter \"%s\" "
					  "is already given at line %d", x->key, y->line);
				break;
			}
		}
		for (size_t j = 0; j < b->remove.n; j++)
			if (strcmp(x->key, b->remove.v[j].key) == 0) {
				halo_perr(p, x->line, "boot.extra: parameter \"%s\" "
					  "is also in boot.remove (line %d)", x->key,
					  b->remove.v[j].line);
				break;
			}
	}
	for (size_t i = 0; i < b->remove.n; i++) {
		const char *owner = managed_by(b, b->remove.v[i].key);

		if (owner)
			halo_perr(p, b->remove.v[i].line, "boot.remove: %s is set by %s",
				  halo_pquote(b->remove.v[i].text, q, sizeof(q)), owner);
	}
}

static void parse_gtt(struct halo_pctx *p, const struct halo_cset *g, struct halo_boot_config *b)
{
	const struct halo_cset *s = halo_cset_member(g, "gtt_mib");
	char q[96];
	int64_t v;

	if (!s)
		return;
	b->gtt_line = halo_cset_line(s);
	if (halo_pkind(p, s) == HALO_CSET_STRING) {
		if (strcmp(halo_cset_string(s), "auto") == 0) {
			b->gtt_set = b->gtt_auto = true;
			return;
		}
		halo_perr(p, b->gtt_line, "boot.gtt_mib: %s is neither an integer (MiB) nor \"auto\"",
			  halo_pquote(halo_cset_string(s), q, sizeof(q)));
		return;
	}
	if (halo_pkind(p, s) != HALO_CSET_INT) {
		halo_perr(p, b->gtt_line, "boot.gtt_mib: expected an integer (MiB) or \"auto\", got %s",
			  halo_cset_kind_name(halo_cset_kind(s)));
		return;
	}
	/* 256 MiB .. 16 TiB: beyond either end is a unit mistake. */
	if (halo_pget_int(p, g, "boot", "gtt_mib", 256, 16777216, &v, NULL) > 0) {
		b->gtt_set = true;
		b->gtt_mib = (uint64_t)v;
	}
}

void halo_parse_boot(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c)
{
	struct halo_boot_config *b = &c->boot;
	const struct halo_cset *g;
	int64_t v;
	int i;
	bool flag;

	if (halo_pget_group(p, root, "", "boot", boot_keys, &g) <= 0)
		return;
	b->present = true;
	b->line = halo_cset_line(g);
	if (halo_pget_keyword(p, g, "boot", "loader", halo_loader_keywords, &i) > 0)
		b->loader = (enum halo_boot_loader)i;
	if (halo_pget_keyword(p, g, "boot", "iommu", halo_iommu_keywords + 1, &i) > 0)
		b->iommu = (enum halo_iommu_mode)(i + 1);
	parse_gtt(p, g, b);
	if (halo_pget_int(p, g, "boot", "reserve_mib", 0, 16777216, &v, NULL) > 0)
		b->reserve_mib = (uint64_t)v;
	if (halo_pget_keyword(p, g, "boot", "gtt_params", halo_gtt_params_keywords, &i) > 0)
		b->gtt_params = (enum halo_gtt_params)i;
	if (halo_pget_bool(p, g, "boot", "pci_realloc", &flag) > 0)
		b->pci_realloc = flag ? HALO_TRUE : HALO_FALSE;
	if (halo_pget_keyword(p, g, "boot", "pcie_aspm", halo_pcie_aspm_keywords + 1, &i) > 0)
		b->pcie_aspm = (enum halo_pcie_aspm)(i + 1);
	get_params(p, g, "extra", &b->extra);
	get_params(p, g, "remove", &b->remove);
	halo_pget_bool(p, g, "boot", "regenerate", &b->regenerate);
	check_params(p, b);
}
