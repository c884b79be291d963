/* SPDX-License-Identifier: GPL-2.0-or-later */
/* file_left.h: owned files left behind by a config that no longer has them. */
#pragma once

#include "engine/plan.h"
#include "halo.h"

/*
 * One report-only item (ok, never applied) for each owned file that the
 * last state file records (plan->records), of a subsystem this run
 * covers, that no item of PLAN has, and that is still there with the
 * managed header: the file is left, and its item keeps the record so that
 * --revert removes it later. Nothing for a revert or a one-interface run.
 * 0 or -errno.
 */
int halo_plan_add_left_files(struct halo_ctx *ctx, struct halo_plan *plan);
