/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lock.c: the per-root run lock. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>

#include "util/lock.h"
#include "util/rootfs.h"

int halo_lock_acquire(const struct halo_ctx *ctx, int *ret_fd)
{
	_cleanup_close_ int fd = -1;
	int r;

	r = halo_root_mkdir_p(ctx, "/run", 0755);
	if (r < 0)
		return r;
	/* O_NOFOLLOW: a planted symlink must not make us create or lock a
	 * file elsewhere. */
	r = halo_root_openat(ctx, HALO_LOCK_PATH,
			     O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600, &fd);
	if (r < 0)
		return r;
	/* flock, not fcntl locks: it belongs to this open file, so a second
	 * open (another run, or a re-exec) sees it held. */
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	*ret_fd = TAKE_FD(fd);
	return 0;
}
