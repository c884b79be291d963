/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * access.h: the rendering behind halo_files_access_plan and
 * halo_files_memlock_plan (files.h), pure functions for the unit tests.
 */
#pragma once

#include "config/halo-config.h"

#define HALO_ACCESS_RULES "/etc/udev/rules.d/70-halo-access.rules"
#define HALO_MEMLOCK_LIMITS "/etc/security/limits.d/90-halo-provision.conf"
#define HALO_MEMLOCK_SYSTEM "/etc/systemd/system.conf.d/90-halo-provision.conf"
#define HALO_MEMLOCK_USER "/etc/systemd/user.conf.d/90-halo-provision.conf"

/* The mode of /dev/kfd and /dev/dri/renderD* without access.gpu_mode:
 * what Debian's and Fedora's 50-udev-default.rules give "render". */
#define HALO_GPU_MODE_DEFAULT 0660

/* The udev rule for A's groups (at least one set). 0 or -errno. */
int halo_access_render(const struct halo_access_config *a, char **ret);

/* The memlock value as pam_limits ("unlimited", KiB) and as systemd's
 * DefaultLimitMEMLOCK= ("infinity", "<KiB>K") want it, rendered into the
 * limits.d drop-in and the manager drop-ins (A->memlock_set). */
int halo_memlock_render_limits(const struct halo_access_config *a, char **ret);
int halo_memlock_render_systemd(const struct halo_access_config *a, char **ret);
