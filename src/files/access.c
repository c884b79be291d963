/* SPDX-License-Identifier: GPL-2.0-or-later */
/* access.c: placeholder until the access part lands (issue 11). */
#include "config.h"

#include "files/files.h"

int halo_files_access_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
			   struct halo_plan *plan, struct halo_errors *errs)
{
	(void)ctx;
	(void)cfg;
	(void)plan;
	(void)errs;
	return 0;
}
