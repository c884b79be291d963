/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ready.h: the readiness subsystem: facts halo-provision cannot
 * set but an operator must know before blaming the network. Every item is
 * check-only: `ok`, or `drift` with the fix in one line (or `unsupported`
 * with the reason when the root has no such fact). None ever changes the
 * host, and none is ever applied, so they never fail a run:
 *   ready/kernel             running kernel >= ready.kernel_min
 *   ready/<entry>/pcie-link  the NIC's PCIe link at the most both it and
 *                            its slot support, and the ceiling it puts
 *                            on the port
 *   ready/<entry>/firmware   devlink info: E810 NVM >= 4.91, ConnectX
 *                            fw.version reported
 *   ready/uma-carveout       amdgpu mem_info_vram_total <= ready.uma_max_mib
 *   ready/gtt                amdgpu mem_info_gtt_total vs boot.gtt_mib
 *   ready/iommu              iommu= of /proc/cmdline vs boot.iommu
 *   ready/memlock            what pam_limits gives a login session
 * All read under --root. Private to src/ready below the planner.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "config/halo-config.h"
#include "engine/plan.h"
#include "halo.h"
#include "util/errors.h"

/* Plans the readiness items (on ctx->host for the NICs' PCI devices). */
int halo_ready_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		    struct halo_plan *plan, struct halo_errors *errs);

/* ---- pcie.c ---- */

/* The usable bandwidth of a link of WIDTH lanes at GTS GT/s per lane, in
 * Gb/s after line encoding (8b/10b up to 5 GT/s, 128b/130b above). */
double halo_pcie_ceiling_gbps(double gts, unsigned width);
/* "16.0 GT/s PCIe" -> 16.0; 0 or -EINVAL. */
int halo_pcie_speed_parse(const char *s, double *ret);

/* ---- memlock.c ---- */

#define HALO_MEMLOCK_UNLIMITED UINT64_MAX

/* What pam_limits gives a login session that no user or group line names:
 * the "*" lines of limits.conf, then of each limits.d file, later lines
 * winning ("-" sets both). Values in KiB, HALO_MEMLOCK_UNLIMITED. */
struct halo_memlock {
	bool soft_set, hard_set;
	uint64_t soft_kib, hard_kib;
	bool other_domains; /* some user or group line also sets memlock */
};
/* Folds the lines of one limits file TEXT into *M. */
void halo_memlock_parse(const char *text, struct halo_memlock *m);

/* ---- firmware.c ---- */

/* The oldest E810 NVM the seed guide accepts. */
#define HALO_E810_NVM_MIN "4.91"
/* ice's NVM version as devlink's fw.psid.api (and ethtool -i) print it,
 * "%x.%02x" of the NVM major and minor ("4.91", "4.a0"): *RET is
 * major << 8 | minor, so versions order as numbers. 0 or -EINVAL. */
int halo_nvm_version_parse(const char *s, unsigned *ret);

/* ---- items ---- */

/* Check-only items: the engine never applies them, so their drift never
 * becomes a failure. */
#define HALO_READY_PHASE HALO_PHASE_CHECK_ONLY

int halo_ready_kernel_observe(struct halo_ctx *ctx, struct halo_item *item);
int halo_ready_pcie_observe(struct halo_ctx *ctx, struct halo_item *item);
int halo_ready_uma_observe(struct halo_ctx *ctx, struct halo_item *item);
int halo_ready_gtt_observe(struct halo_ctx *ctx, struct halo_item *item);
int halo_ready_iommu_observe(struct halo_ctx *ctx, struct halo_item *item);
int halo_ready_memlock_observe(struct halo_ctx *ctx, struct halo_item *item);
int halo_ready_firmware_observe(struct halo_ctx *ctx, struct halo_item *item);

/* Every item's data: the thresholds it compares against. */
struct halo_ready_want {
	unsigned kernel_min[3];
	uint64_t uma_max_mib;
	uint64_t gtt_mib;       /* 0: not configured (or "auto") */
	bool gtt_auto;
	const char *iommu;      /* boot.iommu keyword, NULL: unset */
	bool memlock_unlimited; /* wanted memlock */
	uint64_t memlock_kib;
	char ifname[64];        /* pcie-link, firmware: entry and live link name */
	char entry[64];
	char pci[32];           /* "" when no PCI device is known */
	char why_no_pci[160];
	char driver[64];        /* the link's driver (host table), "" unknown */
};

/* Reads an unsigned decimal attribute. 0 or -errno. */
int halo_ready_read_u64(struct halo_ctx *ctx, const char *path, uint64_t *ret);
/* Reads a one-line file without its newline. 0 or -errno. */
int halo_ready_read_line(struct halo_ctx *ctx, const char *path, char **ret);
