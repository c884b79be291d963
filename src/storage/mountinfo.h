/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mountinfo.h: what is mounted at a path, from the text of
 * /proc/self/mountinfo (proc(5)): "ID PARENT MAJ:MIN ROOT MOUNTPOINT
 * OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS", with space, tab,
 * newline and backslash in paths written as octal escapes ("\040").
 */
#pragma once

#include <stdbool.h>

#include "halo.h"

struct halo_mount {
	unsigned major, minor;
	char *fstype;
	char *source;
};

void halo_mount_free(struct halo_mount *m);

/* The mount on top at WHERE (the last line naming it: later mounts hide
 * earlier ones). 1 with *RET filled, 0 when nothing is mounted there,
 * -EBADMSG for a line that is not mountinfo, -ENOMEM. */
int halo_mountinfo_find(const char *text, const char *where,
			struct halo_mount *ret);
