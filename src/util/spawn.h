/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spawn.h: run an external program with an argv. Never a shell. */
#pragma once

#include "halo.h"

/*
 * posix_spawn ARGV[0] with a minimal environment (PATH=/usr/sbin:/usr/bin:
 * /sbin:/bin, LC_ALL=C), stdin from /dev/null. A bare name is looked up in
 * that PATH, not the caller's. Signals start at their defaults, unblocked.
 * Captures stdout (and stderr,
 * for the error message) up to 1 MiB each. Waits for it.
 * Returns 0 if it ran (its exit status in *ret_status: 0..255, or 128+signal),
 * -errno if it could not be started (-ENOENT: not installed).
 * ret_stdout / ret_stderr may be NULL. ctx->spawned is incremented.
 */
int halo_spawn(struct halo_ctx *ctx, const char *const argv[],
	       int *ret_status, char **ret_stdout, char **ret_stderr);
