/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli-cluster.h: --cluster's files and the few options it takes. */
#pragma once

#include <getopt.h>
#include <stdbool.h>

#include "cli.h"

/*
 * --cluster: the positional arguments, from ARGV[FIRST] (where getopt
 * stopped), are state files or --json reports. getopt stops at the first
 * one, so --json, --dot, -q and -v after them are taken here; "--" ends
 * the options. OTHER: an option given before them that --cluster does not
 * take, or NULL. Another option, or fewer than two files: -EINVAL with one
 * line in *RET_ERROR (caller frees). OPTS: the command line's options, for
 * errors that name the option meant. The files are moved to the front of
 * ARGV's tail, in order, and CLI points at them.
 */
int halo_cli_parse_cluster(int argc, char *argv[], int first, const struct option *opts,
			   struct halo_cli *cli, bool *quiet, bool *verbose, const char *other,
			   char **ret_error);
