/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mount-options.h: the value of storage[].options, a comma list of mount
 * options for the mount unit's Options= line (mount-options.c).
 */
#pragma once

/* NULL when OPTS is usable, else why not (static string, for
 * "storage[0].options: <why>"). Refused: empty entries, whitespace,
 * quotes, backslashes, '%', control or non-ASCII characters; and the
 * options that make no sense for an enabled model-store mount unit
 * (bind, rbind, move, remount, noauto, x-systemd.*, user, users, owner,
 * group). */
const char *halo_check_mount_options(const char *opts);
