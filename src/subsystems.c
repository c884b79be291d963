/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * subsystems.c: the one place a subsystem is declared. Adding one: its
 * bit in halo.h, its row here, its folder with a local.mk. --help and
 * the state file take the names from here; a test holds completion, the
 * man page and the JSON schema to this table.
 */
#include "config.h"

#include "boot/boot.h"
#include "cluster/cluster.h"
#include "files/files.h"
#include "links/links.h"
#include "modules/modules.h"
#include "rdma/rdma.h"
#include "ready/ready.h"
#include "roce/roce.h"
#include "storage/storage.h"
#include "subsystems.h"

/* The boot GTT prefix (ttm. or amdttm.) depends on the amdgpu build,
 * which the module index tells: looked up only when the boot section will
 * read it, so boot never calls into modules and a run without it never
 * reads the index for it. A failed lookup leaves the in-tree driver (the
 * modules section reports its own errors). */
static void find_amdgpu_build(struct halo_ctx *ctx, const struct halo_config *cfg)
{
	bool dkms = false;

	if ((ctx->only & HALO_SUB_BOOT) && halo_boot_needs_amdgpu_dkms(cfg) &&
	    halo_modules_amdgpu_is_dkms(ctx, &dkms) >= 0)
		ctx->amdgpu_dkms = dkms;
}

/* In --only's order (by bit). Planned by stage, in this order within it. */
static const struct halo_kept_file modules_record = {
	.what = HALO_MODULES_RECORD_WHAT,
	.path = HALO_MODULES_RECORD_PATH,
	.pending = halo_modules_record_pending,
	.write = halo_modules_keep_record,
};

static const struct halo_subsystem subsystems[] = {
	{
		.name = "boot",
		.bit = HALO_SUB_BOOT,
		.summary = "kernel command line (IOMMU, GTT, PCIe)",
		.stage = HALO_PLAN_EARLY,
		.prepare = find_amdgpu_build,
		.plan = halo_boot_plan,
	},
	{
		.name = "modules",
		.bit = HALO_SUB_MODULES,
		.summary = "NIC and RDMA modules, options, blacklist",
		.stage = HALO_PLAN_EARLY,
		.plan = halo_modules_plan,
		.kept = &modules_record,
		.release = halo_modules_release,
	},
	{
		.name = "links",
		.bit = HALO_SUB_LINKS,
		.summary = "MTU, addresses and routes of the interfaces",
		.stage = HALO_PLAN_ON_HOST,
		.plan = halo_links_plan,
	},
	{
		.name = "roce",
		.bit = HALO_SUB_ROCE,
		.summary = "RoCE v2, DCBX, PFC, DSCP trust, ECN",
		.stage = HALO_PLAN_ON_HOST,
		.plan = halo_roce_plan,
	},
	{
		.name = "rdma",
		.bit = HALO_SUB_RDMA,
		.summary = "RDMA devices, GID index, rdma_cm, env file",
		.stage = HALO_PLAN_ON_HOST,
		.plan = halo_rdma_plan,
	},
	{
		.name = "files",
		.bit = HALO_SUB_FILES,
		.summary = "udev access rule, memlock, firewall, sysctl",
		.stage = HALO_PLAN_ON_HOST,
		.plan = halo_files_plan,
	},
	{
		.name = "storage",
		.bit = HALO_SUB_STORAGE,
		.summary = "the model store's mount unit",
		.stage = HALO_PLAN_EARLY,
		.plan = halo_storage_plan,
		.undo_recorded = halo_storage_undo_recorded,
	},
	{
		.name = "ready",
		.bit = HALO_SUB_READY,
		.summary = "readiness checks, run only when named",
		.on_request = true,
		.stage = HALO_PLAN_ON_HOST,
		.plan = halo_ready_plan,
	},
};

const struct halo_registry halo_registry = {
	.subsystems = subsystems,
	.n = ARRAY_SIZE(subsystems),
	.node_facts = halo_cluster_node_json,
};
