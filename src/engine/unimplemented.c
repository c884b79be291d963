/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unimplemented.c: settings the config accepts but no subsystem of this
 * version applies or checks yet (firewall, access, storage). roce.tos and
 * state.env_file are the rdma subsystem's (src/rdma). Each configured one becomes a run warning, shown in text, JSON
 * and the textfile, so a config that relies on it never reads as a clean
 * "in sync". A subsystem that lands takes its section out of here.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "engine/unimplemented.h"
#include "util/strv.h"

static int warn(struct halo_plan *plan, const char *what)
{
	return halo_plan_warn(plan, "%s is configured but not implemented in this version: "
				    "nothing is applied or checked", what);
}

int halo_unimplemented_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
			    struct halo_plan *plan, struct halo_errors *errs)
{
	int r = 0;

	(void)errs;
	if (cfg->firewall.present && (ctx->only & HALO_SUB_FILES))
		r = warn(plan, "firewall");
	if (r == 0 && cfg->access.present && (ctx->only & HALO_SUB_FILES))
		r = warn(plan, "access");
	if (r == 0 && cfg->n_storage > 0 && (ctx->only & HALO_SUB_STORAGE))
		r = warn(plan, "storage");
	return r;
}
