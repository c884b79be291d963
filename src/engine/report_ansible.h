/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_ansible.h: the one JSON object halo-provision prints as an
 * Ansible binary module. "changed" and "failed" are always there (Ansible
 * reads them, not the exit code), "rc" is the exit bitmask the same run
 * has on the command line, "items" are the --json report's items, "diff"
 * (when Ansible asked for it) is a before/after pair per changed file.
 */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "config/halo-config.h"
#include "engine/plan.h"
#include "halo.h"
#include "util/errors.h"

/* A finished run. DIFF: add the "diff" member. 0 or -errno. */
int halo_report_ansible_print(FILE *out, const struct halo_ctx *ctx,
			      const struct halo_config *cfg, const struct halo_plan *plan,
			      int exit_bits, bool diff);

/* A run that stopped before its plan (EXIT_CODE 1: args, usage or config
 * error; 4: the host, e.g. the lock): failed, "msg" the first of ERRS,
 * "errors" all of them. CFG may be NULL. 0 or -errno. */
int halo_report_ansible_error(FILE *out, const struct halo_config *cfg,
			      const struct halo_errors *errs, int exit_code, bool diff);
