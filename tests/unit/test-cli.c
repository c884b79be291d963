/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of option parsing (cli.c). */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"

/* Parses a NULL-terminated list of arguments after the program name. */
static int parse(struct halo_cli *cli, char **error, ...)
{
	char *argv[32] = { (char *)"halo-provision" };
	int argc = 1;
	va_list ap;

	va_start(ap, error);
	while ((argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	*error = NULL;
	return halo_cli_parse(argc, argv, cli, error);
}

static void expect_error(const char *want, ...)
{
	char *argv[32] = { (char *)"halo-provision" };
	struct halo_cli cli;
	char *error = NULL;
	int argc = 1;
	va_list ap;

	va_start(ap, want);
	while ((argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	assert_int_equal(halo_cli_parse(argc, argv, &cli, &error), -EINVAL);
	assert_non_null(error);
	assert_string_equal(error, want);
	free(error);
}

static void test_defaults(void **state)
{
	struct halo_cli cli;
	char *error;

	assert_int_equal(parse(&cli, &error, NULL), 0);
	assert_null(error);
	assert_int_equal(cli.mode, HALO_MODE_APPLY);
	assert_string_equal(cli.root, "/");
	assert_null(cli.config);
	assert_null(cli.netns);
	assert_null(cli.kernel_release);
	/* Every subsystem but the readiness checks, run only when named. */
	assert_int_equal(cli.only, HALO_SUB_BOOT | HALO_SUB_MODULES | HALO_SUB_LINKS |
				   HALO_SUB_ROCE | HALO_SUB_RDMA | HALO_SUB_FILES |
				   HALO_SUB_STORAGE);
	assert_int_equal(cli.verbosity, 0);
	assert_false(cli.json);
	assert_false(cli.diff);
}

static void test_all_options(void **state)
{
	struct halo_cli cli;
	char *error;

	assert_int_equal(parse(&cli, &error, "--check", "-c", "/x.conf", "--root", "/tmp/r",
			       "--netns", "ns1", "--kernel-release", "6.1.0-1", "--only",
			       "boot,links", "--json", "--diff", "-v", NULL), 0);
	assert_int_equal(cli.mode, HALO_MODE_CHECK);
	assert_string_equal(cli.config, "/x.conf");
	assert_string_equal(cli.root, "/tmp/r");
	assert_string_equal(cli.netns, "ns1");
	assert_string_equal(cli.kernel_release, "6.1.0-1");
	assert_int_equal(cli.only, HALO_SUB_BOOT | HALO_SUB_LINKS);
	assert_true(cli.json);
	assert_true(cli.diff);
	assert_int_equal(cli.verbosity, 1);

	assert_int_equal(parse(&cli, &error, "--dry-run", "--config=/y", "--root=/r", "-q", NULL), 0);
	assert_int_equal(cli.mode, HALO_MODE_DRY_RUN);
	assert_string_equal(cli.config, "/y");
	assert_string_equal(cli.root, "/r");
	assert_int_equal(cli.verbosity, -1);

	assert_int_equal(parse(&cli, &error, "--validate", "-c/z", NULL), 0);
	assert_int_equal(cli.mode, HALO_MODE_VALIDATE);
	assert_string_equal(cli.config, "/z");
	assert_int_equal(parse(&cli, &error, "--status", NULL), 0);
	assert_int_equal(cli.mode, HALO_MODE_STATUS);
	assert_int_equal(parse(&cli, &error, "--check", "--check", NULL), 0);
	assert_int_equal(parse(&cli, &error, "--help", NULL), 0);
	assert_true(cli.help);
	assert_int_equal(parse(&cli, &error, "--version", NULL), 0);
	assert_true(cli.version);
	/* A value that looks like a one-dash long option is still a value. */
	assert_int_equal(parse(&cli, &error, "-c", "-check", NULL), 0);
	assert_string_equal(cli.config, "-check");
	assert_int_equal(parse(&cli, &error, "-qcheck.conf", NULL), 0);
	assert_string_equal(cli.config, "heck.conf");
	assert_int_equal(parse(&cli, &error, "--root", "-json", "--check", NULL), 0);
	assert_string_equal(cli.root, "-json");
}

/* "-chek" is -c with "hek" glued on: taken as the config file (a file may
 * have any name), with the option probably meant kept for the line that
 * says no such file exists. A separate or long-form value means what it
 * says. */
static void test_config_glued(void **state)
{
	struct halo_cli cli;
	char *error;

	assert_int_equal(parse(&cli, &error, "-chek", NULL), 0);
	assert_string_equal(cli.config, "hek");
	assert_non_null(cli.config_meant);
	assert_string_equal(cli.config_meant, "check");
	assert_int_equal(parse(&cli, &error, "-cdryrun", NULL), 0);
	assert_string_equal(cli.config_meant, "dry-run");
	assert_int_equal(parse(&cli, &error, "-cnode1.conf", NULL), 0);
	assert_string_equal(cli.config, "node1.conf");
	assert_null(cli.config_meant);
	assert_int_equal(parse(&cli, &error, "-c", "hek", NULL), 0);
	assert_null(cli.config_meant);
	assert_int_equal(parse(&cli, &error, "--config=chek", NULL), 0);
	assert_null(cli.config_meant);
	assert_int_equal(parse(&cli, &error, "-qchek", NULL), 0);
	assert_null(cli.config_meant);
}

static void test_errors(void **state)
{
	expect_error("--check and --dry-run cannot be used together", "--check", "--dry-run", NULL);
	expect_error("--validate and --status cannot be used together", "--validate", "--status", NULL);
	expect_error("unknown option '--bogus'", "--bogus", NULL);
	expect_error("unknown option '-x'", "-x", NULL);
	/* getopt would take these abbreviations; keywords match exactly. */
	expect_error("unknown option '--chec' (did you mean --check?)", "--chec", NULL);
	expect_error("unknown option '--ro' (did you mean --root?)", "--ro=/x", NULL);
	expect_error("unknown option '--c'", "--c", NULL); /* ambiguous */
	/* A typo that is no abbreviation: the nearest option, as for the
	 * config file's keys; none when nothing is that close. */
	expect_error("unknown option '--chek' (did you mean --check?)", "--chek", NULL);
	expect_error("unknown option '--dryrun' (did you mean --dry-run?)", "--dryrun", NULL);
	expect_error("unknown option '--jsno' (did you mean --json?)", "--jsno", NULL);
	expect_error("unknown option '--onyl' (did you mean --only?)", "--onyl=boot", NULL);
	expect_error("unknown option '--CHECK' (did you mean --check?)", "--CHECK", NULL);
	expect_error("unknown option '--interfaces' (did you mean --interface?)", "--interfaces", "x", NULL);
	expect_error("unknown option '--zz'", "--zz", NULL);
	/* One dash where two were meant: getopt would read -check as the
	 * config file "heck", -json as an unknown -j. */
	expect_error("unknown option '-check' (did you mean --check?)", "-check", NULL);
	expect_error("unknown option '-config' (did you mean --config?)", "-config", "x", NULL);
	expect_error("unknown option '-json' (did you mean --json?)", "--check", "-json", NULL);
	expect_error("unknown option '-jsno' (did you mean --json?)", "-jsno", NULL);
	expect_error("unknown option '-root' (did you mean --root?)", "-root=/x", NULL);
	expect_error("unknown option '-dry-run' (did you mean --dry-run?)", "-c", "-q", "-dry-run", NULL);
	expect_error("unknown option '-Q' (did you mean -q?)", "-Q", NULL);
	expect_error("unknown option '-V' (did you mean -v?)", "--check", "-V", NULL);
	expect_error("unknown option '-j'", "-j", NULL);
	expect_error("unknown option '-\xc3'", "-\xc3", NULL);
	expect_error("unknown option '--'", "--=x", NULL);
	expect_error("option '--json' takes no argument", "--json=yes", NULL);
	expect_error("option '--root' needs an argument", "--root", NULL);
	expect_error("option '-c' needs an argument", "-c", NULL);
	/* Named as given, not by the short letter it maps to. */
	expect_error("option '--config' needs an argument", "--config", NULL);
	expect_error("option '-c' needs an argument", "-q", "-c", NULL);
	expect_error("option '-c' needs an argument", "-qc", NULL);
	/* An abbreviation is refused as it is with an argument. */
	expect_error("unknown option '--conf' (did you mean --config?)", "--conf", NULL);
	expect_error("unknown option '--onl' (did you mean --only?)", "--onl", NULL);
	expect_error("unknown command 'check' (did you mean --check?)", "check", NULL);
	expect_error("unknown command 'dry-run' (did you mean --dry-run?)", "--json", "dry-run", NULL);
	expect_error("unknown command 'apply' (apply is the default: run without a command)", "apply", NULL);
	expect_error("unexpected argument 'foo'", "-q", "foo", NULL);
	expect_error("unexpected argument 'foo'", "--", "foo", NULL);
	expect_error("unknown subsystem 'network' in --only (known: boot, modules, links, roce, rdma, files, storage, ready)",
		     "--only", "boot,network", NULL);
	expect_error("unknown subsystem '' in --only (known: boot, modules, links, roce, rdma, files, storage, ready)",
		     "--only", "boot,,links", NULL);
	expect_error("-q and -v cannot be used together", "-q", "-v", NULL);
	expect_error("invalid network namespace name '../x'", "--netns", "../x", NULL);
	expect_error("invalid kernel release ''", "--kernel-release", "", NULL);
	expect_error("--root needs a directory", "--root", "", NULL);
}

/* --revert: alone (apply) or with --dry-run, never with a read-only mode. */
static void test_revert(void **state)
{
	struct halo_cli cli;
	char *error;

	assert_int_equal(parse(&cli, &error, NULL), 0);
	assert_false(cli.revert);
	assert_int_equal(parse(&cli, &error, "--revert", NULL), 0);
	assert_true(cli.revert);
	assert_int_equal(cli.mode, HALO_MODE_APPLY);
	assert_int_equal(parse(&cli, &error, "--dry-run", "--revert", NULL), 0);
	assert_true(cli.revert);
	assert_int_equal(cli.mode, HALO_MODE_DRY_RUN);
	assert_int_equal(parse(&cli, &error, "--revert", "--dry-run", "--only", "boot", NULL), 0);
	assert_true(cli.revert);
	assert_int_equal(cli.mode, HALO_MODE_DRY_RUN);
	expect_error("--revert and --check cannot be used together", "--revert", "--check", NULL);
	expect_error("--revert and --check cannot be used together", "--check", "--revert", NULL);
	expect_error("--revert and --validate cannot be used together", "--revert", "--validate", NULL);
	expect_error("--revert and --status cannot be used together", "--status", "--revert", NULL);
	expect_error("unknown option '--rev' (did you mean --revert?)", "--rev", NULL);
	expect_error("option '--revert' takes no argument", "--revert=yes", NULL);
}

/* --cluster STATE_FILE...: the files, --json or --dot, -q/-v anywhere,
 * nothing else (cluster/cluster.h). */
static void test_cluster(void **state)
{
	char *argv[] = { (char *)"halo-provision", (char *)"--cluster", (char *)"a.json",
			 (char *)"--json", (char *)"b.json", (char *)"-q", (char *)"--",
			 (char *)"--json", NULL };
	struct halo_cli cli;
	char *error = NULL;

	assert_int_equal(halo_cli_parse(8, argv, &cli, &error), 0);
	assert_null(error);
	assert_true(cli.cluster);
	assert_true(cli.json);
	assert_int_equal(cli.verbosity, -1);
	assert_int_equal(cli.n_cluster_files, 3);
	assert_string_equal(cli.cluster_files[0], "a.json");
	assert_string_equal(cli.cluster_files[1], "b.json");
	/* After "--" even "--json" is a file. */
	assert_string_equal(cli.cluster_files[2], "--json");
	assert_int_equal(parse(&cli, &error, NULL), 0);
	assert_false(cli.cluster);

	expect_error("--cluster needs at least two state files (one per node), not 1",
		     "--cluster", "a.json", NULL);
	expect_error("--cluster needs at least two state files (one per node), not 0",
		     "--cluster", NULL);
	expect_error("--cluster takes no --root (it only reads the state files given)",
		     "--root", "/x", "--cluster", "a", "b", NULL);
	expect_error("--cluster takes no -c (it only reads the state files given)",
		     "--cluster", "-c", "x.conf", "a", "b", NULL);
	expect_error("--cluster takes no --only (it only reads the state files given)",
		     "--cluster", "a", "b", "--only", "links", NULL);
	expect_error("--cluster and --check cannot be used together",
		     "--cluster", "--check", "a", "b", NULL);
	expect_error("--cluster and --revert cannot be used together",
		     "--revert", "--cluster", "a", "b", NULL);
	expect_error("--cluster: an empty state file name", "--cluster", "a", "", NULL);
	expect_error("unknown option '--clus' (did you mean --cluster?)", "--clus", "a", "b", NULL);
	/* After the files, a typo or an abbreviation gets the words it gets
	 * before them. */
	expect_error("unknown option '--jsno' (did you mean --json?)", "--jsno", "--cluster", "a", "b",
		     NULL);
	expect_error("unknown option '--jsno' (did you mean --json?)", "--cluster", "a.json", "b.json",
		     "--jsno", NULL);
	expect_error("unknown option '--jso' (did you mean --json?)", "--cluster", "a", "b", "--jso",
		     NULL);
	expect_error("unknown option '--bogus'", "--cluster", "a", "b", "--bogus", NULL);
	expect_error("option '--json' takes no argument", "--cluster", "a", "b", "--json=yes", NULL);
	expect_error("--cluster takes no --root (it only reads the state files given)",
		     "--cluster", "a", "b", "--root=/x", NULL);
	/* Without --cluster a file is still no verb. */
	expect_error("unexpected argument 'a.json'", "a.json", NULL);

	/* --dot before or after the files; only with --cluster, not with
	 * --json. */
	assert_int_equal(parse(&cli, &error, "--dot", "--cluster", "a", "b", NULL), 0);
	assert_true(cli.dot);
	assert_false(cli.json);
	assert_int_equal(cli.n_cluster_files, 2);
	assert_int_equal(parse(&cli, &error, "--cluster", "a", "b", "--dot", NULL), 0);
	assert_true(cli.dot);
	assert_int_equal(cli.n_cluster_files, 2);
	expect_error("--json and --dot cannot be used together", "--cluster", "--dot", "a", "b",
		     "--json", NULL);
	expect_error("--dot draws the cable map of --cluster: give --cluster and the nodes' files",
		     "--dot", NULL);
	expect_error("--dot draws the cable map of --cluster: give --cluster and the nodes' files",
		     "--check", "--dot", NULL);
	expect_error("option '--dot' takes no argument", "--cluster", "--dot=svg", "a", "b", NULL);
}

/* A short option after the --cluster files: -q and -v (bundled too) are
 * taken as before them; a mistyped one is named with the option meant, or
 * the options --cluster takes. */
static void test_cluster_short_options(void **state)
{
	char *argv[] = { (char *)"halo-provision", (char *)"--cluster", (char *)"a",
			 (char *)"b", (char *)"--", (char *)"-Q", NULL };
	struct halo_cli cli;
	char *error = NULL;

	(void)state;
	assert_int_equal(parse(&cli, &error, "--cluster", "a", "b", "-vv", NULL), 0);
	assert_int_equal(cli.verbosity, 1);
	assert_int_equal(cli.n_cluster_files, 2);
	assert_int_equal(parse(&cli, &error, "--cluster", "a", "-qq", "b", NULL), 0);
	assert_int_equal(cli.verbosity, -1);
	assert_int_equal(cli.n_cluster_files, 2);
	expect_error("-q and -v cannot be used together", "-qv", "--cluster", "a", "b", NULL);
	expect_error("-q and -v cannot be used together", "--cluster", "a", "b", "-qv", NULL);
	/* After "--", a file (argv here: the files point into it). */
	assert_int_equal(halo_cli_parse(6, argv, &cli, &error), 0);
	assert_int_equal(cli.n_cluster_files, 3);
	assert_string_equal(cli.cluster_files[2], "-Q");

	/* The option --cluster takes whose name the letter starts. */
	expect_error("unknown option '-Q' (did you mean -q?)", "--cluster", "a", "b", "-Q", NULL);
	expect_error("unknown option '-V' (did you mean -v?)", "--cluster", "a", "b", "-V", NULL);
	expect_error("unknown option '-j' (did you mean --json?)", "--cluster", "a", "b", "-j", NULL);
	expect_error("unknown option '-D' (did you mean --dot?)", "--cluster", "a", "b", "-D", NULL);
	/* A long option written with one dash. */
	expect_error("unknown option '-json' (did you mean --json?)", "--cluster", "a", "b", "-json",
		     NULL);
	expect_error("unknown option '-dto' (did you mean --dot?)", "--cluster", "a", "b", "-dto",
		     NULL);
	expect_error("unknown option '-qiuet' (did you mean --quiet?)", "--cluster", "a", "b",
		     "-qiuet", NULL);
	/* Nothing near: what --cluster takes; in a bundle, the letter getopt
	 * would name. */
	expect_error("unknown option '-x' (--cluster takes only --json, --dot, -q and -v)",
		     "--cluster", "a", "b", "-x", NULL);
	expect_error("unknown option '-x' (--cluster takes only --json, --dot, -q and -v)",
		     "--cluster", "a", "b", "-qx", NULL);
	expect_error("unknown option '-r' (--cluster takes only --json, --dot, -q and -v)",
		     "--cluster", "a", "b", "-root", NULL);
	/* Known, but not for --cluster: refused as before the files. */
	expect_error("--cluster takes no -c (it only reads the state files given)",
		     "--cluster", "a", "b", "-c", "x.conf", NULL);
	expect_error("--cluster takes no -c (it only reads the state files given)",
		     "--cluster", "a", "b", "-qcx.conf", NULL);
	/* Help is help wherever it is written, as before the files. */
	assert_int_equal(parse(&cli, &error, "--cluster", "a", "b", "-h", NULL), 0);
	assert_true(cli.help);
	assert_int_equal(parse(&cli, &error, "--cluster", "a", "b", "--help", NULL), 0);
	assert_true(cli.help);
	assert_int_equal(parse(&cli, &error, "--cluster", "a", "b", "-qh", NULL), 0);
	assert_true(cli.help);
	assert_int_equal(cli.verbosity, -1);
}

/* --interface and --wait (the hotplug unit and the lock queue). */
static void test_interface_wait(void **state)
{
	struct halo_cli cli;
	char *error;

	(void)state;
	assert_int_equal(parse(&cli, &error, NULL), 0);
	assert_null(cli.interface);
	assert_int_equal(cli.wait_seconds, HALO_WAIT_DEFAULT_SECONDS);
	assert_int_equal(parse(&cli, &error, "--interface", "rdma0", "--wait", "0", NULL), 0);
	assert_string_equal(cli.interface, "rdma0");
	assert_int_equal(cli.wait_seconds, 0);
	assert_int_equal(parse(&cli, &error, "--interface=enp194s0f0np0", "--wait=86400", NULL), 0);
	assert_string_equal(cli.interface, "enp194s0f0np0");
	assert_int_equal(cli.wait_seconds, 86400);

	expect_error("invalid interface name 'a/b'", "--interface", "a/b", NULL);
	expect_error("invalid interface name ''", "--interface", "", NULL);
	expect_error("invalid interface name 'sixteen-chars-xx'", "--interface", "sixteen-chars-xx", NULL);
	expect_error("invalid interface name 'a b'", "--interface", "a b", NULL);
	expect_error("invalid interface name 'eth0:1'", "--interface", "eth0:1", NULL);
	expect_error("--wait needs whole seconds from 0 to 86400, not '-1'", "--wait", "-1", NULL);
	expect_error("--wait needs whole seconds from 0 to 86400, not '1.5'", "--wait", "1.5", NULL);
	expect_error("--wait needs whole seconds from 0 to 86400, not ''", "--wait", "", NULL);
	expect_error("--wait needs whole seconds from 0 to 86400, not '86401'", "--wait", "86401", NULL);
	expect_error("--wait needs whole seconds from 0 to 86400, not '99999999999999999999'",
		     "--wait", "99999999999999999999", NULL);
	expect_error("option '--wait' needs an argument", "--wait", NULL);
}

static void test_wants_json(void **state)
{
	char *a[] = { (char *)"p", (char *)"--bogus", (char *)"--json", NULL };
	char *b[] = { (char *)"p", (char *)"--", (char *)"--json", NULL };

	assert_true(halo_cli_wants_json(3, a));
	assert_false(halo_cli_wants_json(3, b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_all_options),
		cmocka_unit_test(test_config_glued),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_revert),
		cmocka_unit_test(test_cluster),
		cmocka_unit_test(test_cluster_short_options),
		cmocka_unit_test(test_interface_wait),
		cmocka_unit_test(test_wants_json),
	};

	return cmocka_run_group_tests_name("engine-cli", tests, NULL, NULL);
}
