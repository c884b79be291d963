/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel-version.h: kernel release numbers, as ready.kernel_min writes
 * them ("6.18.4") and as the running kernel reports its release
 * (/proc/sys/kernel/osrelease: "6.18.4-200.fc43.x86_64"; docs/hardware.md,
 * "Running kernel").
 */
#pragma once

/* "6.18.4-200.fc43.x86_64" -> {6, 18, 4}; "6.18" is 6.18.0. The numbers
 * end at the first character that is neither digit nor '.', stored in
 * *RET_END (may be NULL). 0 or -EINVAL (not "N.N", a number above 99999). */
int halo_kernel_version_parse(const char *s, unsigned ret[3], const char **ret_end);
/* <0, 0, >0 as A is older than, equal to, newer than B. */
int halo_kernel_version_cmp(const unsigned a[3], const unsigned b[3]);
