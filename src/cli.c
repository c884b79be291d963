/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.c: options → struct halo_cli. getopt_long accepts abbreviations of
 * long options ("--chec"); halo-provision matches keywords exactly, so every
 * long option is checked against its full name. Parsing stops at the first
 * non-option ("+"), which then becomes a specific error: there are no verbs.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli-cluster.h"
#include "cli-words.h"
#include "engine/report.h"
#include "subsystems.h"
#include "util/strv.h"

enum {
	OPT_CHECK = 256,
	OPT_DRY_RUN,
	OPT_VALIDATE,
	OPT_STATUS,
	OPT_ROOT,
	OPT_NETNS,
	OPT_KERNEL_RELEASE,
	OPT_ONLY,
	OPT_JSON,
	OPT_DIFF,
	OPT_VERSION,
	OPT_INTERFACE,
	OPT_WAIT,
	OPT_REVERT,
	OPT_CLUSTER,
	OPT_DOT,
};

#define SHORT_OPTIONS "c:qvh"

static const struct option long_options[] = {
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "validate", no_argument, NULL, OPT_VALIDATE },
	{ "status", no_argument, NULL, OPT_STATUS },
	{ "config", required_argument, NULL, 'c' },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "netns", required_argument, NULL, OPT_NETNS },
	{ "kernel-release", required_argument, NULL, OPT_KERNEL_RELEASE },
	{ "only", required_argument, NULL, OPT_ONLY },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "diff", no_argument, NULL, OPT_DIFF },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "interface", required_argument, NULL, OPT_INTERFACE },
	{ "wait", required_argument, NULL, OPT_WAIT },
	{ "revert", no_argument, NULL, OPT_REVERT },
	{ "cluster", no_argument, NULL, OPT_CLUSTER },
	{ "dot", no_argument, NULL, OPT_DOT },
	{ 0 },
};
_Static_assert(ARRAY_SIZE(long_options) - 1 <= HALO_CLI_MAX_OPTIONS, "raise HALO_CLI_MAX_OPTIONS");

/* "boot,modules,...": the --only names, SEP between them. Caller frees. */
static char *subsystem_list(const char *sep)
{
	struct halo_buf b = { 0 };

	for (size_t i = 0; i < halo_registry.n; i++)
		halo_buf_printf(&b, "%s%s", i ? sep : "", halo_registry.subsystems[i].name);
	return halo_buf_steal(&b);
}

void halo_cli_usage(FILE *out)
{
	fprintf(out, "Usage: halo-provision [OPTIONS]            converge the host to the config (apply)\n"
	      "       halo-provision --check [OPTIONS]    read-only drift audit\n"
	      "       halo-provision --dry-run [OPTIONS]  show what apply would change, change nothing\n"
	      "       halo-provision --validate           check the config file only\n"
	      "       halo-provision --status             summarize the last state file (--json: print it)\n"
	      "       halo-provision --revert [OPTIONS]   remove what it owns, undo its edits\n"
	      "                                           (with --dry-run: show)\n"
	      "       halo-provision --cluster STATE_FILE...  check that nodes agree on every cable\n"
	      "                                           (or each node's --check --json; --dot: draw)\n"
	      "\n"
	      "  -c, --config FILE   a path as given; without -c, /etc/halo-provision/halo.conf\n"
	      "                      inside the root\n"
	      "  --root DIR          act on the tree under DIR (image builds, tests, sandboxes)\n"
	      "  --netns NAME        do all netlink work inside network namespace NAME\n"
	      "  --kernel-release V  the kernel whose modules and boot entries to manage\n"
	      "                      (default: the running one)\n"
	      "  --only LIST         comma list of these subsystems (default: all but\n"
	      "                      those run only when named):\n");
	for (size_t i = 0; i < halo_registry.n; i++)
		fprintf(out, "                        %-9s %s\n", halo_registry.subsystems[i].name,
			halo_registry.subsystems[i].summary);
	fprintf(out,
	      "  --interface NAME    limit link, RoCE and RDMA items to the managed\n"
	      "                      interface NAME (the per-interface hotplug unit)\n"
	      "  --wait SECONDS      wait up to SECONDS for another run's lock, then\n"
	      "                      exit 4 (default %d; 0: do not wait)\n"
	      "  --json              one JSON document on stdout\n"
	      "  --dot               with --cluster: the cable map as a Graphviz graph\n"
	      "  --diff              unified diff of every file change\n"
	      "  -q, --quiet         only the summary line and failures\n"
	      "  -v, --verbose       every item, also those in sync\n"
	      "  -h, --help          this text\n"
	      "  --version           the version\n"
	      "\n"
	      "Exit status (a bitmask): 0 in sync, 1 usage or config error (nothing changed),\n"
	      "+2 changed or drift found, +4 an item failed, +8 reboot required.\n",
	      HALO_WAIT_DEFAULT_SECONDS);
}

/* Whether ARGV holds OPTION before any "--". */
static bool has_option(int argc, char *argv[], const char *option)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], option) == 0)
			return true;
	}
	return false;
}

bool halo_cli_wants_json(int argc, char *argv[])
{
	return has_option(argc, argv, "--json");
}

bool halo_cli_wants_cluster(int argc, char *argv[])
{
	return has_option(argc, argv, "--cluster");
}

static int set_mode(struct halo_cli *cli, enum halo_mode mode, char **ret_error)
{
	if (cli->mode != HALO_MODE_APPLY && cli->mode != mode) {
		*ret_error = halo_strdup_printf("--%s and --%s cannot be used together",
						halo_mode_name(cli->mode), halo_mode_name(mode));
		return -EINVAL;
	}
	cli->mode = mode;
	return 0;
}

static int parse_only(const char *list, unsigned *ret, char **ret_error)
{
	_cleanup_free_ char *copy = strdup(list);
	unsigned mask = 0;

	if (!copy)
		return -ENOMEM;
	/* strsep, not strtok: "boot,,links" has an empty name, an error. */
	for (char *p = copy, *name; (name = strsep(&p, ",")) != NULL;) {
		enum halo_subsys s = halo_subsys_from_name(&halo_registry, name);

		if (!s) {
			_cleanup_free_ char *known = subsystem_list(", ");
			const char *names[32] = { 0 }, *near;

			for (size_t i = 0; i < halo_registry.n && i + 1 < ARRAY_SIZE(names); i++)
				names[i] = halo_registry.subsystems[i].name;
			near = name[0] ? halo_suggest(name, names) : NULL;
			if (near)
				*ret_error = halo_strdup_printf("unknown subsystem '%s' in --only (did you "
								"mean %s? known: %s)", name, near,
								known ? known : "");
			else
				*ret_error = halo_strdup_printf("unknown subsystem '%s' in --only (known: %s)",
								name, known ? known : "");
			return -EINVAL;
		}
		mask |= s;
	}
	*ret = mask;
	return 0;
}

/* A file-name-like argument: not empty, no "/", not "." or "..". */
static bool valid_name(const char *s)
{
	return s[0] && !strchr(s, '/') && strcmp(s, ".") != 0 && strcmp(s, "..") != 0;
}

/* A kernel interface name (IFNAMSIZ - 1 bytes, no '/', no blank, not "."
 * or ".."): what dev_valid_name() accepts. */
static bool valid_ifname(const char *s)
{
	if (!valid_name(s) || strlen(s) > 15)
		return false;
	for (; *s; s++)
		if (*s == ':' || (unsigned char)*s <= ' ' || *s == 0x7f)
			return false;
	return true;
}

/* Whole seconds, 0 to a day: a lock wait beyond that is a hung host. */
static int parse_wait(const char *arg, unsigned *ret, char **ret_error)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (!arg[0] || *end || errno || arg[0] == '-' || arg[0] == '+' ||
	    v > HALO_WAIT_MAX_SECONDS) {
		*ret_error = halo_strdup_printf("--wait needs whole seconds from 0 to %u, not '%s'",
						HALO_WAIT_MAX_SECONDS, arg);
		return -EINVAL;
	}
	*ret = (unsigned)v;
	return 0;
}

/* The error for a positional argument: there are no verbs. */
static char *positional_error(const char *arg)
{
	for (enum halo_mode m = HALO_MODE_APPLY; m <= HALO_MODE_STATUS; m++)
		if (strcmp(arg, halo_mode_name(m)) == 0)
			return m == HALO_MODE_APPLY ?
				halo_strdup_printf("unknown command '%s' (apply is the default: run without a command)", arg) :
				halo_strdup_printf("unknown command '%s' (did you mean --%s?)", arg, arg);
	if (strcmp(arg, "help") == 0 || strcmp(arg, "version") == 0)
		return halo_strdup_printf("unknown command '%s' (did you mean --%s?)", arg, arg);
	return halo_strdup_printf("unexpected argument '%s'", arg);
}

/* getopt_long returned '?' for the element just consumed. */
static char *unknown_option_error(int argc, char *argv[])
{
	const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "?";

	if (strncmp(arg, "--", 2) == 0) {
		size_t len = strcspn(arg + 2, "=");

		for (const struct option *o = long_options; o->name; o++)
			if (arg[2 + len] == '=' && strlen(o->name) == len &&
			    strncmp(o->name, arg + 2, len) == 0)
				return halo_strdup_printf("option '--%s' takes no argument",
							  o->name);
		return halo_cli_unknown_long(long_options, arg + 2, len);
	}
	if (optopt && halo_cli_short_near(optopt, SHORT_OPTIONS))
		return halo_strdup_printf("unknown option '-%c' (did you mean -%c?)", optopt,
					  halo_cli_short_near(optopt, SHORT_OPTIONS));
	if (optopt)
		return halo_strdup_printf("unknown option '-%c'", optopt);
	return halo_strdup_printf("unknown option '%s'", arg);
}

/* getopt_long returned ':' for the element just consumed: named as the
 * user wrote it, "--config" or "-c". An abbreviation is refused as
 * anywhere else, with the option it stands for. */
static char *missing_argument_error(int argc, char *argv[])
{
	const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "?";

	if (strncmp(arg, "--", 2) == 0) {
		for (const struct option *o = long_options; o->name; o++)
			if (o->val == optopt && o->has_arg == required_argument &&
			    strcmp(o->name, arg + 2) != 0)
				return halo_strdup_printf("unknown option '%s' (did you mean --%s?)",
							  arg, o->name);
		return halo_strdup_printf("option '%s' needs an argument", arg);
	}
	if (optopt > 0 && optopt < 256)
		return halo_strdup_printf("option '-%c' needs an argument", optopt);
	return halo_strdup_printf("option '%s' needs an argument", arg);
}

int halo_cli_parse(int argc, char *argv[], struct halo_cli *ret,
		   char **ret_error)
{
	struct halo_cli cli = {
		.mode = HALO_MODE_APPLY,
		.root = "/",
		.only = halo_registry_default_mask(&halo_registry),
		.wait_seconds = HALO_WAIT_DEFAULT_SECONDS,
	};
	bool quiet = false, verbose = false, only_given = false;
	const char *other = NULL; /* an option --cluster does not take */
	int c, r;

	r = halo_cli_one_dash_word(argc, argv, long_options, SHORT_OPTIONS, ret_error);
	if (r < 0)
		return r;
	opterr = 0;
	optind = 0; /* glibc: full re-initialisation, so tests can parse twice */
	for (;;) {
		int prev = optind ? optind : 1, index = -1;

		c = getopt_long(argc, argv, "+:" SHORT_OPTIONS, long_options, &index);
		if (c == -1)
			break;
		if (index >= 0) {
			const char *arg = argv[prev] + 2;
			size_t len = strcspn(arg, "=");

			if (len != strlen(long_options[index].name)) {
				*ret_error = halo_strdup_printf(
					"unknown option '--%.*s' (did you mean --%s?)",
					(int)len, arg, long_options[index].name);
				return -EINVAL;
			}
		}
		if (c != OPT_JSON && c != 'q' && c != 'v' && c != 'h' && c != OPT_VERSION &&
		    c != OPT_CLUSTER && c != OPT_DOT && c != OPT_CHECK && c != OPT_DRY_RUN && c != OPT_VALIDATE &&
		    c != OPT_STATUS && c != OPT_REVERT && c != ':' && c != '?' && !other)
			other = index >= 0 ? long_options[index].name : "c";
		switch (c) {
		case OPT_CLUSTER:
			cli.cluster = true;
			r = 0;
			break;
		case OPT_DOT:
			cli.dot = true;
			r = 0;
			break;
		case OPT_CHECK:
			r = set_mode(&cli, HALO_MODE_CHECK, ret_error);
			break;
		case OPT_DRY_RUN:
			r = set_mode(&cli, HALO_MODE_DRY_RUN, ret_error);
			break;
		case OPT_VALIDATE:
			r = set_mode(&cli, HALO_MODE_VALIDATE, ret_error);
			break;
		case OPT_STATUS:
			r = set_mode(&cli, HALO_MODE_STATUS, ret_error);
			break;
		case 'c':
			r = 0;
			if (!optarg[0]) {
				*ret_error = halo_strdup_printf("-c/--config needs a file name");
				r = -EINVAL;
			}
			cli.config = optarg;
			if (optarg == argv[optind - 1] + 2) /* "-cFILE" */
				cli.config_meant = halo_cli_glued_near(argv[optind - 1], long_options);
			break;
		case OPT_ROOT:
			r = 0;
			if (!optarg[0]) {
				*ret_error = halo_strdup_printf("--root needs a directory");
				r = -EINVAL;
			}
			cli.root = optarg;
			break;
		case OPT_NETNS:
			r = 0;
			if (!valid_name(optarg)) {
				*ret_error = halo_strdup_printf("invalid network namespace name '%s'", optarg);
				r = -EINVAL;
			}
			cli.netns = optarg;
			break;
		case OPT_KERNEL_RELEASE:
			r = 0;
			if (!valid_name(optarg)) {
				*ret_error = halo_strdup_printf("invalid kernel release '%s'", optarg);
				r = -EINVAL;
			}
			cli.kernel_release = optarg;
			break;
		case OPT_INTERFACE:
			r = 0;
			if (!valid_ifname(optarg)) {
				*ret_error = halo_strdup_printf("invalid interface name '%s'", optarg);
				r = -EINVAL;
			}
			cli.interface = optarg;
			break;
		case OPT_WAIT:
			r = parse_wait(optarg, &cli.wait_seconds, ret_error);
			break;
		case OPT_ONLY: {
			unsigned mask = 0;

			/* Given again, the lists add up. */
			r = parse_only(optarg, &mask, ret_error);
			cli.only = only_given ? cli.only | mask : mask;
			only_given = true;
			break;
		}
		case OPT_REVERT:
			cli.revert = true;
			r = 0;
			break;
		case OPT_JSON:
			cli.json = true;
			r = 0;
			break;
		case OPT_DIFF:
			cli.diff = true;
			r = 0;
			break;
		case 'q':
			quiet = true;
			r = 0;
			break;
		case 'v':
			verbose = true;
			r = 0;
			break;
		case 'h':
			cli.help = true;
			r = 0;
			break;
		case OPT_VERSION:
			cli.version = true;
			r = 0;
			break;
		case ':':
			*ret_error = missing_argument_error(argc, argv);
			r = -EINVAL;
			break;
		default:
			*ret_error = unknown_option_error(argc, argv);
			r = -EINVAL;
			break;
		}
		if (r < 0)
			return r == -EINVAL ? r : -ENOMEM;
	}
	if (cli.cluster) {
		r = halo_cli_parse_cluster(argc, argv, optind, long_options, &cli, &quiet,
					  &verbose, other, ret_error);
		if (r < 0)
			return r;
	} else if (optind < argc) {
		*ret_error = positional_error(argv[optind]);
		return -EINVAL;
	} else if (cli.dot) {
		*ret_error = halo_strdup_printf("--dot draws the cable map of --cluster: give --cluster and the nodes' files");
		return -EINVAL;
	}
	/* A revert changes the host (or, with --dry-run, shows how): the
	 * read-only modes have nothing to revert. */
	if (cli.revert && cli.mode != HALO_MODE_APPLY && cli.mode != HALO_MODE_DRY_RUN) {
		*ret_error = halo_strdup_printf("--revert and --%s cannot be used together",
						halo_mode_name(cli.mode));
		return -EINVAL;
	}
	/* A revert undoes the host's config as the state file records it;
	 * one interface cannot limit the boot loader's or the modules' undo,
	 * and a hotplug-style revert of the whole host would be a trap. */
	if (cli.revert && cli.interface) {
		*ret_error = halo_strdup_printf("--revert and --interface cannot be used together "
						"(a revert undoes the whole host; --only limits it)");
		return -EINVAL;
	}
	if (quiet && verbose) {
		*ret_error = halo_strdup_printf("-q and -v cannot be used together");
		return -EINVAL;
	}
	/* The modes that read a file whole: an option that limits or adds
	 * to a run would be ignored, and silently so is a surprise. */
	if (cli.mode == HALO_MODE_VALIDATE || cli.mode == HALO_MODE_STATUS) {
		const char *what = only_given ? "--only" : cli.interface ? "--interface" :
				   cli.diff ? "--diff" : NULL;

		if (what) {
			*ret_error = halo_strdup_printf("%s has no effect with --%s, which %s", what,
							halo_mode_name(cli.mode),
							cli.mode == HALO_MODE_STATUS ?
								"summarizes the whole state file" :
								"checks the whole config");
			return -EINVAL;
		}
	}
	cli.verbosity = quiet ? -1 : verbose ? 1 : 0;
	*ret = cli;
	return 0;
}

void halo_cli_lock_waiting(const struct halo_ctx *ctx, const char *lock, const char *holder)
{
	(void)ctx;
	fprintf(stderr, "halo-provision: waiting for %s, held by %s\n", lock,
		holder ? holder : "another run (it left no record of itself)");
}
