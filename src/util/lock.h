/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lock.h: one run at a time per root (flock on /run/halo-provision.lock). */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "halo.h"

#define HALO_LOCK_PATH "/run/halo-provision.lock"
/* Who holds the lock, written by the holder beside it (the lock file
 * itself is never rewritten: a run that changes nothing leaves it as it
 * was). Published whole with link(2), removed before the lock is let go:
 * lines "pid N", "mode WORD", "since UNIX_SECONDS". */
#define HALO_LOCK_HOLDER_PATH "/run/halo-provision.lock.holder"

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

/* Records this process as the holder of the lock it just took, MODE the
 * run's mode (a word). Best effort for the waiters' sake: 0 or -errno,
 * never a reason to stop the run. */
int halo_lock_holder_write(const struct halo_ctx *ctx, const char *mode);

/* The holder's record. 0; -ENOENT when there is none, or its process is
 * gone (a killed run's record); -EBADMSG when it is not a record. */
int halo_lock_holder_read(const struct halo_ctx *ctx, struct halo_lock_holder *ret);

/* "pid 1234, apply, since 2026-11-27 14:02:11 UTC" into BUF. */
void halo_lock_holder_format(const struct halo_lock_holder *h, char *buf, size_t size);

/* Removes this run's holder record when it wrote one (OWN_RECORD: while
 * it held the lock no other run wrote one), then lets the lock go
 * (closes FD). */
void halo_lock_release(const struct halo_ctx *ctx, int fd, bool own_record);
