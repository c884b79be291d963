/* SPDX-License-Identifier: GPL-2.0-or-later */
/* storage-int.h: the storage subsystem's parts (one file each). */
#pragma once

#include "config/halo-config.h"
#include "engine/plan.h"

/* Where systemd looks for units an operator (or this tool) installs. */
#define HALO_UNIT_DIR "/etc/systemd/system"
/* The target whose .wants/ directory enables the mount at boot. */
#define HALO_MOUNT_TARGET "local-fs.target"

/* The device path a mount unit's What= names for WHAT: the udev link
 * /dev/disk/by-{uuid,label,partuuid,partlabel}/<encoded value> for a tag
 * (so systemd waits for that device), the path itself for a /dev path.
 * Not specifier-escaped. NULL on OOM. */
char *halo_storage_what_path(const struct halo_device_spec *what);

/* The text of the mount unit for S (templates/model-store.mount).
 * UNIT is its name. 0 or -errno. */
int halo_storage_render_unit(const struct halo_storage *s, const char *unit,
			     char **ret);

/* storage/<unit>/enabled: the symlink
 * /etc/systemd/system/local-fs.target.wants/UNIT → /etc/systemd/system/UNIT,
 * made as `systemctl enable` makes it, never through a symlink. */
int halo_storage_add_enabled(struct halo_plan *plan, const char *unit);

/* storage/<unit>/device and storage/<unit>/mounted: check-only items
 * (mounting is the unit's job). */
int halo_storage_add_device(struct halo_plan *plan, const struct halo_storage *s,
			    const char *unit);
int halo_storage_add_mounted(struct halo_plan *plan, const struct halo_storage *s,
			     const char *unit);
