/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main.c: options → ctx → mode. The only place (with the report layer) that
 * prints. Every path that ends with exit 1 goes through fail(), so the
 * error lines and the --json document always agree.
 */
#include "config.h"

#include <fcntl.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "ansible/args.h"
#include "boot/boot.h"
#include "cli.h"
#include "cluster/cluster.h"
#include "config/halo-config.h"
#include "engine/engine.h"
#include "engine/report.h"
#include "engine/report_ansible.h"
#include "engine/revert.h"
#include "engine/state.h"
#include "files/files.h"
#include "host/host.h"
#include "modules/modules.h"
#include "links/links.h"
#include "links/nl.h"
#include "rdma/rdma.h"
#include "ready/ready.h"
#include "roce/roce.h"
#include "storage/storage.h"
#include "util/errors.h"
#include "util/lock.h"
#include "util/rootfs.h"
#include "util/strv.h"

#define PROG "halo-provision"

struct run {
	struct halo_ctx ctx;
	const char *config_path;
	bool config_in_root; /* no -c: the default path, opened inside the root */
	struct halo_config *cfg;
	struct halo_plan plan;
	struct halo_records records;
	struct halo_errors errs;
	int lock_fd;
	char *config_alloc;
	struct utsname uts;
	/* Ansible module mode: the one JSON object goes here (NULL: the
	 * command line's own output), the config may come inline. */
	FILE *ansible_out;
	bool ansible_diff;
	const char *config_text;
	const void *config_data;
};

struct builder {
	enum halo_subsys subsys;
	int (*build)(struct halo_ctx *ctx, const struct halo_config *cfg,
		     struct halo_plan *plan, struct halo_errors *errs);
};

/* Planned first: what needs no live interface (apply order is by phase). */
static const struct builder early_builders[] = {
	{ HALO_SUB_MODULES, halo_modules_plan },
	{ HALO_SUB_BOOT, halo_boot_plan },
	{ HALO_SUB_STORAGE, halo_storage_plan },
};

/* Planned on the host table, which is built after the modules phase
 * could bring the devices: in apply mode, planned again once it has
 * applied when an interface was still missing. */
static const struct builder host_builders[] = {
	{ HALO_SUB_LINKS, halo_links_plan },
	{ HALO_SUB_ROCE, halo_roce_plan },
	{ HALO_SUB_RDMA, halo_rdma_plan },
	{ HALO_SUB_FILES, halo_files_plan },
	{ HALO_SUB_READY, halo_ready_plan },
};

/* --revert: the recorded items (last state file) a subsystem can undo
 * from their key alone, besides owned files. */
static const halo_undo_recorded_fn undo_recorded[] = {
	halo_storage_undo_recorded,
	NULL,
};

/* One line whatever the message holds (a path given with -c or --root may
 * contain a newline). */
static void print_line(FILE *out, const char *msg)
{
	fputs(PROG ": ", out);
	for (const char *p = msg; *p; p++)
		fputc((unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p, out);
	fputc('\n', out);
}

/* Prints every collected error and, with --json, the one document; the
 * run ends with CODE before anything changed. */
static int stop_with(struct run *run, int code)
{
	if (run->errs.n == 0)
		halo_errors_add(&run->errs, "out of memory");
	for (size_t i = 0; i < run->errs.n; i++)
		print_line(stderr, run->errs.msgs[i]);
	if (run->errs.oom)
		fprintf(stderr, PROG ": out of memory (some errors were not recorded)\n");
	if (run->ansible_out)
		(void)halo_report_ansible_error(run->ansible_out, run->cfg, &run->errs, code,
						run->ansible_diff);
	else if (run->ctx.json)
		(void)halo_report_json_result(stdout, &run->ctx, run->config_path,
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

/* -c is a path as given; the default config is resolved inside the root
 * like every other file (an image's absolute symlink stays in the image). */
static int config_load(struct run *run, struct halo_errors *errs)
{
	int fd, r;

	if (run->config_text)
		return halo_config_load_string(run->config_path, run->config_text, &run->cfg, errs);
	if (run->config_data)
		return halo_config_load_json(run->config_path, run->config_data, &run->cfg, errs);

	if (!run->config_in_root)
		return halo_config_load(run->config_path, !run->ctx.under_root, &run->cfg, errs);
	r = halo_root_openat(&run->ctx, HALO_CONFIG_DEFAULT_PATH, O_RDONLY | O_NONBLOCK | O_NOCTTY, 0, &fd);
	if (r < 0) {
		halo_errors_add(errs, "%s: cannot open the config file: %s", run->config_path,
				strerror(-r));
		return r;
	}
	return halo_config_load_fd(fd, run->config_path, !run->ctx.under_root, &run->cfg, errs);
}

static int load_config(struct run *run)
{
	int r = config_load(run, &run->errs);

	if (r < 0 && run->errs.n == 0)
		halo_errors_add(&run->errs, "%s: %s", run->config_path, strerror(-r));
	return r < 0 || run->errs.n > 0 || run->errs.oom ? -EINVAL : 0;
}

static int do_validate(struct run *run)
{
	_cleanup_free_ char *msg = NULL;

	if (load_config(run) < 0)
		return fail(run);
	msg = halo_strdup_printf("%s: valid", run->config_path);
	if (run->ctx.json)
		(void)halo_report_json_result(stdout, &run->ctx, run->config_path,
					      run->cfg, &run->errs, msg, 0);
	else if (run->ctx.verbosity >= 0)
		printf("%s\n", msg ? msg : "valid");
	return 0;
}

/* The state file of the config if it loads, else the default one: --status
 * must work even when the config was broken since. */
static int do_status(struct run *run)
{
	struct halo_errors ignored = { 0 };
	_cleanup_free_ char *text = NULL, *shown = NULL;
	const char *path = HALO_STATE_DEFAULT_PATH;
	size_t len;
	int r;

	if (config_load(run, &ignored) == 0 && run->cfg && run->cfg->state.path)
		path = run->cfg->state.path;
	halo_errors_free(&ignored);

	r = halo_read_file(&run->ctx, path, &text, &len);
	if (r < 0) {
		shown = halo_root_display_path(&run->ctx, path);
		if (r == -ENOENT)
			halo_errors_add(&run->errs, "no state file at %s (no apply has run on this host yet)",
					shown ? shown : path);
		else
			halo_errors_add(&run->errs, "cannot read state file %s: %s",
					shown ? shown : path, halo_root_strerror(r));
		return fail(run);
	}
	fwrite(text, 1, len, stdout);
	return 0;
}

/* The facts a planner needs from another subsystem, found once, before
 * any planning: the boot GTT prefix depends on the amdgpu build, which the
 * module index tells. Only looked up when the boot section will read it;
 * a failed lookup is "in-tree" (the modules section reports its errors). */
static void find_facts(struct run *run)
{
	bool dkms = false;

	if (!(run->ctx.only & HALO_SUB_BOOT) || !halo_boot_needs_amdgpu_dkms(run->cfg))
		return;
	if (halo_modules_amdgpu_is_dkms(&run->ctx, &dkms) >= 0)
		run->ctx.amdgpu_dkms = dkms;
}

/* The last state file's ownership records, for the planners. */
static int load_records(struct run *run)
{
	int r = halo_state_records_read(&run->ctx, run->cfg, &run->records);

	if (r < 0)
		halo_errors_add(&run->errs, "reading the state file's records: %s", strerror(-r));
	run->plan.records = &run->records;
	return r;
}

static int build(struct run *run, const struct builder *builders, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t before = run->errs.n;
		int r;

		if (!(run->ctx.only & builders[i].subsys))
			continue;
		r = builders[i].build(&run->ctx, run->cfg, &run->plan, &run->errs);
		if (r < 0 && run->errs.n == before)
			halo_errors_add(&run->errs, "%s: %s",
					halo_subsys_name(builders[i].subsys), strerror(-r));
	}
	return run->errs.n > 0 || run->errs.oom ? -EINVAL : 0;
}

/* The host table, then the planners that use it. */
static int build_on_host(struct run *run, enum halo_host_stage stage)
{
	int r = halo_host_resolve(&run->ctx, run->cfg, stage, &run->errs);

	if (r < 0) {
		if (run->errs.n == 0)
			halo_errors_add(&run->errs, "links: %s", strerror(-r));
		return r;
	}
	return build(run, host_builders, ARRAY_SIZE(host_builders));
}

/* Whether this run writes the Prometheus textfile: apply and check, when
 * configured, and only when the run covers every item. A run limited by
 * --only or --interface (the every-boot and hotplug units) would replace
 * the other items' series with nothing, so alerts on them would resolve
 * silently; it leaves the last full run's file as it is. */
static bool writes_textfile(const struct run *run)
{
	const struct halo_ctx *ctx = &run->ctx;

	return (ctx->mode == HALO_MODE_APPLY || ctx->mode == HALO_MODE_CHECK) && !ctx->revert &&
	       run->cfg->state.prometheus && run->cfg->state.prometheus[0] &&
	       (ctx->only & HALO_SUB_ALL) == HALO_SUB_ALL && !ctx->interface;
}

/* Every mode that observes holds the lock, so a check never reads a
 * half-applied host and two runs never write the same textfile. Apply
 * cannot run without it; a check or dry-run on a root where the lock
 * does not exist or cannot be created (read-only) goes on without one. */
static int take_lock(struct run *run)
{
	_cleanup_free_ char *shown = halo_root_display_path(&run->ctx, HALO_LOCK_PATH);
	const char *lock = shown ? shown : HALO_LOCK_PATH;
	/* Only a run that writes creates the lock file: a plain check or
	 * dry-run leaves a pristine root as it found it. */
	bool writes = run->ctx.mode == HALO_MODE_APPLY || writes_textfile(run);
	int r = halo_lock_acquire(&run->ctx, run->ctx.wait_seconds, writes, &run->lock_fd);

	if (r == -ETIMEDOUT || r == -EWOULDBLOCK) {
		if (run->ctx.wait_seconds)
			halo_errors_add(&run->errs,
					"another halo-provision run held %s for %u s (--wait); nothing was changed",
					lock, run->ctx.wait_seconds);
		else
			halo_errors_add(&run->errs, "another halo-provision run holds %s", lock);
		return -EBUSY;
	}
	if (r < 0 && run->ctx.mode != HALO_MODE_APPLY && r != -ELOOP)
		return 0;
	if (r < 0)
		halo_errors_add(&run->errs, "cannot take the run lock %s: %s", lock,
				strerror(-r));
	return r;
}

/* A write after the run that failed: the run still reports, but failed. */
/* WHAT is the output's role, PATH its path inside the root (shown as the
 * operator finds it). */
static int after_write_failed(struct run *run, const char *what, const char *path, int r)
{
	_cleanup_free_ char *shown = halo_root_display_path(&run->ctx, path);
	const char *p = shown ? shown : path;

	fprintf(stderr, PROG ": writing %s %s: %s\n", what, p, strerror(-r));
	(void)halo_plan_warn(&run->plan, "writing %s %s: %s", what, p, strerror(-r));
	return HALO_EXIT_FAILED;
}

/* State file, reboot flag and Prometheus textfile: the only writes outside
 * items, and only after the engine has decided everything. */
static int write_results(struct run *run, int bits)
{
	struct halo_ctx *ctx = &run->ctx;
	int extra = 0, r;

	if (ctx->mode == HALO_MODE_APPLY) {
		/* A revert removes the state file as an item (engine/revert.c). */
		r = ctx->revert ? 0 : halo_state_write(ctx, run->cfg, &run->plan, bits);
		if (r < 0)
			extra |= after_write_failed(run, "the state file",
						    run->cfg->state.path ? run->cfg->state.path :
									   HALO_STATE_DEFAULT_PATH, r);
		if (bits & HALO_EXIT_REBOOT) {
			r = halo_reboot_required_write(ctx);
			if (r < 0)
				extra |= after_write_failed(run, "the reboot flag",
							    "/run/reboot-required", r);
		}
	}
	if (writes_textfile(run)) {
		r = halo_prometheus_write(ctx, run->cfg, &run->plan, bits);
		if (r < 0)
			extra |= after_write_failed(run, "the Prometheus textfile",
						    run->cfg->state.prometheus, r);
	}
	return extra;
}

/* The run's own outputs must be writable before anything changes, or an
 * apply would stop half-way through its report (DESIGN: all validation
 * before the first mutation). */
static int check_outputs(struct run *run)
{
	const char *paths[4] = { NULL };
	size_t n = 0;

	if (run->ctx.mode == HALO_MODE_APPLY) {
		paths[n++] = run->cfg->state.path ? run->cfg->state.path : HALO_STATE_DEFAULT_PATH;
		paths[n++] = "/run/reboot-required";
		paths[n++] = "/run/reboot-required.pkgs";
	}
	if (writes_textfile(run))
		paths[n++] = run->cfg->state.prometheus;
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *why = NULL;
		int r = halo_file_target_check(&run->ctx, paths[i], &why);

		if (r < 0)
			halo_errors_add(&run->errs, "%s: %s", paths[i], strerror(-r));
		else if (r > 0)
			halo_errors_add(&run->errs, "%s", why ? why : paths[i]);
	}
	if (run->errs.n > 0)
		return -EINVAL;
	/* An apply that could change the host but not record it would leave
	 * a half-told story: every output must be writable first (a
	 * read-only or immutable state directory is the host's fault, exit
	 * 4). A check only writes its textfile, and reports that failure
	 * after the audit. */
	for (size_t i = 0; run->ctx.mode == HALO_MODE_APPLY && i < n; i++) {
		_cleanup_free_ char *shown = halo_root_display_path(&run->ctx, paths[i]);
		int r = halo_root_check_writable(&run->ctx, paths[i]);

		if (r < 0)
			halo_errors_add(&run->errs, "%s cannot be written: %s; nothing was changed",
					shown ? shown : paths[i], strerror(-r));
	}
	return run->errs.n > 0 ? -EROFS : 0;
}

/* After the modules phase applied, an interface that was missing before
 * may be there: the host table and its planners are done again. Their
 * errors can no longer mean "nothing changed": they are reported, the
 * part is left out, and the run fails (exit 4). */
static int replan_on_host(struct run *run, size_t first, size_t first_warning)
{
	struct halo_plan *plan = &run->plan;

	halo_plan_truncate(plan, first, first_warning);
	/* The netlink snapshots are scoped to what matched before. */
	halo_nl_unscope(&run->ctx);
	if (build_on_host(run, HALO_HOST_AFTER_MODULES) < 0) {
		halo_plan_truncate(plan, first, first_warning);
		for (size_t i = 0; i < run->errs.n; i++) {
			print_line(stderr, run->errs.msgs[i]);
			(void)halo_plan_warn(plan, "%s", run->errs.msgs[i]);
		}
		halo_errors_free(&run->errs);
		return HALO_EXIT_FAILED;
	}
	(void)halo_engine_observe(&run->ctx, plan, first, NULL);
	return 0;
}

/*
 * Phase by phase: everything that needs no live interface is planned and
 * observed first; then the host table is built and the rest planned on
 * it. An interface missing while the modules phase still has work is
 * pending on that phase (drift in check and dry-run); apply runs the
 * modules phase, resolves the host again and plans that part anew.
 */
static int do_run(struct run *run)
{
	struct halo_ctx *ctx = &run->ctx;
	enum halo_host_stage stage;
	size_t first, first_warning;
	int bits = 0, r;

	if (load_config(run) < 0)
		return fail(run);
	/* The lock is held from before the first observation to the end, so
	 * nothing changes between observe and apply. Until the plan and the
	 * outputs are validated, the lock is the only file a run may create:
	 * an exit-1 run writes nothing, not even the textfile (monitoring
	 * keeps the last run's series and sees their timestamp age). */
	r = take_lock(run);
	if (r == -EBUSY || (r < 0 && r != -ELOOP))
		return fail_operational(run);
	find_facts(run);
	if (r == 0)
		r = load_records(run);
	if (r < 0 || build(run, early_builders, ARRAY_SIZE(early_builders)) < 0)
		return fail(run);
	halo_engine_filter(ctx, &run->plan);
	if (halo_engine_observe(ctx, &run->plan, 0, &run->errs) < 0)
		return fail(run);
	stage = halo_engine_phase_drifts(&run->plan, HALO_PHASE_MODULES) ?
			HALO_HOST_BEFORE_MODULES : HALO_HOST_FINAL;
	first = run->plan.n;
	first_warning = run->plan.n_warnings;
	if (build_on_host(run, stage) < 0)
		return fail(run);
	r = check_outputs(run);
	if (r == -EROFS)
		return fail_operational(run);
	if (r < 0)
		return fail(run);
	halo_engine_filter(ctx, &run->plan);
	if (halo_engine_observe(ctx, &run->plan, first, &run->errs) < 0)
		return fail(run);

	if (ctx->mode == HALO_MODE_APPLY) {
		halo_engine_apply_phase(ctx, &run->plan, HALO_PHASE_MODULES);
		if (stage == HALO_HOST_BEFORE_MODULES && halo_host_has_missing(ctx->host))
			bits |= replan_on_host(run, first, first_warning);
		for (int p = HALO_PHASE_LINKS; p <= HALO_PHASE_BOOT; p++)
			halo_engine_apply_phase(ctx, &run->plan, (enum halo_phase)p);
	}
	bits |= halo_engine_finish(ctx, &run->plan);
	bits |= write_results(run, bits);
	report(run, bits);
	return bits;
}

/*
 * --revert: the normal plan, made without applying anything (so an
 * interface that is missing now is no error), turned into its undo and
 * run by the engine like an apply or a dry-run (engine/revert.h).
 */
static int do_revert(struct run *run)
{
	struct halo_ctx *ctx = &run->ctx;
	int bits, r;

	if (load_config(run) < 0)
		return fail(run);
	r = take_lock(run);
	if (r == -EBUSY || (r < 0 && r != -ELOOP))
		return fail_operational(run);
	if (r == 0)
		r = load_records(run);
	if (r < 0 || build(run, early_builders, ARRAY_SIZE(early_builders)) < 0 ||
	    build_on_host(run, HALO_HOST_BEFORE_MODULES) < 0)
		return fail(run);
	r = halo_revert_plan(ctx, run->cfg, undo_recorded, &run->plan, &run->errs);
	if (r < 0) {
		if (run->errs.n == 0)
			halo_errors_add(&run->errs, "revert: %s", strerror(-r));
		return fail(run);
	}
	r = check_outputs(run);
	if (r == -EROFS)
		return fail_operational(run);
	if (r < 0)
		return fail(run);
	bits = halo_engine_run(ctx, &run->plan, &run->errs);
	if (bits < 0)
		return fail(run);
	bits |= write_results(run, bits);
	report(run, bits);
	return bits;
}

/* "/" itself (by inode) is not a --root run: host tools may be spawned. */
static bool is_host_root(int fd)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat("/", &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/* --netns is entered once, here, before any socket is opened. On this
 * machine (no --root) the namespace's own sysfs replaces /sys in a
 * private mount namespace, and the root is opened again so paths under
 * it resolve through the new mount. validate and status touch no
 * network: they do not enter it. */
static int enter_netns(struct run *run, const char *root)
{
	struct halo_ctx *ctx = &run->ctx;
	bool private_sysfs = !ctx->under_root;
	const char *what = "";
	int r;

	if (!ctx->netns || ctx->mode == HALO_MODE_VALIDATE || ctx->mode == HALO_MODE_STATUS)
		return 0;
	r = halo_host_enter_netns(ctx->netns, private_sysfs, &what);
	if (r == -ENOENT || r == -EINVAL)
		halo_errors_add(&run->errs, "--netns %s: /run/netns/%s: %s", ctx->netns,
				ctx->netns, strerror(-r));
	else if (r < 0)
		halo_errors_add(&run->errs, "--netns %s: %s: %s", ctx->netns, what,
				strerror(-r));
	if (r < 0 || !private_sysfs)
		return r;
	close(ctx->root_fd);
	ctx->root_fd = -1;
	r = halo_root_open(root, &ctx->root_fd);
	if (r < 0)
		halo_errors_add(&run->errs, "--root %s: %s", root ? root : "/", strerror(-r));
	return r;
}

/* Everything after the options: ctx, root, namespace, config, mode. */
static int run_cli(struct run *run, const struct halo_cli *cli)
{
	int r;

	run->ctx.root = cli->root;
	run->ctx.mode = cli->mode;
	run->ctx.revert = cli->revert;
	run->ctx.only = cli->only;
	run->ctx.interface = cli->interface;
	run->ctx.wait_seconds = cli->wait_seconds;
	run->ctx.verbosity = cli->verbosity;
	run->ctx.json = cli->json;
	run->ctx.diff = cli->diff || run->ansible_diff;
	run->ctx.netns = cli->netns;
	run->ctx.kernel_release = cli->kernel_release;
	if (!run->ctx.kernel_release) {
		if (uname(&run->uts) < 0) {
			halo_errors_add(&run->errs, "uname: %s", strerror(errno));
			return fail(run);
		}
		run->ctx.kernel_release = run->uts.release;
	}
	r = halo_root_open(cli->root, &run->ctx.root_fd);
	if (r < 0) {
		halo_errors_add(&run->errs, "--root %s: %s", cli->root, strerror(-r));
		return fail(run);
	}
	run->ctx.under_root = !is_host_root(run->ctx.root_fd);
	r = enter_netns(run, cli->root);
	if (r < 0)
		return fail(run);
	run->config_path = cli->config;
	if (run->config_text || run->config_data) {
		/* Ansible's inline config: named by its parameter. */
		run->config_path = run->config_text ? "config_text" : "config_data";
	} else if (!run->config_path) {
		/* Only shown in messages: it is opened inside the root. */
		run->config_alloc = halo_root_display_path(&run->ctx, HALO_CONFIG_DEFAULT_PATH);
		if (!run->config_alloc)
			return fail(run);
		run->config_path = run->config_alloc;
		run->config_in_root = true;
	}

	switch (run->ctx.mode) {
	case HALO_MODE_VALIDATE:
		return do_validate(run);
	case HALO_MODE_STATUS:
		return do_status(run);
	default:
		return run->ctx.revert ? do_revert(run) : do_run(run);
	}
}

static void run_free(struct run *run)
{
	halo_plan_free(&run->plan);
	halo_records_free(&run->records);
	if (run->cfg)
		halo_config_free(run->cfg);
	halo_errors_free(&run->errs);
	halo_modules_release(&run->ctx);
	halo_host_release(&run->ctx);
	halo_links_release(&run->ctx);
	if (run->lock_fd >= 0)
		close(run->lock_fd);
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
	struct run run = { .lock_fd = -1, .ctx = { .root = "/", .root_fd = -1 } };
	struct halo_ansible_args args = { 0 };
	_cleanup_strv_free_ char **argv = NULL;
	_cleanup_free_ char *error = NULL;
	struct halo_cli cli;
	FILE *out = NULL;
	int out_fd, null_fd, argc = 0, r, rc;

	fflush(stdout);
	out_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (out_fd < 0 || null_fd < 0 || dup2(null_fd, STDOUT_FILENO) < 0 ||
	    !(out = fdopen(out_fd, "w"))) {
		fprintf(stderr, PROG ": module mode: cannot set up stdout: %s\n", strerror(errno));
		return 1;
	}
	close(null_fd);
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
		run.config_text = args.config_text;
		run.config_data = args.config_data;
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
	struct run run = { .lock_fd = -1, .ctx = { .root = "/", .root_fd = -1 } };
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
	/* --cluster reads the state files given: no config, root, lock. */
	if (cli.cluster)
		return halo_cluster_main(cli.cluster_files, cli.n_cluster_files, cli.json,
					 cli.verbosity);
	rc = run_cli(&run, &cli);
out:
	fflush(stdout);
	run_free(&run);
	return rc;
}
