/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nm.h: keeping NetworkManager's hands off the managed links. */
#pragma once

#include <stdbool.h>

#include "engine/plan.h"
#include "netlink/rtnl.h"

#define HALO_NM_DROPIN "/etc/NetworkManager/conf.d/90-halo-provision-unmanaged.conf"
#define HALO_NM_DEVICE_FMT "/run/NetworkManager/devices/%d"

/* NetworkManager's own runtime record of a device (1.4+): a keyfile per
 * ifindex with [device] managed=true|false. 1 managed, 0 known but not
 * managed, -ENOENT unknown to NetworkManager (or it is not running). */
int halo_nm_device_state(const struct halo_ctx *ctx, int ifindex);

/* 1 when the keyfile text has managed=true in its [device] group. Pure. */
int halo_nm_parse_device_state(const char *text);

/* 1 when the drop-in text lists interface-name:NAME. Pure. */
bool halo_nm_dropin_lists(const char *text, const char *name);

/*
 * Adds the owned drop-in item for the LINKS (N of them) when NetworkManager
 * manages any of them, or a removal item when a drop-in of ours is there
 * but no longer needed. Nothing at all otherwise. When the drop-in or a
 * device state file cannot be read (a FIFO, a device, a huge file), the
 * error comes back and *RET_FAILED (if not NULL) is that file's path
 * inside the root, for the message; the caller frees it.
 */
int halo_nm_plan(struct halo_ctx *ctx, struct halo_plan *plan,
		 const struct halo_rtnl_link *const *links, size_t n,
		 char **ret_failed);
