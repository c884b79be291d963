/* SPDX-License-Identifier: GPL-2.0-or-later */
/* loose.h: Ansible's loosely typed values (loose.c). */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/* An integer in decimal ("-12", "9000"): true, with *RET set when RET is
 * not NULL. */
bool halo_loose_int(const char *s, int64_t *ret);
/* A boolean "true", "yes", "false", "no" (any case): 1 or 0, else -1. */
int halo_loose_bool(const char *s);
