/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Placeholder until the boot subsystem lands. */
#include "boot/boot.h"

int halo_boot_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		   struct halo_plan *plan, struct halo_errors *errs)
{
	return 0;
}
