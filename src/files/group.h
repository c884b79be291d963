/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * group.h: whether a group exists in the root's /etc/group (never the
 * host's, never NSS: under --root the image's own file is the truth, and
 * udev resolves GROUP= through the same file on the target at boot).
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

#include "halo.h"

#define HALO_ETC_GROUP "/etc/group"

/* In TEXT (group(5) lines, "name:password:gid:members"): 1 with *RET_GID
 * set (RET_GID may be NULL) when NAME has an entry with a numeric GID, 0
 * when it has none. Malformed lines are skipped, as getgrnam's files
 * backend skips them. */
int halo_group_find(const char *text, const char *name, gid_t *ret_gid);

/* halo_group_find over the root's /etc/group: 1, 0, -ENOENT when the root
 * has no /etc/group, -errno. */
int halo_group_lookup(const struct halo_ctx *ctx, const char *name, gid_t *ret_gid);
