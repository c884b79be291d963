/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * files.h: the files subsystem: the owned files that are not
 * another subsystem's (device access, memlock, firewall, sysctl), each a
 * file/<path> item rendered from templates/ (halo_plan_add_file), plus
 * the runtime values that go with them (sysctl). Planned on the host
 * table: the firewall and sysctl files name the managed interfaces.
 */
#ifndef HALO_FILES_FILES_H
#define HALO_FILES_FILES_H

#include "config/halo-config.h"
#include "engine/plan.h"
#include "util/errors.h"

int halo_files_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		    struct halo_plan *plan, struct halo_errors *errs);

/* The parts, in the order they are planned (each adds nothing when its
 * section is absent). Validation errors go to ERRS (exit 1). */
int halo_files_access_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
			   struct halo_plan *plan, struct halo_errors *errs);
int halo_files_memlock_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
			    struct halo_plan *plan, struct halo_errors *errs);
int halo_files_firewall_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
			     struct halo_plan *plan, struct halo_errors *errs);
int halo_files_sysctl_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
			   struct halo_plan *plan, struct halo_errors *errs);

#endif
