/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diff.h: unified diff of two texts, for --diff and the Ansible "diff". */
#pragma once

/*
 * A unified diff (3 lines of context) from OLD to NEW with "--- a/PATH" and
 * "+++ b/PATH" headers; OLD NULL means the file does not exist (/dev/null),
 * NEW NULL means it is removed. Returns NULL on ENOMEM; "" when equal.
 */
char *halo_unified_diff(const char *path, const char *old_text,
			const char *new_text);
