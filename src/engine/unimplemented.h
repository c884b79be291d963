/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unimplemented.h: configured sections no subsystem handles yet. */
#pragma once

#include "config/halo-config.h"
#include "engine/plan.h"
#include "halo.h"
#include "util/errors.h"

/* Adds one plan warning per configured, selected (--only, --interface)
 * setting that this version neither applies nor checks. 0 or -ENOMEM. */
int halo_unimplemented_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
			    struct halo_plan *plan, struct halo_errors *errs);
