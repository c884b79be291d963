/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysctl-runtime.h: the running value of one sysctl key as an item. */
#pragma once

#include <stdbool.h>

#include "engine/plan.h"
#include "files/sysctl-key.h"

/*
 * Adds "sysctl/<S->name>" wanting S->value at PATH (/proc/sys/..., inside
 * the root). MAY_APPEAR: the key may not exist yet because the modules
 * phase has work to do (drift, not a failure, until apply). -EEXIST for a
 * key planned twice, -ENOMEM.
 */
int halo_sysctl_runtime_add(struct halo_plan *plan, const struct halo_sysctl *s,
			    const char *path, bool may_appear, struct halo_item **ret_item);
