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

/* The removal item for a drop-in of ours that is there, when no link needs
 * it any more (no interface left in the config); nothing otherwise. */
int halo_nm_plan_stale(struct halo_ctx *ctx, struct halo_plan *plan);

#define HALO_NM_PROFILE_DIR "/etc/NetworkManager/system-connections"

/* A keyfile connection profile's binding: [connection] id= and
 * interface-name=, [ethernet] mac-address= ("" when absent). Pure. */
struct halo_nm_profile {
	char id[128];
	char interface_name[64];
	char mac[64];
};
void halo_nm_parse_profile(const char *text, struct halo_nm_profile *ret);

/*
 * Warns, for each profile in HALO_NM_PROFILE_DIR bound to one of the
 * LINKS (by interface-name or mac-address), naming the profile file and
 * the nmcli commands that delete or disable it: NetworkManager activates
 * such a profile on the link whenever it manages it again. Nothing when
 * NetworkManager is neither installed nor running. A profile that cannot
 * be read is an error: -errno with *RET_WHY naming it (caller frees).
 */
int halo_nm_profiles_warn(const struct halo_ctx *ctx, struct halo_plan *plan,
			  const struct halo_rtnl_link *const *links, size_t n, char **ret_why);
