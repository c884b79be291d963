/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * modules.c: the modules section → items, after validating it against the
 * kernel's module index (all errors at once, before anything changes):
 * unknown modules, options the module does not declare, and blacklist
 * conflicts (systemd-modules-load refuses a blacklisted module at boot, so
 * listing one in load would only work until the next reboot).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "modules/internal.h"
#include "modules/modules.h"
#include "util/rootfs.h"
#include "util/strv.h"

struct lookup {
	char *name;                /* normalized */
	struct halo_modinfo *info; /* NULL: unknown, or refused (why) */
	char *why;                 /* a file of it that was refused or unreadable */
	int err;
};

struct planner {
	struct halo_ctx *ctx;
	const struct halo_config *cfg;
	const struct halo_modules_config *mc;
	struct halo_errors *errs;
	struct halo_kmod *k;          /* libkmod, opened only when needed */
	struct halo_modnative *native; /* NULL: every lookup goes to libkmod */
	int kmod_err;                  /* why libkmod could not be opened */
	struct lookup *cache;
	size_t n_cache;
	char **stale_blacklist; /* blacklist lines of our own drop-in on disk */
	bool running;
	struct timespec started; /* before any module file is read */
};

static void planner_free(struct planner *p)
{
	for (size_t i = 0; i < p->n_cache; i++) {
		free(p->cache[i].name);
		free(p->cache[i].why);
		halo_modinfo_free(p->cache[i].info);
	}
	free(p->cache);
	halo_strv_free(p->stale_blacklist);
	halo_modnative_free(p->native);
}

/* The reason libkmod (or its view of the root) cannot be used, once. */
static void kmod_error(struct planner *p, int r, const char *why)
{
	const struct halo_ctx *ctx = p->ctx;
	const char *path = p->cfg->path;
	int line = p->mc->line;
	_cleanup_free_ char *dir = halo_strdup_printf(
		"/lib/modules/%s", ctx->kernel_release ? ctx->kernel_release : "?");
	_cleanup_free_ char *shown = dir ? halo_root_display_path(ctx, dir) : NULL;

	if (why && (r == -ELIBACC || r == -ELIBBAD))
		halo_errors_add(p->errs, "%s:%d: modules: %s", path, line, why);
	else if (why)
		halo_errors_add(p->errs, "%s:%d: modules: refused %s", path, line, why);
	else if (r == -ENOENT)
		halo_errors_add(p->errs,
			"%s:%d: modules: no module index for kernel %s in %s (kernel not installed, "
			"or depmod not run%s)", path, line, ctx->kernel_release,
			shown ? shown : "/lib/modules",
			/* A tree's kernel is rarely the one this machine runs. */
			ctx->under_root && ctx->kernel_release_guessed ?
				"; that is this machine's uname -r: give the tree's with "
				"--kernel-release" : "");
	else
		halo_errors_add(p->errs, "%s:%d: modules: cannot read the module index in %s: %s",
				path, line, shown ? shown : "/lib/modules", strerror(-r));
}

/* libkmod for this run: -ECANCELED once it failed (the error is recorded,
 * and the section is not planned further). */
static int planner_kmod(struct planner *p)
{
	_cleanup_free_ char *why = NULL;
	int r;

	if (p->k)
		return 0;
	if (p->kmod_err)
		return -ECANCELED;
	r = halo_kmod_get(p->ctx, &p->k, &why);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		p->kmod_err = r;
		kmod_error(p, r, why);
		return -ECANCELED;
	}
	return 0;
}

static const struct halo_module_option *options_for(const struct halo_modules_config *mc,
						    const char *norm)
{
	for (size_t i = 0; i < mc->n_options; i++)
		if (strcmp(mc->options[i].module, norm) == 0)
			return &mc->options[i];
	return NULL;
}

/* How the module NORM's file is read, when compressed: decoded in a run
 * that may load it (an apply, a dry run), so that a damaged file stops
 * the plan instead of the load. A check needs the file complete, and the
 * parameters of a module with options, which apply's record has while
 * the file is the one apply read (parmrec.c); a damaged byte inside shows
 * when modprobe loads it. */
static enum halo_modread read_how(const struct planner *p, const char *norm)
{
	if (p->ctx->mode != HALO_MODE_CHECK)
		return HALO_MODREAD_DECODE;
	return options_for(p->mc, norm) ? HALO_MODREAD_PARMS : HALO_MODREAD_COMPLETE;
}

/* One lookup per module name, however often the config names it. NAME
 * comes from the config, normalised there ('-' read as '_'). */
static int lookup(struct planner *p, const char *name, const struct lookup **ret)
{
	_cleanup_free_ char *norm = strdup(name);
	struct lookup *l;

	if (!norm)
		return -ENOMEM;
	for (size_t i = 0; i < p->n_cache; i++)
		if (strcmp(p->cache[i].name, norm) == 0) {
			*ret = &p->cache[i];
			return 0;
		}
	l = realloc(p->cache, (p->n_cache + 1) * sizeof(*l));
	if (!l)
		return -ENOMEM;
	p->cache = l;
	l = &p->cache[p->n_cache];
	*l = (struct lookup){ .name = TAKE_PTR(norm) };
	p->n_cache++;
	l->err = p->native ? halo_modnative_lookup(p->native, l->name, read_how(p, l->name),
						   &l->info) :
			     -EAGAIN;
	if (l->err == -EAGAIN) {
		l->err = planner_kmod(p);
		if (l->err < 0)
			return l->err;
		l->err = halo_kmod_lookup(p->k, l->name, &l->info, &l->why);
	}
	if (l->err < 0 && l->err != -ENOENT && !l->why)
		return l->err;
	*ret = l;
	return 0;
}

/* The config's module names are normalised at load: plain compares. */
static bool name_in(const struct halo_strlist *list, const char *norm)
{
	for (size_t i = 0; i < list->n; i++)
		if (strcmp(list->v[i], norm) == 0)
			return true;
	return false;
}

/* "blacklist X" lines of the drop-in a previous run wrote: libkmod sees
 * them too, but apply rewrites that file, so they are not the host's. */
static int read_stale_blacklist(struct planner *p)
{
	_cleanup_free_ char *text = NULL;
	char *line, *save = NULL;
	size_t len;
	int r;

	r = halo_read_file(p->ctx, HALO_MODPROBE_CONF, &text, &len);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[128];

		if (sscanf(line, "blacklist %127s", name) == 1) {
			halo_name_normalize(name);
			r = halo_strv_push(&p->stale_blacklist, name);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/* Blacklisted by some modprobe.d file other than our own stale drop-in. */
static bool host_blacklisted(const struct planner *p, const struct halo_modinfo *mi,
			     const char *name)
{
	return halo_strv_contains(mi->blacklisted, name) &&
	       !(halo_strv_contains(p->stale_blacklist, name) &&
		 !name_in(&p->mc->blacklist, name));
}

/* Why the module of L cannot be used: its file refused or unreadable, or
 * unknown to the index (with what depmod left out, when that explains it). */
static void add_unknown(struct planner *p, const struct lookup *l, const char *what,
			const char *listed, int line)
{
	_cleanup_free_ char *hint = NULL;

	if (l->why) {
		halo_errors_add(p->errs, "%s:%d: %s: %s", p->cfg->path, line, what, l->why);
		return;
	}
	if (halo_kmod_unindexed_hint(p->k, l->name, &hint) == 0)
		halo_errors_add(p->errs, "%s:%d: %s: unknown module '%s': %s",
				p->cfg->path, line, what, listed, hint);
	else
		halo_errors_add(p->errs,
			"%s:%d: %s: unknown module '%s' (not in the module index of kernel %s, nor built in)",
			p->cfg->path, line, what, listed, p->ctx->kernel_release);
}

static int check_load(struct planner *p, struct halo_plan *plan, size_t i)
{
	const char *file = p->cfg->path;
	int line = p->mc->load.line ? p->mc->load.line[i] : p->mc->line;
	const struct halo_modinfo *mi;
	const struct lookup *l;
	int r;

	r = lookup(p, p->mc->load.v[i], &l);
	if (r < 0)
		return r;
	if (!l->info) {
		_cleanup_free_ char *target = NULL;

		if (!l->why && halo_kmod_alias_target(p->k, p->mc->load.v[i], &target) == 0)
			halo_errors_add(p->errs,
				"%s:%d: modules.load: '%s' is an alias of module '%s'; list the module's name",
				file, line, p->mc->load.v[i], target);
		else
			add_unknown(p, l, "modules.load", p->mc->load.v[i], line);
		return 0;
	}
	mi = l->info;
	if (name_in(&p->mc->blacklist, mi->name))
		halo_errors_add(p->errs, "%s:%d: modules.load: '%s' is also in modules.blacklist",
				file, line, mi->name);
	else if (host_blacklisted(p, mi, mi->name))
		halo_errors_add(p->errs,
			"%s:%d: modules.load: '%s' is blacklisted in the root's modprobe.d or by modprobe.blacklist= on its kernel command line (systemd-modules-load would refuse it at boot)",
			file, line, mi->name);
	for (char **d = mi->deps; d && *d; d++) {
		if (name_in(&p->mc->blacklist, *d))
			halo_errors_add(p->errs,
				"%s:%d: modules.load: '%s' needs '%s', which modules.blacklist lists",
				file, line, mi->name, *d);
		else if (host_blacklisted(p, mi, *d))
			(void)halo_plan_warn(plan,
				"module/%s: needs '%s', blacklisted in modprobe.d; a blacklist does not stop dependencies, so it will be loaded",
				mi->name, *d);
	}
	if (mi->install_cmd)
		(void)halo_plan_warn(plan, "module/%s: %s (halo-provision runs no shell: loading it will fail)",
				     mi->name, mi->install_cmd);
	return 0;
}

static int check_options(struct planner *p, size_t i)
{
	const struct halo_module_option *o = &p->mc->options[i];
	const char *file = p->cfg->path;
	const struct halo_module_param *opts = o->params;
	const struct lookup *l;
	size_t n = o->n_params;
	int r;

	r = lookup(p, o->module, &l);
	if (r < 0)
		return r;
	if (!l->info) {
		add_unknown(p, l, "modules.options", o->module, o->line);
		return 0;
	}
	/* The loader refuses a string without a word; a config made by
	 * hand may still have one. */
	if (n == 0)
		halo_errors_add(p->errs, "%s:%d: modules.options: %s: empty option string",
				file, o->line, l->name);
	for (size_t j = 0; j < n && r == 0; j++) {
		const char *type = halo_modinfo_parm_type(l->info, opts[j].name);
		const char *expected;

		if (!type) {
			halo_errors_add(p->errs,
				"%s:%d: %s: unknown option '%s' (the kernel would only log 'unknown parameter' and ignore it)",
				file, o->line, l->name, opts[j].name);
			continue;
		}
		/* The kernel refuses the whole load (EINVAL) for one bad value. */
		r = halo_modopt_check(type, opts[j].value, &expected);
		if (r == -EINVAL) {
			r = 0;
			if (opts[j].value)
				halo_errors_add(p->errs,
					"%s:%d: %s: option %s: invalid value '%s' for type %s (%s)",
					file, o->line, l->name, opts[j].name, opts[j].value,
					type, expected);
			else
				halo_errors_add(p->errs,
					"%s:%d: %s: option %s: no value given; type %s needs one (%s)",
					file, o->line, l->name, opts[j].name, type, expected);
		}
	}
	return r;
}

/* Is NORM loaded by a module of modules.load (itself or as a dependency)? */
static bool loaded_by_config(struct planner *p, const char *norm)
{
	for (size_t i = 0; i < p->n_cache; i++) {
		const struct halo_modinfo *mi = p->cache[i].info;

		if (!mi || !name_in(&p->mc->load, mi->name))
			continue;
		if (strcmp(mi->name, norm) == 0 || halo_strv_contains(mi->deps, norm))
			return true;
	}
	return false;
}

static int add_load(struct planner *p, struct halo_plan *plan, size_t i)
{
	_cleanup_strv_free_ char **pre = NULL, **pre_opts = NULL;
	const struct halo_module_option *o;
	const struct lookup *l;
	int r;

	r = lookup(p, p->mc->load.v[i], &l);
	if (r < 0)
		return r;
	for (char **d = l->info->deps; d && *d; d++) {
		o = options_for(p->mc, *d);
		if (!o)
			continue;
		if (halo_strv_push(&pre, *d) < 0 || halo_strv_push(&pre_opts, o->text) < 0)
			return -ENOMEM;
	}
	o = options_for(p->mc, l->name);
	struct halo_module_want w = {
		.name = l->name,
		.options = o,
		.load = true,
		.builtin = l->info->builtin,
		.persist = p->mc->persist,
		.kernel_running = p->running,
		.pre = pre,
		.pre_options = pre_opts,
		.info = l->info,
		/* Blacklisted only by our stale drop-in, which apply rewrites
		 * but libkmod has already read. */
		.ignore_blacklist = halo_strv_contains(l->info->blacklisted, l->name),
	};
	r = halo_modules_add_load_item(plan, &w);
	return r == -EEXIST ? 0 : r; /* listed twice ("ice", "ice"): one item */
}

static int add_options(struct planner *p, struct halo_plan *plan, size_t i)
{
	const struct halo_module_option *o = &p->mc->options[i];
	const struct lookup *l;
	int r;

	r = lookup(p, o->module, &l);
	if (r < 0)
		return r;
	struct halo_module_want w = {
		.name = l->name,
		.options = o,
		.load = loaded_by_config(p, l->name),
		.builtin = l->info->builtin,
		.persist = p->mc->persist,
		.kernel_running = p->running,
		.info = l->info,
	};
	if (!w.load && !w.persist)
		(void)halo_plan_warn(plan,
			"module/%s/options: %s is not in modules.load and persist = false: these options are never passed",
			l->name, l->name);
	r = halo_modules_add_options_item(plan, &w);
	return r == -EEXIST ? 0 : r;
}

static int add_files(struct planner *p, struct halo_plan *plan)
{
	_cleanup_free_ char *load = NULL, *modprobe = NULL;
	int r;

	r = halo_modules_render(p->mc, &load, &modprobe);
	if (r < 0)
		return r;
	r = halo_plan_add_file(plan, HALO_SUB_MODULES, HALO_PHASE_MODULES,
			       HALO_MODULES_LOAD_CONF, load, 0644, NULL);
	if (r < 0)
		return r;
	return halo_plan_add_file(plan, HALO_SUB_MODULES, HALO_PHASE_MODULES,
				  HALO_MODPROBE_CONF, modprobe, 0644, NULL);
}

static void warn_blacklist(struct planner *p, struct halo_plan *plan)
{
	if (p->mc->blacklist.n > 0 && !p->mc->persist)
		(void)halo_plan_warn(plan,
			"modules.blacklist has no effect with persist = false (it lives in %s)",
			HALO_MODPROBE_CONF);
	if (!p->running)
		return;
	for (size_t i = 0; i < p->mc->blacklist.n; i++) {
		const char *n = p->mc->blacklist.v[i];
		enum halo_modstate s;

		if (halo_sysmodule_state(p->ctx, n, &s) == 0 &&
		    s == HALO_MODSTATE_LIVE)
			(void)halo_plan_warn(plan,
				"%s is blacklisted but loaded; it stays loaded until it is unloaded or the host reboots",
				n);
	}
}

/* The record apply keeps was there but not trusted (native.c read it
 * when a compressed module with options was met): said once. */
static void warn_record(struct planner *p, struct halo_plan *plan)
{
	_cleanup_free_ char *shown = NULL;

	if (!p->native || halo_modnative_record_err(p->native) != -EPERM)
		return;
	shown = halo_root_display_path(p->ctx, HALO_MODULES_RECORD_PATH);
	(void)halo_plan_warn(plan,
		"%s: not used: writable by group or others, or not owned by the user running; compressed modules are decompressed instead",
		shown ? shown : HALO_MODULES_RECORD_PATH);
}

static void forget_record(struct halo_ctx *ctx)
{
	if (!ctx->modparms)
		return;
	halo_parmrec_clear(ctx->modparms);
	free(ctx->modparms);
	ctx->modparms = NULL;
}

/* What an apply read of compressed modules with options, for the record
 * it writes after its phases (halo_modules_keep_record). */
static int keep_record(struct planner *p)
{
	struct halo_parmrec *rec;
	int r = 0;

	if (p->ctx->mode != HALO_MODE_APPLY)
		return 0;
	rec = calloc(1, sizeof(*rec));
	if (!rec)
		return -ENOMEM;
	for (size_t i = 0; r == 0 && i < p->n_cache; i++) {
		const struct halo_modinfo *mi = p->cache[i].info;
		_cleanup_free_ char *key = NULL;

		if (!mi || !mi->packed || !mi->relpath || !options_for(p->mc, mi->name) ||
		    !halo_modfile_id_settled(&mi->file_id, &p->started))
			continue;
		key = halo_parmrec_key(p->ctx->kernel_release, mi->relpath);
		r = key ? halo_parmrec_add(rec, key, &mi->file_id, mi->parms) : -ENOMEM;
	}
	if (r < 0) {
		halo_parmrec_clear(rec);
		free(rec);
		return r;
	}
	forget_record(p->ctx);
	p->ctx->modparms = rec;
	return 0;
}

static int plan_modules(struct planner *p, struct halo_plan *plan)
{
	size_t errs_before = p->errs->n;
	int r;

	r = read_stale_blacklist(p);
	if (r < 0)
		return r;
	for (size_t i = 0; i < p->mc->load.n; i++) {
		r = check_load(p, plan, i);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < p->mc->n_options; i++) {
		r = check_options(p, i);
		if (r < 0)
			return r;
	}
	warn_record(p, plan);
	if (p->errs->n > errs_before)
		return 0; /* nothing is planned from an invalid section */
	r = keep_record(p);
	if (r < 0)
		return r;
	for (size_t i = 0; i < p->mc->load.n; i++) {
		r = add_load(p, plan, i);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < p->mc->n_options; i++) {
		r = add_options(p, plan, i);
		if (r < 0)
			return r;
	}
	warn_blacklist(p, plan);
	return add_files(p, plan);
}

int halo_modules_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		      struct halo_plan *plan, struct halo_errors *errs)
{
	const struct halo_modules_config *mc = &cfg->modules;
	struct planner p = {
		.ctx = ctx, .cfg = cfg, .mc = mc, .errs = errs,
	};
	int r;

	if (!mc->present)
		return 0; /* leave the host's modules alone */
	/* A module is recorded only if its ctime was over a second old when
	 * it was read, so the clock is read before the first file is. */
	if (ctx->mode == HALO_MODE_APPLY && clock_gettime(CLOCK_REALTIME, &p.started) < 0)
		return -errno;

	if (mc->load.n > 0 || mc->n_options > 0) {
		r = halo_modnative_new(ctx, &p.native);
		if (r == -ENOMEM)
			return r;
		/* Loading needs libkmod: an apply (and the dry-run that
		 * previews it) opens it now, so a libkmod or view that fails
		 * stops the run before anything changes. A check never does
		 * while the native reader can answer. */
		if (!p.native || (mc->load.n > 0 && (ctx->mode == HALO_MODE_APPLY ||
						    ctx->mode == HALO_MODE_DRY_RUN))) {
			r = planner_kmod(&p);
			if (r < 0) {
				planner_free(&p);
				return r == -ECANCELED ? 0 : r;
			}
		}
	}
	p.running = halo_sysmodule_kernel_running(ctx);
	if (mc->load.n > 0 || mc->n_options > 0) {
		r = plan_modules(&p, plan);
		if (r == -ECANCELED)
			r = 0; /* libkmod failed midway: its error is recorded */
	} else {
		/* Only a blacklist (or nothing): no index needed, and no
		 * module with options to keep in the record. */
		warn_blacklist(&p, plan);
		r = keep_record(&p);
		if (r == 0)
			r = add_files(&p, plan);
	}
	planner_free(&p);
	return r;
}

bool halo_modules_record_pending(const struct halo_ctx *ctx)
{
	_cleanup_free_ char *want = NULL;
	enum halo_parmrec_standing standing;

	if (!ctx->modparms || ctx->revert)
		return false;
	/* As a file item: one already right may sit on a read-only /var. */
	return halo_parmrec_render(ctx->modparms, &want) < 0 ||
	       halo_parmrec_standing(ctx, want, &standing) < 0 ||
	       standing != HALO_PARMREC_RIGHT;
}

int halo_modules_keep_record(struct halo_ctx *ctx)
{
	_cleanup_free_ char *text = NULL;
	enum halo_parmrec_standing standing;
	int r;

	if (!ctx->modparms)
		return 0; /* the section was not planned: the record stays */
	if (ctx->revert)
		return 0; /* the revert's own item removes it (engine/revert.c) */
	r = halo_parmrec_render(ctx->modparms, &text);
	if (r < 0)
		return r;
	r = halo_parmrec_standing(ctx, text, &standing);
	if (r < 0 || standing == HALO_PARMREC_RIGHT)
		return r;
	if (!text || standing == HALO_PARMREC_FOREIGN) {
		r = halo_root_unlink(ctx, HALO_MODULES_RECORD_PATH);
		if (r < 0 || !text)
			return r;
	}
	return halo_write_file_atomic(ctx, HALO_MODULES_RECORD_PATH, text, strlen(text),
				      HALO_PARMREC_MODE);
}

void halo_modules_release(struct halo_ctx *ctx)
{
	halo_kmod_free(ctx->kmod);
	ctx->kmod = NULL;
	halo_modindex_release(ctx);
	forget_record(ctx);
}
