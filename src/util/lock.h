/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lock.h: one run at a time per root (flock on /run/halo-provision.lock). */
#pragma once

#include "halo.h"

#define HALO_LOCK_PATH "/run/halo-provision.lock"

/* Creates /run under the root if needed; non-blocking. -EWOULDBLOCK when
 * another run holds it. *ret_fd stays open for the whole run. */
int halo_lock_acquire(const struct halo_ctx *ctx, int *ret_fd);
