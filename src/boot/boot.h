/* SPDX-License-Identifier: GPL-2.0-or-later */
/* boot.h: kernel command line subsystem (DESIGN.md "boot"). */
#pragma once

#include "config/config.h"
#include "engine/plan.h"
#include "halo.h"
#include "util/errors.h"

/* Adds the boot items for CFG->boot to PLAN. Config/host combinations that
 * cannot work (GTT above RAM - reserve, missing /proc/meminfo, unparseable
 * /etc/default/grub, unresolvable root=) go to ERRS. Never prints, never
 * changes the host. 0 or -errno (fatal, e.g. -ENOMEM). */
int halo_boot_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		   struct halo_plan *plan, struct halo_errors *errs);
