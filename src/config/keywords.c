/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * keywords.c: the closed value sets of halo.conf, one table each, indexed
 * by the enum. The parser reads through the same tables, so a keyword and
 * its enum value cannot drift apart. Index 0 of an enum with an UNSET
 * value is "" (never a keyword): parsers take table + 1 and add 1.
 */
#include "config/sections.h"

const char *const halo_loader_keywords[] = {
	[HALO_LOADER_AUTO] = "auto",
	[HALO_LOADER_GRUB] = "grub",
	[HALO_LOADER_GRUB_DROPIN] = "grub-dropin",
	[HALO_LOADER_BLS] = "bls",
	[HALO_LOADER_KERNEL_CMDLINE] = "kernel-cmdline",
	[HALO_LOADER_NONE] = "none",
	NULL,
};
const char *const halo_gtt_params_keywords[] = {
	[HALO_GTT_PARAMS_AUTO] = "auto",
	[HALO_GTT_PARAMS_TTM] = "ttm",
	[HALO_GTT_PARAMS_AMDTTM] = "amdttm",
	[HALO_GTT_PARAMS_TTM_GTTSIZE] = "ttm+gttsize",
	NULL,
};
const char *const halo_iommu_keywords[] = {
	[HALO_IOMMU_UNSET] = "",
	[HALO_IOMMU_PT] = "pt",
	[HALO_IOMMU_NOPT] = "nopt",
	[HALO_IOMMU_OFF] = "off",
	[HALO_IOMMU_FORCE] = "force",
	[HALO_IOMMU_SOFT] = "soft",
	NULL,
};
const char *const halo_pcie_aspm_keywords[] = {
	[HALO_PCIE_ASPM_UNSET] = "",
	[HALO_PCIE_ASPM_OFF] = "off",
	[HALO_PCIE_ASPM_FORCE] = "force",
	NULL,
};
const char *const halo_dcbx_keywords[] = {
	[HALO_DCBX_UNSET] = "",
	[HALO_DCBX_HOST] = "host",
	[HALO_DCBX_FIRMWARE] = "firmware",
	NULL,
};
const char *const halo_trust_keywords[] = {
	[HALO_TRUST_UNSET] = "",
	[HALO_TRUST_DSCP] = "dscp",
	[HALO_TRUST_PCP] = "pcp",
	NULL,
};

/* TABLE[V] for a real keyword, else NULL (UNSET's "", out of range). */
static const char *name_of(const char *const *table, size_t n, int v)
{
	if (v < 0 || (size_t)v >= n - 1 || !table[v][0])
		return NULL;
	return table[v];
}

#define NAME_OF(t, v) name_of((t), sizeof(t) / sizeof((t)[0]), (int)(v))

const char *halo_boot_loader_name(enum halo_boot_loader v)
{
	return NAME_OF(halo_loader_keywords, v);
}

const char *halo_gtt_params_name(enum halo_gtt_params v)
{
	return NAME_OF(halo_gtt_params_keywords, v);
}

const char *halo_iommu_mode_name(enum halo_iommu_mode v)
{
	return NAME_OF(halo_iommu_keywords, v);
}

const char *halo_pcie_aspm_name(enum halo_pcie_aspm v)
{
	return NAME_OF(halo_pcie_aspm_keywords, v);
}

const char *halo_dcbx_mode_name(enum halo_dcbx_mode v)
{
	return NAME_OF(halo_dcbx_keywords, v);
}

const char *halo_trust_mode_name(enum halo_trust_mode v)
{
	return NAME_OF(halo_trust_keywords, v);
}
