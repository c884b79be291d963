/* SPDX-License-Identifier: GPL-2.0-or-later */
/* subsystem.c: lookups in the subsystem table the run was given. */
#include "config.h"

#include <string.h>

#include "engine/subsystem.h"

const char *halo_subsys_name(const struct halo_ctx *ctx, enum halo_subsys s)
{
	const struct halo_registry *reg = ctx->registry;

	for (size_t i = 0; reg && i < reg->n; i++)
		if (reg->subsystems[i].bit == s)
			return reg->subsystems[i].name;
	return "unknown";
}

enum halo_subsys halo_subsys_from_name(const struct halo_registry *reg, const char *name)
{
	for (size_t i = 0; reg && i < reg->n; i++)
		if (strcmp(reg->subsystems[i].name, name) == 0)
			return reg->subsystems[i].bit;
	return 0;
}

unsigned halo_registry_default_mask(const struct halo_registry *reg)
{
	unsigned mask = 0;

	for (size_t i = 0; reg && i < reg->n; i++)
		if (!reg->subsystems[i].on_request)
			mask |= reg->subsystems[i].bit;
	return mask;
}

bool halo_run_is_full(const struct halo_ctx *ctx)
{
	unsigned all = halo_registry_default_mask(ctx->registry);

	return (ctx->only & all) == all && !ctx->interface;
}

void halo_registry_release(struct halo_ctx *ctx)
{
	const struct halo_registry *reg = ctx->registry;

	for (size_t i = 0; reg && i < reg->n; i++)
		if (reg->subsystems[i].release)
			reg->subsystems[i].release(ctx);
}
