/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outputs.h: the run's own outputs, the only writes outside items: the
 * state file, the reboot flag (/run/reboot-required) and the Prometheus
 * textfile. Proven writable before the first change, written after the
 * engine has decided every item.
 */
#pragma once

#include "config/halo-config.h"
#include "engine/plan.h"
#include "halo.h"
#include "util/errors.h"

/* Whether this run writes the Prometheus textfile: apply and check, when
 * configured, and only a full run (halo_run_is_full): a run limited by
 * --only or --interface (the every-boot and hotplug units) would replace
 * the other items' series with nothing, so alerts on them would resolve
 * silently; it leaves the last full run's file as it is. */
bool halo_outputs_textfile(const struct halo_ctx *ctx, const struct halo_config *cfg);

/* No output is a file a planned item writes: else -EINVAL with a line
 * in ERRS naming the output's key and line and the item (exit 1). */
int halo_outputs_check_items(const struct halo_config *cfg, const struct halo_plan *plan,
			     struct halo_errors *errs);

/* Every output this run writes can be written the way file items write
 * (no symlink on the way, ...): else -EINVAL with a line in ERRS (the
 * config points it somewhere impossible: exit 1). An apply's outputs
 * must also be writable now (an apply that could change the host but
 * not record it would leave a half-told story): else -EROFS with a line
 * in ERRS (the host's fault: exit 4). */
int halo_outputs_check(struct halo_ctx *ctx, const struct halo_config *cfg,
		       struct halo_errors *errs);

/* An apply proves, after the observation and before the first change,
 * that every file a planned item will write or remove (owned files, the
 * env file) can be written now: else -EROFS with a line per file in ERRS
 * (the host's fault: exit 4, nothing changed). Other modes: 0. */
int halo_outputs_check_files_writable(struct halo_ctx *ctx, const struct halo_plan *plan,
				      struct halo_errors *errs);

/* A full run whose state.prometheus no longer names the textfile the
 * last state file records (moved, or unset): an item that removes that
 * file while it is recognisably halo-provision's, so node_exporter is
 * not left reading an old copy beside the new one. 0 or -errno. */
int halo_outputs_plan_moved_textfile(struct halo_ctx *ctx, const struct halo_config *cfg,
				     struct halo_plan *plan);

/* Writes the outputs of a finished run with exit bits BITS. A failed
 * write is a line in ERRS and a warning of PLAN; returns the bits it adds
 * (HALO_EXIT_FAILED), 0 when all went well. */
int halo_outputs_write(struct halo_ctx *ctx, const struct halo_config *cfg,
		       struct halo_plan *plan, int bits, struct halo_errors *errs);
