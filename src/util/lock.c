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
 * could take no terminal and block no open. ACCESS: O_RDWR for the lock
 * (its holder writes its record there), O_RDONLY to read that record. */
static int lock_open(const struct halo_ctx *ctx, bool create, int access, int *ret_fd)
{
	const int flags = access | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC;

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
	r = lock_open(ctx, create, O_RDWR, &fd);
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

/* The record's three lines, each value padded to its width: a pid, a
 * mode word, Unix seconds. Every record has this length, so a new one
 * covers the last whole. */
#define HOLDER_MODE_MAX 23
#define HOLDER_LEN (4 + 10 + 1 + 5 + HOLDER_MODE_MAX + 1 + 6 + 20 + 1)

int halo_lock_holder_write(int lock_fd, const char *mode)
{
	char text[HOLDER_LEN + 1];
	struct stat st;
	int n;

	if (lock_fd < 0 || !*mode || strlen(mode) > HOLDER_MODE_MAX || strpbrk(mode, " \n"))
		return -EINVAL;
	n = snprintf(text, sizeof(text), "pid %-10ld\nmode %-*s\nsince %-20lld\n", (long)getpid(),
		     HOLDER_MODE_MAX, mode, (long long)time(NULL));
	if (n != HOLDER_LEN)
		return -EINVAL;
	/* One write into the file already open: no file is made or
	 * removed per run. A waiter reading at the same moment may see a
	 * mixture, which it does not believe (halo_lock_holder_read). */
	if (pwrite(lock_fd, text, (size_t)n, 0) != n)
		return errno ? -errno : -EIO;
	/* Longer text there (not a record of ours) would trail it. */
	if (fstat(lock_fd, &st) < 0)
		return -errno;
	if (st.st_size > n && ftruncate(lock_fd, n) < 0)
		return -errno;
	return 0;
}

int halo_lock_held_by(const char *locks, long pid, unsigned long long ino)
{
	for (const char *line = locks; line && *line;) {
		const char *end = strchr(line, '\n');
		char type[16];
		long holder;
		unsigned long long inode;

		/* "1: FLOCK  ADVISORY  WRITE 4242 fe:00:1234 0 EOF"
		 * (fs/locks.c, lock_get_status); a waiter's line has "->". */
		if (!memchr(line, '>', end ? (size_t)(end - line) : strlen(line)) &&
		    sscanf(line, "%*s %15s %*s %*s %ld %*x:%*x:%llu", type, &holder, &inode) == 3 &&
		    strcmp(type, "FLOCK") == 0 && holder == pid && inode == ino)
			return 1;
		line = end ? end + 1 : NULL;
	}
	return 0;
}

/* Whether the holder named by PID holds the lock open as FD: /proc/locks
 * of this kernel (the host's, whatever the root) says. Without it, at
 * least a run that is gone is not named. */
static int holds(int fd, long pid)
{
	_cleanup_close_ int pfd = -1;
	_cleanup_free_ char *locks = NULL;
	struct stat st;
	size_t len;

	if (fstat(fd, &st) < 0)
		return -errno;
	pfd = open("/proc/locks", O_RDONLY | O_CLOEXEC);
	if (pfd < 0 || halo_read_fd(pfd, 4096, &locks, &len) < 0)
		return !(kill((pid_t)pid, 0) < 0 && errno == ESRCH);
	return halo_lock_held_by(locks, pid, (unsigned long long)st.st_ino);
}

int halo_lock_holder_read(const struct halo_ctx *ctx, struct halo_lock_holder *ret)
{
	_cleanup_close_ int fd = -1;
	struct halo_lock_holder h = { 0 };
	char text[2 * HOLDER_LEN], mode[HOLDER_MODE_MAX + 1];
	ssize_t len;
	int n = 0, r = lock_open(ctx, false, O_RDONLY, &fd);

	if (r < 0)
		return r == -ENOENT ? r : -EBADMSG;
	len = pread(fd, text, sizeof(text) - 1, 0);
	if (len < 0)
		return -errno;
	text[len] = '\0';
	if (strlen(text) != (size_t)len ||
	    sscanf(text, "pid %ld\nmode %23[a-z-]\nsince %lld\n%n", &h.pid, mode, &h.since, &n) != 3 ||
	    n != len || h.pid <= 0 || h.since <= 0)
		return len == 0 ? -ENOENT : -EBADMSG;
	r = holds(fd, h.pid);
	if (r <= 0)
		return r < 0 ? r : -ENOENT;
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

void halo_lock_release(int fd)
{
	if (fd >= 0)
		close(fd);
}
