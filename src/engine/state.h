/* SPDX-License-Identifier: GPL-2.0-or-later */
/* state.h: the verification state file and the Prometheus textfile. */
#pragma once

#include "config/config.h"
#include "engine/plan.h"
#include "halo.h"

/* Writes the state JSON (items with wanted/observed/outcome, config digest,
 * tool version, reboot flag) at cfg->state.path under the root, only when
 * its content changes: a run that changes nothing leaves it byte-identical
 * (so it carries no timestamp). Returns 0/1 like halo_write_file_atomic. */
int halo_state_write(struct halo_ctx *ctx, const struct halo_config *cfg,
		     const struct halo_plan *plan, int exit_bits);

/* node_exporter textfile, written atomically (it carries the run time). */
int halo_prometheus_write(struct halo_ctx *ctx, const struct halo_config *cfg,
			  const struct halo_plan *plan, int exit_bits);
