/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * storage.h: the storage subsystem: the model store of each
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

/* --revert of a storage/<unit>/enabled item the last state file records
 * and this config no longer plans (halo_undo_recorded_fn): its link goes
 * by the same rule as a planned one's. */
int halo_storage_undo_recorded(struct halo_plan *plan, const char *key, enum halo_subsys sub);

#endif
