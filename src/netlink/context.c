/* SPDX-License-Identifier: GPL-2.0-or-later */
/* context.c: the run context's netlink transport and rtnetlink state. */
#include "config.h"

#include <errno.h>

#include "netlink/context.h"
#include "netlink/rtnl-int.h"
#include "netlink/transport.h"

int halo_netlink_transport(struct halo_ctx *ctx, struct halo_nlt **ret)
{
	if (!ctx->nlt) {
		int err = halo_nlt_new(&ctx->netlink_requests, &ctx->nlt);

		if (err < 0)
			return err;
	}
	*ret = ctx->nlt;
	return 0;
}

const char *halo_netlink_extack(const struct halo_ctx *ctx)
{
	return ctx->nlt ? halo_nlt_extack(ctx->nlt) : NULL;
}

void halo_netlink_release(struct halo_ctx *ctx)
{
	halo_rtnl_free(ctx->rtnl);
	ctx->rtnl = NULL;
	halo_nlt_free(ctx->nlt);
	ctx->nlt = NULL;
}
