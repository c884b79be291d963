/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dir.h: the entries of an open directory, straight from getdents64. */
#pragma once

/* Called for each entry; a nonzero return stops the listing and is
 * returned by halo_dir_each. TYPE is the entry's d_type (DT_UNKNOWN
 * where the filesystem does not say). */
typedef int (*halo_dir_entry_fn)(int dirfd, const char *name, unsigned char type,
				 void *userdata);

/* Calls FN for every entry of the directory FD but "." and "..", in the
 * kernel's order. FD stays open and is read to its end, so a second
 * listing needs its own descriptor (or an lseek to 0). Returns 0, FN's
 * first nonzero return, or -errno. No DIR stream: O_DIRECTORY already
 * made FD a directory, which is all fdopendir would check again (an
 * fstat and two fcntl calls), and no buffer is allocated. */
int halo_dir_each(int fd, halo_dir_entry_fn fn, void *userdata);
