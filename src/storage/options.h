/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options.h: the storage "options" value, a comma list of mount options
 * for the unit's Options= line. Pure, so the config loader calls it and
 * every error carries file:line.
 */
#pragma once

/* NULL when OPTS is usable, else why not (static string, for
 * "storage[0].options: <why>"). Refused: empty entries, whitespace,
 * quotes, backslashes, '%', control or non-ASCII characters; and the
 * options that make no sense for an enabled model-store mount unit
 * (bind, rbind, move, remount, noauto, x-systemd.*, user, users, owner,
 * group). */
const char *halo_storage_check_options(const char *opts);
