/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main.c: options → ctx → mode. The only place (with the report layer) that
 * prints. Every path that ends with exit 1 goes through fail(), so the
 * error lines and the --json document always agree.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "ansible/args.h"
#include "cli.h"
#include "cluster/cluster.h"
#include "config/halo-config.h"
#include "engine/report.h"
#include "engine/report_ansible.h"
#include "engine/run.h"
#include "engine/state.h"
#include "host/host.h"
#include "netlink/context.h"
#include "subsystems.h"
#include "util/errors.h"
#include "util/rootfs.h"
#include "util/strv.h"

#define PROG "halo-provision"

struct run {
	struct halo_ctx ctx;
	struct halo_config_source config;
	struct halo_config *cfg;
	struct halo_plan plan;
	struct halo_errors errs;
	char *config_alloc;
	struct utsname uts;
	/* Ansible module mode: the one JSON object goes here (NULL: the
	 * command line's own output), the config may come inline. */
	FILE *ansible_out;
	bool ansible_diff;
	/* A --cluster command line: a usage error answers with its document. */
	bool cluster;
};

/* Prints every collected error and, with --json, the one document; the
 * run ends with CODE before anything changed. */
static int stop_with(struct run *run, int code)
{
	if (run->errs.n == 0)
		halo_errors_add(&run->errs, "out of memory");
	halo_errors_print(stderr, PROG, &run->errs);
	if (run->ansible_out)
		(void)halo_report_ansible_error(run->ansible_out, run->cfg, &run->errs, code,
						run->ansible_diff);
	else if (run->ctx.json && run->cluster)
		(void)halo_cluster_print_json_error(stdout, &run->errs);
	else if (run->ctx.json)
		(void)halo_report_json_result(stdout, &run->ctx, run->config.name,
					      run->cfg, &run->errs, NULL, code);
	return code;
}

/* The finished run's one report: Ansible's object, --json or text. */
static void report(struct run *run, int bits)
{
	if (run->ansible_out)
		(void)halo_report_ansible_print(run->ansible_out, &run->ctx, run->cfg, &run->plan,
						bits, run->ansible_diff);
	else if (run->ctx.json)
		(void)halo_report_json_print(stdout, &run->ctx, run->cfg, &run->plan, bits);
	else
		halo_report_text(stdout, &run->ctx, &run->plan, bits);
}

/* Usage, config or validation error: exit 1, nothing was changed. */
static int fail(struct run *run)
{
	return stop_with(run, HALO_EXIT_USAGE);
}

/* The host, not the config, stopped the run before any change (the lock
 * was not released in time, a read-only output): exit 4, since fixing
 * the config would not help and an Ansible or unit retry may. */
static int fail_operational(struct run *run)
{
	return stop_with(run, HALO_EXIT_FAILED);
}

static int load_config(struct run *run)
{
	int r = halo_config_load_source(&run->ctx, &run->config, &run->cfg, &run->errs);

	if (r < 0 && run->errs.n == 0)
		halo_errors_add(&run->errs, "%s: %s", run->config.name, strerror(-r));
	return r < 0 || run->errs.n > 0 || run->errs.oom ? -EINVAL : 0;
}

static int do_validate(struct run *run)
{
	_cleanup_free_ char *msg = NULL;

	if (load_config(run) < 0)
		return fail(run);
	msg = halo_strdup_printf("%s: valid", run->config.name);
	if (run->ctx.json)
		(void)halo_report_json_result(stdout, &run->ctx, run->config.name,
					      run->cfg, &run->errs, msg, 0);
	else if (run->ctx.verbosity >= 0)
		printf("%s\n", msg ? msg : "valid");
	return 0;
}

/* The state file of the config if it loads, else the default one (the config
 * may be broken since): a summary, or with --json the document itself. */
static int do_status(struct run *run)
{
	struct halo_errors ignored = { 0 };
	bool unloaded = false;

	if (halo_config_load_source(&run->ctx, &run->config, &run->cfg, &ignored) < 0) {
		run->cfg = NULL;
		unloaded = true;
	}
	halo_errors_free(&ignored);
	if (halo_report_status(stdout, &run->ctx, run->cfg, &run->errs) >= 0)
		return 0;
	/* The default path was read: say why, the config may name another. */
	if (unloaded)
		halo_errors_append(&run->errs, "; the config %s did not load (--validate says "
				   "why), so the default state file was read", run->config.name);
	return fail(run);
}

/* Every mode that looks at the host: the one phased run (engine/run.h). */
static int do_run(struct run *run)
{
	int bits;

	if (load_config(run) < 0)
		return fail(run);
	bits = halo_run(&run->ctx, run->cfg, &run->plan, &run->errs);
	if (bits == -EBUSY)
		return fail_operational(run);
	if (bits < 0)
		return fail(run);
	/* What went wrong after a change: the report says failed. */
	halo_errors_print(stderr, PROG, &run->errs);
	report(run, bits);
	return bits;
}

/* Everything after the options: ctx, root, namespace, config, mode. */
static int run_cli(struct run *run, const struct halo_cli *cli)
{
	run->ctx.root = cli->root;
	run->ctx.mode = cli->mode;
	run->ctx.revert = cli->revert;
	run->ctx.only = cli->only;
	run->ctx.interface = cli->interface;
	run->ctx.wait_seconds = cli->wait_seconds;
	run->ctx.verbosity = cli->verbosity;
	run->ctx.json = cli->json;
	run->ctx.diff = cli->diff || run->ansible_diff;
	run->ctx.lock_waiting = run->ansible_out || cli->verbosity < 0 ? NULL : halo_cli_lock_waiting;
	run->ctx.netns = cli->netns;
	run->ctx.kernel_release = cli->kernel_release;
	if (!run->ctx.kernel_release) {
		if (uname(&run->uts) < 0) {
			halo_errors_add(&run->errs, "uname: %s", strerror(errno));
			return fail(run);
		}
		run->ctx.kernel_release = run->uts.release;
		run->ctx.kernel_release_guessed = true;
	}
	if (halo_host_open(&run->ctx, cli->root, &run->errs) < 0)
		return fail(run);
	/* A run that changes nothing reads each path of the root once. */
	if (run->ctx.mode != HALO_MODE_APPLY && halo_root_snapshot_start(&run->ctx) < 0) {
		halo_errors_add(&run->errs, "%s", strerror(ENOMEM));
		return fail(run);
	}
	run->config.name = cli->config;
	run->config.meant = cli->config_meant;
	if (run->config.text || run->config.data) {
		/* Ansible's inline config: named by its parameter. */
		run->config.name = run->config.text ? "config_text" : "config_data";
	} else if (!run->config.name) {
		/* Only shown in messages: it is opened inside the root. */
		run->config_alloc = halo_root_display_path(&run->ctx, HALO_CONFIG_DEFAULT_PATH);
		if (!run->config_alloc)
			return fail(run);
		run->config.name = run->config_alloc;
		run->config.in_root = true;
	}

	switch (run->ctx.mode) {
	case HALO_MODE_VALIDATE:
		return do_validate(run);
	case HALO_MODE_STATUS:
		return do_status(run);
	default:
		return do_run(run);
	}
}

static void run_free(struct run *run)
{
	halo_plan_free(&run->plan);
	if (run->cfg)
		halo_config_free(run->cfg);
	halo_errors_free(&run->errs);
	halo_registry_release(&run->ctx);
	halo_host_release(&run->ctx);
	halo_netlink_release(&run->ctx);
	halo_root_snapshot_stop(&run->ctx);
	if (run->ctx.root_fd >= 0)
		close(run->ctx.root_fd);
	free(run->config_alloc);
}

/*
 * Ansible's binary-module protocol: ARGS_FILE holds the task's parameters
 * (ansible/args.h). They become the command line the same run would have
 * had, and the answer is exactly one JSON object on stdout. Descriptor 1
 * is pointed at /dev/null for the run, so nothing else (a library, a tool
 * a subsystem spawns) can ever add a byte to it. Exit 0 when the object
 * says failed=false, else 1 (Ansible reads the object, not the status).
 */
static int ansible_main(const char *args_path)
{
	struct run run = { .ctx = { .root = "/", .root_fd = -1, .registry = &halo_registry } };
	struct halo_ansible_args args = { 0 };
	_cleanup_strv_free_ char **argv = NULL;
	_cleanup_free_ char *error = NULL;
	struct halo_cli cli;
	FILE *out = halo_ansible_take_stdout();
	int argc = 0, r, rc;

	if (!out) {
		fprintf(stderr, PROG ": module mode: cannot set up stdout: %s\n", strerror(errno));
		return 1;
	}
	halo_plan_init(&run.plan);
	run.ansible_out = out;
	r = halo_ansible_args_load(args_path, &args, &error);
	run.ansible_diff = args.diff;
	if (r >= 0)
		r = halo_ansible_args_argv(&args, &argv, &argc);
	if (r >= 0)
		r = halo_cli_parse(argc, argv, &cli, &error);
	if (r < 0) {
		halo_errors_add(&run.errs, "%s", error ? error : strerror(-r));
		rc = fail(&run);
	} else {
		run.config.text = args.config_text;
		run.config.data = args.config_data;
		run.config.args_path = args_path;
		run.config.args_st = &args.st;
		rc = run_cli(&run, &cli);
	}
	run_free(&run);
	halo_ansible_args_free(&args);
	if (fclose(out) != 0)
		return 1;
	return rc == HALO_EXIT_USAGE || (rc & HALO_EXIT_FAILED) ? 1 : 0;
}

int main(int argc, char *argv[])
{
	struct run run = { .ctx = { .root = "/", .root_fd = -1, .registry = &halo_registry } };
	_cleanup_free_ char *error = NULL;
	struct halo_cli cli;
	int r, rc;

	/* Directories and files are created with the modes asked for, whatever
	 * umask the caller (a unit, an Ansible shell) has. */
	umask(022);
	/* A lone argument that is a JSON object in a regular file is
	 * Ansible's args file; anything else is the command line. */
	if (argc == 2 && halo_ansible_is_args_file(argv[1]))
		return ansible_main(argv[1]);
	halo_plan_init(&run.plan);
	run.ctx.json = halo_cli_wants_json(argc, argv);
	run.cluster = halo_cli_wants_cluster(argc, argv);
	r = halo_cli_parse(argc, argv, &cli, &error);
	if (r < 0) {
		halo_errors_add(&run.errs, "%s", error ? error : "out of memory");
		rc = fail(&run);
		goto out;
	}
	if (cli.help) {
		halo_cli_usage(stdout);
		return 0;
	}
	if (cli.version) {
		printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		return 0;
	}
	/* --cluster reads the files given: no config, root, lock. */
	if (cli.cluster)
		return halo_cluster_main(cli.cluster_files, cli.n_cluster_files,
					 cli.json ? HALO_CLUSTER_JSON :
					 cli.dot ? HALO_CLUSTER_DOT : HALO_CLUSTER_TEXT,
					 cli.verbosity);
	rc = run_cli(&run, &cli);
out:
	fflush(stdout);
	run_free(&run);
	return rc;
}
