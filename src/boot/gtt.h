/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gtt.h: GTT sizing arithmetic (docs/hardware.md "GTT and TTM sizing"). Pure functions.
 *
 *  - ttm.pages_limit counts 4 KiB pages: pages = MiB * 256.
 *  - ROCm/KFD ceiling: RAM - RAM/64 - 1.5 GiB (max_system_mem_limit);
 *    above it GTT is useless to ROCm: a warning, not an error.
 *  - gtt_mib = "auto": RAM - max(reserve_mib, 8 GiB), never above the
 *    ceiling, rounded down to a whole GiB.
 *  - Hard limit (validation error): GTT must fit MemTotal - reserve_mib.
 * RAM is MemTotal from /proc/meminfo, in MiB (kB / 1024, rounded down).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "halo.h"

#define HALO_GTT_AUTO_MIN_RESERVE_MIB 8192u

/* MemTotal of a /proc/meminfo text, in KiB. -EINVAL if absent/garbled. */
int halo_meminfo_memtotal_kib(const char *text, uint64_t *ret_kib);

static inline uint64_t halo_gtt_pages(uint64_t mib)
{
	return mib * 256;
}

uint64_t halo_gtt_ceiling_mib(uint64_t ram_mib);

/* The pages a GTT token stands for ("ttm.pages_limit=N",
 * "amdttm.pages_limit=N": N; "amdgpu.gttsize=MiB": MiB * 256); false if
 * its value is not a number. */
bool halo_gtt_token_pages(const char *tok, uint64_t *ret);
uint64_t halo_gtt_auto_mib(uint64_t ram_mib, uint64_t reserve_mib);

/*
 * Looks for `options MODULE ... PARAM=VALUE ...` in a modprobe.d TEXT.
 * Returns the 1-based line of the last such setting (its value copied to
 * *ret_value, caller frees), 0 if none, -ENOMEM.
 */
int halo_modprobe_find_option(const char *text, const char *module,
			      const char *param, char **ret_value);
