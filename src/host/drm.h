/* SPDX-License-Identifier: GPL-2.0-or-later */
/* drm.h: the amdgpu card among the host's DRM cards. */
#pragma once

#include "halo.h"

/* "/sys/class/drm/cardN/device" of the first card whose device the amdgpu
 * driver is bound to (its uevent says DRIVER=amdgpu: card0 is not always
 * it, and a display-only card may come first). 0, -ENOENT when there is
 * none (driver not loaded, no AMD GPU), -ENOMEM or another -errno. */
int halo_host_amdgpu_card(struct halo_ctx *ctx, char **ret_dir);
