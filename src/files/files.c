/* SPDX-License-Identifier: GPL-2.0-or-later */
/* files.c: the files subsystem's one entry point, over its parts. */
#include "config.h"

#include "files/files.h"

int halo_files_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		    struct halo_plan *plan, struct halo_errors *errs)
{
	int (*const parts[])(struct halo_ctx *, const struct halo_config *,
			     struct halo_plan *, struct halo_errors *) = {
		halo_files_access_plan,
		halo_files_memlock_plan,
		halo_files_firewall_plan,
		halo_files_sysctl_plan,
	};

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		int r = parts[i](ctx, cfg, plan, errs);

		if (r < 0)
			return r;
	}
	return 0;
}
