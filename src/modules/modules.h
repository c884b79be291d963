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

/* Frees ctx->kmod (no-op when never opened). */
void halo_modules_release(struct halo_ctx *ctx);
