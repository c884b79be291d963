/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli-cluster.c: the options after the --cluster files (cli-cluster.h). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "cli-cluster.h"
#include "cli-words.h"
#include "engine/report.h"
#include "util/strv.h"

/* The error for long option A after the --cluster files: the words
 * getopt would have said before them for a typo, an abbreviation or an
 * argument to an option that takes none; else that --cluster does not
 * take it. */
static char *cluster_long_option_error(const struct option *opts, const char *a)
{
	size_t len = strcspn(a + 2, "=");
	const struct option *o;

	for (o = opts; o->name; o++)
		if (strlen(o->name) == len && strncmp(o->name, a + 2, len) == 0)
			break;
	if (!o->name)
		return halo_cli_unknown_long(opts, a + 2, len);
	if (a[2 + len] == '=' && o->has_arg == no_argument)
		return halo_strdup_printf("option '--%s' takes no argument", o->name);
	return halo_strdup_printf("--cluster takes no --%s (it only reads the state files given)",
				  o->name);
}

/* The options parse_cluster takes after the files: a short one's letter
 * (else 0) and the long name, whose first letter a mistyped short option
 * is matched by (-Q, -j). */
static const struct {
	char letter;
	const char *name;
} cluster_options[] = {
	{ 0, "json" }, { 0, "dot" }, { 'q', "quiet" }, { 'v', "verbose" }, { 'h', "help" },
};

/* Short options A after the --cluster files ("-q", "-qv", "-x"), letter
 * by letter as getopt reads them before the files: -q, -v and -h are
 * taken; -c, known but not taken, is refused as there. An unknown one is
 * named with what it was probably meant to be: a long option --cluster
 * takes written with one dash (-json), else the option --cluster takes
 * whose name the letter starts (-Q: -q, -j: --json), else the list of
 * them. */
static int cluster_short_options(const struct option *opts, const char *a, struct halo_cli *cli,
				 bool *quiet, bool *verbose, char **ret_error)
{
	const char *names[HALO_CLI_MAX_OPTIONS + 1];
	const char *word = a + 1, *letter = word + strspn(word, "qvh"), *near;

	if (!*letter) {
		*quiet |= strchr(word, 'q') != NULL;
		*verbose |= strchr(word, 'v') != NULL;
		cli->help |= strchr(word, 'h') != NULL;
		return 0;
	}
	if (*letter == 'c') {
		*ret_error = halo_strdup_printf("--cluster takes no -c (it only reads the state files given)");
		return *ret_error ? -EINVAL : -ENOMEM;
	}
	halo_cli_option_names(opts, names);
	/* Nearest of all, so that -root is not taken for --dot. */
	near = word[1] ? halo_suggest(word, names) : NULL;
	for (size_t i = 0; near && i < ARRAY_SIZE(cluster_options); i++)
		if (strcmp(near, cluster_options[i].name) == 0) {
			*ret_error = halo_strdup_printf("unknown option '%s' (did you mean --%s?)", a, near);
			return *ret_error ? -EINVAL : -ENOMEM;
		}
	for (size_t i = 0; i < ARRAY_SIZE(cluster_options); i++)
		if (cluster_options[i].name[0] == tolower((unsigned char)*letter)) {
			*ret_error = cluster_options[i].letter ?
				halo_strdup_printf("unknown option '-%c' (did you mean -%c?)", *letter,
						   cluster_options[i].letter) :
				halo_strdup_printf("unknown option '-%c' (did you mean --%s?)", *letter,
						   cluster_options[i].name);
			return *ret_error ? -EINVAL : -ENOMEM;
		}
	*ret_error = halo_strdup_printf("unknown option '-%c' (--cluster takes only --json, --dot, -q and -v)",
					*letter);
	return *ret_error ? -EINVAL : -ENOMEM;
}

int halo_cli_parse_cluster(int argc, char *argv[], int first, const struct option *opts,
			   struct halo_cli *cli, bool *quiet, bool *verbose, const char *other,
			   char **ret_error)
{
	char **files = argv + first;
	size_t n = 0;
	bool dashdash = false;

	if (cli->mode != HALO_MODE_APPLY || cli->revert) {
		*ret_error = halo_strdup_printf("--cluster and --%s cannot be used together",
						cli->revert ? "revert" : halo_mode_name(cli->mode));
		return -EINVAL;
	}
	if (other) {
		*ret_error = halo_strdup_printf("--cluster takes no %s%s (it only reads the state files given)",
						other[1] ? "--" : "-", other);
		return -EINVAL;
	}
	/* The files are moved to the front of argv's tail, in order. */
	for (int i = first; i < argc; i++) {
		const char *a = argv[i];

		if (!dashdash && strcmp(a, "--") == 0)
			dashdash = true;
		else if (!dashdash && strcmp(a, "--json") == 0)
			cli->json = true;
		else if (!dashdash && strcmp(a, "--dot") == 0)
			cli->dot = true;
		else if (!dashdash && (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0))
			*quiet = true;
		else if (!dashdash && (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0))
			*verbose = true;
		else if (!dashdash && (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0))
			cli->help = true;
		else if (!dashdash && a[0] == '-' && a[1] == '-') {
			*ret_error = cluster_long_option_error(opts, a);
			return -EINVAL;
		} else if (!dashdash && a[0] == '-' && a[1]) {
			int r = cluster_short_options(opts, a, cli, quiet, verbose, ret_error);

			if (r < 0)
				return r;
		} else if (!a[0]) {
			*ret_error = halo_strdup_printf("--cluster: an empty state file name");
			return -EINVAL;
		} else
			files[n++] = argv[i];
	}
	if (cli->json && cli->dot) {
		*ret_error = halo_strdup_printf("--json and --dot cannot be used together");
		return -EINVAL;
	}
	if (n < 2) {
		*ret_error = halo_strdup_printf("--cluster needs at least two state files (one per node), not %zu",
						n);
		return -EINVAL;
	}
	cli->cluster_files = files;
	cli->n_cluster_files = n;
	return 0;
}
