/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lock.c: the per-root run lock. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <time.h>

#include "util/lock.h"
#include "util/rootfs.h"

static long long now_ms(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Polls rather than blocking in flock(): a blocking flock cannot be given
 * a deadline without signals, and a run queued behind another costs a few
 * wake-ups a second at most. */
static int lock_wait(int fd, unsigned wait_seconds)
{
	long long deadline = now_ms() + (long long)wait_seconds * 1000;
	long sleep_ms = 10;

	for (;;) {
		struct timespec ts;
		long long left;

		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK)
			return -errno;
		left = deadline - now_ms();
		if (left <= 0)
			return wait_seconds ? -ETIMEDOUT : -EWOULDBLOCK;
		if (sleep_ms > left)
			sleep_ms = (long)left;
		ts.tv_sec = sleep_ms / 1000;
		ts.tv_nsec = (sleep_ms % 1000) * 1000000;
		(void)nanosleep(&ts, NULL);
		if (sleep_ms < 200)
			sleep_ms *= 2;
	}
}

int halo_lock_acquire(const struct halo_ctx *ctx, unsigned wait_seconds, bool create,
		      int *ret_fd)
{
	_cleanup_close_ int fd = -1;
	int r;

	if (create) {
		r = halo_root_mkdir_p(ctx, "/run", 0755);
		if (r < 0)
			return r;
	}
	/* O_NOFOLLOW: a planted symlink must not make us create or lock a
	 * file elsewhere. */
	r = halo_root_openat(ctx, HALO_LOCK_PATH,
			     O_RDWR | O_NOFOLLOW | O_CLOEXEC | (create ? O_CREAT : 0),
			     0600, &fd);
	if (r < 0)
		return r;
	/* flock, not fcntl locks: it belongs to this open file, so a second
	 * open (another run, or a re-exec) sees it held. The kernel drops it
	 * when the holder dies, so a killed run never blocks the next. */
	r = lock_wait(fd, wait_seconds);
	if (r < 0)
		return r;
	*ret_fd = TAKE_FD(fd);
	return 0;
}
