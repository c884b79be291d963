/* SPDX-License-Identifier: GPL-2.0-or-later */
/* modules.h: kernel modules through libkmod (docs/architecture.md). */
#pragma once

#include <stdbool.h>

#include "config/halo-config.h"
#include "engine/plan.h"
#include "halo.h"
#include "util/errors.h"

/* Adds module/<name>, module/<name>/options and the modules-load.d /
 * modprobe.d drop-ins. Unknown modules or options go to ERRS. */
int halo_modules_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		      struct halo_plan *plan, struct halo_errors *errs);

/* True when the amdgpu driver in use is the out-of-tree amdgpu-dkms one
 * (/sys/module/amdttm under the root, or an amdgpu module file under an
 * updates/dkms or extra path of the kernel's module directory). main.c
 * asks once per run, before planning, and hands the answer to the boot
 * subsystem as ctx->amdgpu_dkms (the amdttm. prefix). */
int halo_modules_amdgpu_is_dkms(struct halo_ctx *ctx, bool *ret_dkms);

/* The record of compressed modules' parameter types (parmrec.c), a file
 * the modules subsystem keeps for its checks; as lines about it name it. */
#define HALO_MODULES_RECORD_PATH "/var/lib/halo-provision/module-parameters"
#define HALO_MODULES_RECORD_WHAT "the record of module parameter types (modules)"

/* After an apply's phases: writes the record the planner gathered
 * (ctx->modparms), or removes it when there is nothing to keep (a revert
 * removes it as an item). 0 unchanged, 1 written, -errno. */
int halo_modules_keep_record(struct halo_ctx *ctx);
/* Whether halo_modules_keep_record will write or remove the record. */
bool halo_modules_record_pending(const struct halo_ctx *ctx);

/* Frees ctx->kmod and ctx->modparms (no-op when never made). */
void halo_modules_release(struct halo_ctx *ctx);
