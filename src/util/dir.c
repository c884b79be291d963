/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dir.c: the entries of an open directory (dir.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/types.h>

#include "util/dir.h"

/* On the stack, so a callback may list a subdirectory in turn: a few
 * levels deep at most (sysfs device walks). A larger directory takes more
 * getdents64 calls, never a larger buffer. */
#define DIR_BUF 8192

int halo_dir_each(int fd, halo_dir_entry_fn fn, void *userdata)
{
	_Alignas(struct dirent64) char buf[DIR_BUF];

	for (;;) {
		ssize_t n = getdents64(fd, buf, sizeof(buf));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return 0;
		for (ssize_t off = 0; off < n;) {
			const struct dirent64 *de = (const void *)(buf + off);
			const char *name = de->d_name;
			int r;

			off += de->d_reclen;
			if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
				continue;
			r = fn(fd, name, de->d_type, userdata);
			if (r != 0)
				return r;
		}
	}
}
