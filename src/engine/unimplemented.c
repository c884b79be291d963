/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unimplemented.c: settings the config accepts but no subsystem of this
 * version applies or checks yet (roce.tos, firewall, access, storage, the
 * env file). Each configured one becomes a run warning, shown in text, JSON
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
	for (size_t i = 0; i < cfg->n_interfaces && r == 0; i++) {
		const struct halo_interface *iface = &cfg->interfaces[i];
		_cleanup_free_ char *what = NULL;

		/* The roce subsystem plans everything of the group but tos,
		 * the rdma_cm default ToS of the rdma subsystem. */
		if (!iface->roce.present || iface->roce.tos < 0 || !(ctx->only & HALO_SUB_RDMA))
			continue;
		if (ctx->interface && strcmp(ctx->interface, iface->name) != 0)
			continue;
		what = halo_strdup_printf("interfaces/%s/roce.tos (rdma_cm default ToS)", iface->name);
		r = what ? warn(plan, what) : -ENOMEM;
	}
	if (r == 0 && cfg->firewall.present && (ctx->only & HALO_SUB_FILES))
		r = warn(plan, "firewall");
	if (r == 0 && cfg->access.present && (ctx->only & HALO_SUB_FILES))
		r = warn(plan, "access");
	if (r == 0 && cfg->n_storage > 0 && (ctx->only & HALO_SUB_STORAGE))
		r = warn(plan, "storage");
	if (r == 0 && cfg->state.env_file && cfg->state.env_file[0] &&
	    (ctx->only & (HALO_SUB_RDMA | HALO_SUB_FILES)))
		r = warn(plan, "state.env_file");
	return r;
}
