/* SPDX-License-Identifier: GPL-2.0-or-later */
/* digest.h: SHA-256 (FIPS 180-4), small and dependency-free, for the
 * config digest recorded in the state file. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define HALO_SHA256_LEN 32

void halo_sha256(const void *data, size_t len, uint8_t ret[HALO_SHA256_LEN]);
/* Lower-case hex of the digest of DATA into RET (65 bytes with NUL). */
void halo_sha256_hex(const void *data, size_t len, char ret[2 * HALO_SHA256_LEN + 1]);
