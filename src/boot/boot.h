/* SPDX-License-Identifier: GPL-2.0-or-later */
/* boot.h: kernel command line subsystem (docs/architecture.md). */
#pragma once

#include <stdbool.h>

#include "config/halo-config.h"
#include "engine/plan.h"
#include "halo.h"
#include "util/errors.h"

/* Adds the boot items for CFG->boot to PLAN. Config/host combinations that
 * cannot work (GTT above RAM - reserve, missing /proc/meminfo, unparseable
 * /etc/default/grub, unresolvable root=) go to ERRS. Never prints, never
 * changes the host. 0 or -errno (fatal, e.g. -ENOMEM). */
int halo_boot_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		   struct halo_plan *plan, struct halo_errors *errs);

/* Whether planning CFG's boot section reads ctx->amdgpu_dkms (gtt_mib with
 * gtt_params = "auto" picks the amdttm. prefix for amdgpu-dkms). The
 * caller fills it first (halo_modules_amdgpu_is_dkms), so boot never calls
 * into the modules part and a run without it never opens libkmod for it. */
bool halo_boot_needs_amdgpu_dkms(const struct halo_config *cfg);
