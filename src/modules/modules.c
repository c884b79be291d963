/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Placeholder until the modules subsystem lands. */
#include "modules/modules.h"

int halo_modules_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		      struct halo_plan *plan, struct halo_errors *errs)
{
	return 0;
}

int halo_modules_amdgpu_is_dkms(struct halo_ctx *ctx, bool *ret_dkms)
{
	*ret_dkms = false;
	return 0;
}

void halo_modules_release(struct halo_ctx *ctx)
{
}
