/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * escape.h: the names systemd and udev give to paths and labels, as pure
 * functions (checked against the real systemd-escape in the tests).
 */
#pragma once

#include "halo.h"

/* systemd's unit_name_path_escape + ".mount": "/models/v2.1" →
 * "models-v2.1.mount", "/a b" → "a\x20b.mount", "/" → "-.mount". PATH
 * must be absolute and normalized (no "//", "." or ".." components).
 * -EINVAL otherwise, -ENAMETOOLONG above systemd's 255 characters. */
int halo_mount_unit_name(const char *path, char **ret);

/* udev's encoding of a tag value in /dev/disk/by-*: bytes outside
 * [A-Za-z0-9#+-.:=@_] and valid UTF-8 become "\xNN" ("my models" →
 * "my\x20models"). */
char *halo_udev_encode(const char *s);

/* systemd's specifier escaping of a unit file value: "%" → "%%". */
char *halo_specifier_escape(const char *s);
