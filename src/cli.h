/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli.h: the pinned command line (halo-provision(8)) parsed into options.
 * The parser is pure: it prints nothing, so main decides between text and
 * JSON errors. */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "halo.h"

/* How long a run waits for another run's lock. The default covers a
 * hotplug run queued behind the boot run (modules, links, a grub
 * regeneration); a day is the most that makes sense. */
#define HALO_WAIT_DEFAULT_SECONDS 120
#define HALO_WAIT_MAX_SECONDS 86400

struct halo_cli {
	enum halo_mode mode;        /* HALO_MODE_APPLY unless a mode option */
	const char *config;         /* -c, or NULL: the default inside the root */
	const char *config_meant;   /* see halo_cli_glued_near, or NULL */
	const char *root;           /* --root, default "/" */
	const char *netns;          /* NULL unless --netns */
	const char *kernel_release; /* NULL unless --kernel-release */
	unsigned only;              /* enum halo_subsys mask */
	const char *interface;      /* NULL unless --interface */
	unsigned wait_seconds;      /* --wait, HALO_WAIT_DEFAULT_SECONDS */
	int verbosity;              /* -1, 0, 1 */
	bool revert;                /* --revert: undo (with --dry-run: show) */
	bool json, diff, help, version;
	/* --cluster FILE...: the files (argv's, not copied), at least two;
	 * no other option but --json or --dot, -q, -v, -h (cluster/cluster.h). */
	bool cluster;
	bool dot;
	char *const *cluster_files;
	size_t n_cluster_files;
};

/* Parses ARGV. 0 with *ret filled, or -EINVAL with *ret_error set to one
 * line (caller frees; NULL on ENOMEM). */
int halo_cli_parse(int argc, char *argv[], struct halo_cli *ret,
		   char **ret_error);

/* True when "--json" is among the options of ARGV, so that even a usage
 * error can answer with a JSON document. */
bool halo_cli_wants_json(int argc, char *argv[]);
/* The same for "--cluster": that document is --cluster's own. */
bool halo_cli_wants_cluster(int argc, char *argv[]);

void halo_cli_usage(FILE *out);

/* ctx->lock_waiting for the command line: one line on stderr saying
 * whose lock a queued run waits for. */
void halo_cli_lock_waiting(const struct halo_ctx *ctx, const char *lock, const char *holder);
