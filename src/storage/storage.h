/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * storage.h: the storage subsystem (issue 11): the model store of each
 * storage entry resolved with libblkid, its type checked, a systemd
 * .mount unit for it, the mount observed from mountinfo.
 */
#ifndef HALO_STORAGE_STORAGE_H
#define HALO_STORAGE_STORAGE_H

#include "config/halo-config.h"
#include "engine/plan.h"
#include "util/errors.h"

int halo_storage_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		      struct halo_plan *plan, struct halo_errors *errs);

#endif
