/* SPDX-License-Identifier: GPL-2.0-or-later */
/* storage.c: placeholder until the storage subsystem lands (issue 11). */
#include "config.h"

#include "storage/storage.h"

int halo_storage_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		      struct halo_plan *plan, struct halo_errors *errs)
{
	(void)ctx;
	(void)cfg;
	(void)plan;
	(void)errs;
	return 0;
}
