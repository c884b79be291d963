/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lock.h: one run at a time per root (flock on /run/halo-provision.lock). */
#pragma once

#include <stdbool.h>

#include "halo.h"

#define HALO_LOCK_PATH "/run/halo-provision.lock"

/* Opens the lock file (CREATE: creating it and /run under the root if
 * needed, else -ENOENT when absent) and waits up to WAIT_SECONDS for
 * another run to release the lock: -ETIMEDOUT after waiting, -EWOULDBLOCK
 * when WAIT_SECONDS is 0 and the lock is held. *ret_fd stays open for the
 * whole run. */
int halo_lock_acquire(const struct halo_ctx *ctx, unsigned wait_seconds, bool create,
		      int *ret_fd);
