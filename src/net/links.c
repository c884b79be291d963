/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Placeholder until the links subsystem lands. */
#include "net/links.h"

int halo_links_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		    struct halo_plan *plan, struct halo_errors *errs)
{
	return 0;
}

void halo_links_release(struct halo_ctx *ctx)
{
}
