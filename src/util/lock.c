/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lock.c: the per-root run lock. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
static int lock_wait(int fd, unsigned wait_seconds, long notify_ms,
		     void (*notify)(void *userdata), void *userdata)
{
	long long start = now_ms(), deadline = start + (long long)wait_seconds * 1000;
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
		if (notify && now_ms() - start >= notify_ms) {
			notify(userdata);
			notify = NULL;
		}
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
	return halo_lock_acquire_notify(ctx, wait_seconds, create, 0, NULL, NULL, ret_fd);
}

/* Opens the lock file itself, never anything planted in its place: it is
 * judged on an O_PATH descriptor (O_NOFOLLOW: a symlink must not make us
 * create or lock a file elsewhere), and only a regular file is opened,
 * reopened through that descriptor. A FIFO or a device (a tty, a
 * watchdog) is -HALO_ENOTREG, a directory -EISDIR; none is ever opened.
 * O_NOCTTY|O_NONBLOCK besides, so that even a file swapped in between
 * could take no terminal and block no open. */
static int lock_open(const struct halo_ctx *ctx, bool create, int *ret_fd)
{
	const int flags = O_RDWR | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC;

	for (int tries = 0; tries < 2; tries++) {
		_cleanup_close_ int pfd = -1;
		struct stat st;
		int fd, r;

		r = halo_root_openat(ctx, HALO_LOCK_PATH, O_PATH | O_NOFOLLOW, 0, &pfd);
		if (r == -ENOENT && create) {
			/* O_EXCL: what this creates is a new regular file. */
			r = halo_root_openat(ctx, HALO_LOCK_PATH, flags | O_CREAT | O_EXCL, 0600,
					     ret_fd);
			if (r == -EEXIST)
				continue; /* another run made it first */
			return r;
		}
		if (r < 0)
			return r;
		if (fstat(pfd, &st) < 0)
			return -errno;
		if (S_ISLNK(st.st_mode))
			return -ELOOP;
		if (S_ISDIR(st.st_mode))
			return -EISDIR;
		if (!S_ISREG(st.st_mode))
			return -HALO_ENOTREG;
		fd = halo_fd_reopen(pfd, flags & ~O_NOFOLLOW);
		if (fd < 0)
			return fd;
		*ret_fd = fd;
		return 0;
	}
	return -EEXIST;
}

int halo_lock_acquire_notify(const struct halo_ctx *ctx, unsigned wait_seconds, bool create,
			     long notify_ms, void (*notify)(void *userdata), void *userdata,
			     int *ret_fd)
{
	_cleanup_close_ int fd = -1;
	int r;

	if (create) {
		r = halo_root_mkdir_p(ctx, "/run", 0755);
		if (r < 0)
			return r;
	}
	r = lock_open(ctx, create, &fd);
	if (r < 0)
		return r;
	/* flock, not fcntl locks: it belongs to this open file, so a second
	 * open (another run, or a re-exec) sees it held. The kernel drops it
	 * when the holder dies, so a killed run never blocks the next. */
	r = lock_wait(fd, wait_seconds, notify_ms, notify, userdata);
	if (r < 0)
		return r;
	*ret_fd = TAKE_FD(fd);
	return 0;
}

/* The name of the record inside /run. */
#define HOLDER_NAME "halo-provision.lock.holder"

int halo_lock_holder_write(const struct halo_ctx *ctx, const char *mode)
{
	_cleanup_close_ int dir = -1, fd = -1;
	char text[96];
	int n, r;

	n = snprintf(text, sizeof(text), "pid %ld\nmode %s\nsince %lld\n", (long)getpid(), mode,
		     (long long)time(NULL));
	if (n < 0 || (size_t)n >= sizeof(text) || strpbrk(mode, " \n"))
		return -EINVAL;
	r = halo_root_openat(ctx, "/run", O_PATH | O_DIRECTORY | O_NOFOLLOW, 0, &dir);
	if (r < 0)
		return r;
	/* Written nameless, then linked: a waiter reads the whole record or
	 * none (no rename: the record is no managed file), and nothing is
	 * left to clean up when the write fails. Linking a descriptor
	 * (AT_EMPTY_PATH) takes CAP_DAC_READ_SEARCH, or since Linux 6.10
	 * being the process that opened it (fs/namei.c, do_linkat). */
	fd = openat(dir, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (write(fd, text, (size_t)n) != n)
		return errno ? -errno : -EIO;
	for (int tries = 0; tries < 2; tries++) {
		if (linkat(fd, "", dir, HOLDER_NAME, AT_EMPTY_PATH) == 0)
			return 0;
		if (errno != EEXIST)
			return -errno;
		/* A killed run's record is stale: this run holds the lock. */
		(void)unlinkat(dir, HOLDER_NAME, 0);
	}
	return -EEXIST;
}

int halo_lock_holder_read(const struct halo_ctx *ctx, struct halo_lock_holder *ret)
{
	_cleanup_free_ char *text = NULL;
	struct halo_lock_holder h = { 0 };
	char mode[sizeof(h.mode)];
	size_t len;
	int n = 0, r = halo_read_file(ctx, HALO_LOCK_HOLDER_PATH, &text, &len);

	if (r < 0)
		return r == -ENOENT ? r : -EBADMSG;
	if (sscanf(text, "pid %ld\nmode %23[a-z-]\nsince %lld\n%n", &h.pid, mode, &h.since, &n) != 3 ||
	    (size_t)n != len || h.pid <= 0 || h.since <= 0)
		return -EBADMSG;
	/* A record whose run is gone is left from a killed run. */
	if (kill((pid_t)h.pid, 0) < 0 && errno == ESRCH)
		return -ENOENT;
	memcpy(h.mode, mode, sizeof(h.mode));
	*ret = h;
	return 0;
}

void halo_lock_holder_format(const struct halo_lock_holder *h, char *buf, size_t size)
{
	time_t t = (time_t)h->since;
	char when[40] = "an unknown time";
	struct tm tm;

	if (gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	snprintf(buf, size, "pid %ld, %s, since %s", h->pid, h->mode, when);
}

void halo_lock_release(const struct halo_ctx *ctx, int fd, bool own_record)
{
	_cleanup_close_ int dir = -1;

	if (fd < 0)
		return;
	/* Only our own record: a run that could not write one must not
	 * remove a record it did not make. Nothing is read back: a file
	 * planted there since is removed as the record it replaced. */
	if (own_record &&
	    halo_root_openat(ctx, "/run", O_PATH | O_DIRECTORY | O_NOFOLLOW, 0, &dir) == 0)
		(void)unlinkat(dir, HOLDER_NAME, 0);
	close(fd);
}
