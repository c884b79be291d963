/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lock.h: one run at a time per root (flock on /run/halo-provision.lock). */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "halo.h"

#define HALO_LOCK_PATH "/run/halo-provision.lock"
/* Who holds the lock is written into the lock file by the run that took
 * it: lines "pid N", "mode WORD", "since UNIX_SECONDS", each padded with
 * blanks to a fixed width, so that one pwrite(2) replaces the last
 * holder's record whole and nothing is created, linked or removed per
 * run. A record stays after its run; a waiter believes it only while
 * /proc/locks shows its pid holding the lock. */

/* Opens the lock file (CREATE: creating it and /run under the root if
 * needed, else -ENOENT when absent; -ELOOP for a symlink, -HALO_ENOTREG
 * for a FIFO, device or socket and -EISDIR for a directory, none of them
 * ever opened) and waits up to WAIT_SECONDS for
 * another run to release the lock: -ETIMEDOUT after waiting, -EWOULDBLOCK
 * when WAIT_SECONDS is 0 and the lock is held. *ret_fd stays open for the
 * whole run. */
int halo_lock_acquire(const struct halo_ctx *ctx, unsigned wait_seconds, bool create,
		      int *ret_fd);

/* As halo_lock_acquire; when the lock is still held after NOTIFY_MS of
 * waiting, calls NOTIFY(USERDATA) once (NULL: never) and goes on waiting. */
int halo_lock_acquire_notify(const struct halo_ctx *ctx, unsigned wait_seconds, bool create,
			     long notify_ms, void (*notify)(void *userdata), void *userdata,
			     int *ret_fd);

struct halo_lock_holder {
	long pid;
	char mode[24];     /* "apply", "check", "dry-run", "revert", ... */
	long long since;   /* Unix time the lock was taken */
};

/* Records this process as the holder of the lock it just took (LOCK_FD
 * from halo_lock_acquire), MODE the run's mode (a word). Best effort for
 * the waiters' sake: 0 or -errno, never a reason to stop the run. */
int halo_lock_holder_write(int lock_fd, const char *mode);

/* The record of the lock's holder. 0; -ENOENT when there is no lock, or
 * the record is not the holder's (left by a run that is over, the lock
 * free or held by a run that wrote none); -EBADMSG when it is not a
 * record. */
int halo_lock_holder_read(const struct halo_ctx *ctx, struct halo_lock_holder *ret);

/* Whether /proc/locks (LOCKS, its text) shows PID holding a flock on the
 * file with inode INO: 1 yes, 0 no. */
int halo_lock_held_by(const char *locks, long pid, unsigned long long ino);

/* "pid 1234, apply, since 2026-11-27 14:02:11 UTC" into BUF. */
void halo_lock_holder_format(const struct halo_lock_holder *h, char *buf, size_t size);

/* Lets the lock go (closes FD; -1: none). Its record stays, believed by
 * nobody once the lock is free. */
void halo_lock_release(int fd);
