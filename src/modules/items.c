/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * items.c: module/<name> (loaded) and module/<name>/options (the live
 * parameter values match). Observation reads /sys/module under the root;
 * loading goes through libkmod's probe (kmod.c). A changed option on a
 * loaded module is never applied by reloading the driver behind the
 * operator's back: it is pending until the module is reloaded.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "modules/internal.h"
#include "util/strv.h"

struct load_data {
	char *name;
	char *options;
	bool builtin, persist, kernel_running, ignore_blacklist;
	char **pre, **pre_options; /* pre_options: "" for none */
	char **order;              /* dependencies then the module: load order */
};

struct options_data {
	char *name;
	struct halo_module_param *opts;
	size_t n;
	char **types; /* per option; "" when unknown */
	bool load, builtin, persist, kernel_running;
};

static void load_data_free(void *p)
{
	struct load_data *d = p;

	if (!d)
		return;
	free(d->name);
	free(d->options);
	halo_strv_free(d->pre);
	halo_strv_free(d->pre_options);
	halo_strv_free(d->order);
	free(d);
}

static void options_data_free(void *p)
{
	struct options_data *d = p;

	if (!d)
		return;
	free(d->name);
	halo_module_params_free(d->opts, d->n);
	halo_strv_free(d->types);
	free(d);
}

static bool is_in_kernel(enum halo_modstate s)
{
	return s == HALO_MODSTATE_LIVE || s == HALO_MODSTATE_BUILTIN;
}

/* Not loaded, and no running kernel here to load it into (an image build,
 * or --kernel-release for a kernel that is not booted). */
static int not_running(struct halo_ctx *ctx, struct halo_item *item, bool persist)
{
	if (persist) {
		item->activates_on_reboot = true;
		(void)halo_item_set_message(item,
			"kernel %s is not running here; %s loads it at boot",
			ctx->kernel_release, HALO_MODULES_LOAD_CONF);
		return HALO_SYNC_PENDING;
	}
	(void)halo_item_set_message(item,
		"kernel %s is not running here and persist = false: nothing would load it",
		ctx->kernel_release);
	return HALO_SYNC_UNSUPPORTED;
}

static int load_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	struct load_data *d = item->data;
	enum halo_modstate s;
	int r;

	if (d->builtin) {
		r = halo_item_set_observed(item, "built-in");
		return r < 0 ? r : HALO_SYNC_OK;
	}
	if (!d->kernel_running) {
		r = halo_item_set_observed(item, "not loaded");
		return r < 0 ? r : not_running(ctx, item, d->persist);
	}
	r = halo_sysmodule_state(ctx, d->name, &s);
	if (r < 0)
		return halo_item_fail(item, r, "/sys/module/%s", d->name);
	switch (s) {
	case HALO_MODSTATE_LIVE:
		r = halo_item_set_observed(item, "live");
		break;
	case HALO_MODSTATE_BUILTIN:
		r = halo_item_set_observed(item, "built-in");
		break;
	case HALO_MODSTATE_COMING:
		r = halo_item_set_observed(item, "coming");
		break;
	case HALO_MODSTATE_GOING:
		r = halo_item_set_observed(item, "going");
		break;
	case HALO_MODSTATE_ABSENT:
		r = halo_item_set_observed(item, "not loaded");
		break;
	}
	if (r < 0)
		return r;
	return is_in_kernel(s) ? HALO_SYNC_OK : HALO_SYNC_DIFFERS;
}

/* After a failed probe: the first module of the load order that did not
 * make it is the one whose load failed (libkmod stops there). */
static const char *failed_module(struct halo_ctx *ctx, const struct load_data *d)
{
	for (char **m = d->order; m && *m; m++) {
		enum halo_modstate s;

		if (halo_sysmodule_state(ctx, *m, &s) < 0 || !is_in_kernel(s))
			return *m;
	}
	return d->name;
}

static int probe_one(struct halo_ctx *ctx, struct halo_kmod *k,
		     struct halo_item *item, const struct load_data *d,
		     const char *name, const char *options)
{
	_cleanup_free_ char *refused = NULL;
	enum halo_modstate s;
	const char *failed;
	int r;

	r = halo_kmod_probe(k, name, options,
			    !(d->ignore_blacklist && strcmp(name, d->name) == 0),
			    &refused);
	if (r == -EEXIST && halo_sysmodule_state(ctx, name, &s) == 0 &&
	    is_in_kernel(s))
		return 0; /* loaded by someone else meanwhile: fine */
	if (r >= 0)
		return 0;
	if (refused) {
		(void)halo_item_set_message(item, "%s", refused);
		return r;
	}
	failed = failed_module(ctx, d);
	if (strcmp(failed, d->name) == 0)
		(void)halo_item_set_message(item, "%s: %s", failed, strerror(-r));
	else
		(void)halo_item_set_message(item, "%s: %s (dependency of %s)",
					    failed, strerror(-r), d->name);
	return r;
}

static int load_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	struct load_data *d = item->data;
	struct halo_kmod *k;
	int r;

	_cleanup_free_ char *why = NULL;

	r = halo_kmod_get(ctx, &k, &why);
	if (r < 0)
		return halo_item_fail(item, r, "%s", why ? why : "libkmod");
	/* libkmod gives extra options to the named module only, so the
	 * dependencies the config has options for are loaded first, each with
	 * its own. */
	for (size_t i = 0; d->pre && d->pre[i]; i++) {
		enum halo_modstate s;

		if (halo_sysmodule_state(ctx, d->pre[i], &s) == 0 && is_in_kernel(s))
			continue;
		r = probe_one(ctx, k, item, d, d->pre[i],
			      d->pre_options[i][0] ? d->pre_options[i] : NULL);
		if (r < 0)
			return r;
	}
	return probe_one(ctx, k, item, d, d->name, d->options);
}

static const struct halo_item_ops load_ops = {
	.observe = load_observe,
	.apply = load_apply,
	.free_data = load_data_free,
};

int halo_modules_add_load_item(struct halo_plan *plan,
			       const struct halo_module_want *w)
{
	_cleanup_free_ char *key = halo_strdup_printf("module/%s", w->name);
	struct halo_item *item;
	struct load_data *d;
	int r;

	if (!key)
		return -ENOMEM;
	r = halo_plan_add_new(plan, key, HALO_SUB_MODULES, HALO_PHASE_MODULES,
			      &load_ops, sizeof(*d), &item);
	if (r < 0)
		return r;
	d = item->data;
	d->builtin = w->builtin;
	d->persist = w->persist;
	d->kernel_running = w->kernel_running;
	d->ignore_blacklist = w->ignore_blacklist;
	d->name = strdup(w->name);
	/* libkmod is given the option string as written: it splits it
	 * the way the kernel does. */
	if (!d->name || (w->options && !(d->options = strdup(w->options->text))))
		return -ENOMEM;
	for (size_t i = 0; w->pre && w->pre[i]; i++)
		if (halo_strv_push(&d->pre, w->pre[i]) < 0 ||
		    halo_strv_push(&d->pre_options, w->pre_options[i]) < 0)
			return -ENOMEM;
	for (char **dep = w->info ? w->info->deps : NULL; dep && *dep; dep++)
		if (halo_strv_push(&d->order, *dep) < 0)
			return -ENOMEM;
	if (halo_strv_push(&d->order, w->name) < 0)
		return -ENOMEM;
	return halo_item_set_wanted(item, "loaded");
}

/* --- module/<name>/options ------------------------------------------------ */

static int options_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	struct options_data *d = item->data;
	struct halo_buf seen = { 0 };
	_cleanup_free_ char *observed = NULL;
	enum halo_modstate s = HALO_MODSTATE_ABSENT;
	bool differ = false;
	int r;

	item->activates_on_reboot = false;
	if (d->kernel_running) {
		r = halo_sysmodule_state(ctx, d->name, &s);
		if (r < 0)
			return halo_item_fail(item, r, "/sys/module/%s", d->name);
	}
	if (!is_in_kernel(s) && !(d->builtin && d->kernel_running)) {
		r = halo_item_set_observed(item, "not loaded");
		if (r < 0)
			return r;
		if (!d->kernel_running && d->load)
			return not_running(ctx, item, d->persist);
		if (d->load)
			return HALO_SYNC_DIFFERS; /* module/<name> loads it with them */
		(void)halo_item_set_message(item, d->persist ?
			"%s is not loaded; the options apply when it loads" :
			"%s is not loaded and persist = false: nothing passes these options",
			d->name);
		return HALO_SYNC_OK;
	}

	for (size_t i = 0; i < d->n; i++) {
		_cleanup_free_ char *live = NULL;

		r = halo_sysmodule_param(ctx, d->name, d->opts[i].name, &live);
		if (r < 0 && r != -ENOENT)
			return halo_item_fail(item, r, "/sys/module/%s/parameters/%s",
					      d->name, d->opts[i].name);
		halo_buf_printf(&seen, "%s%s=%s", i ? " " : "", d->opts[i].name,
				live ? live : "?");
		/* A parameter without a sysfs file (permission 0) cannot be
		 * read back; the modinfo check already vouched for the name. */
		if (live && !halo_modopt_matches(d->types[i], d->opts[i].value, live))
			differ = true;
	}
	observed = halo_buf_steal(&seen);
	if (!observed)
		return -ENOMEM;
	r = halo_item_set_observed(item, "%s", observed);
	if (r < 0)
		return r;
	if (!differ)
		return HALO_SYNC_OK;
	item->activates_on_reboot = true;
	if (d->builtin || s == HALO_MODSTATE_BUILTIN)
		(void)halo_item_set_message(item,
			"%s is built in: set %s.<option> on the kernel command line (boot.extra) and reboot",
			d->name, d->name);
	else
		(void)halo_item_set_message(item,
			"reload %s to apply (not done automatically)", d->name);
	return HALO_SYNC_PENDING;
}

static const struct halo_item_ops options_ops = {
	.observe = options_observe,
	.apply = NULL, /* passed by module/<name> when it loads the module */
	.free_data = options_data_free,
};

int halo_modules_add_options_item(struct halo_plan *plan,
				  const struct halo_module_want *w)
{
	_cleanup_free_ char *key = halo_strdup_printf("module/%s/options", w->name);
	_cleanup_free_ char *text = NULL;
	struct halo_item *item;
	struct options_data *d;
	struct halo_buf wanted = { 0 };
	struct halo_module_param *opts = NULL;
	size_t n = w->options ? w->options->n_params : 0;
	int r;

	if (!key)
		return -ENOMEM;
	r = halo_module_params_copy(w->options ? w->options->params : NULL, n, &opts);
	if (r < 0)
		return r;
	r = halo_plan_add_new(plan, key, HALO_SUB_MODULES, HALO_PHASE_MODULES,
			      &options_ops, sizeof(*d), &item);
	if (r < 0) {
		halo_module_params_free(opts, n);
		return r;
	}
	d = item->data;
	d->opts = opts;
	d->n = n;
	d->load = w->load;
	d->builtin = w->builtin;
	d->persist = w->persist;
	d->kernel_running = w->kernel_running;
	d->name = strdup(w->name);
	if (!d->name)
		return -ENOMEM;
	for (size_t i = 0; i < d->n; i++) {
		const char *t = w->info ? halo_modinfo_parm_type(w->info, d->opts[i].name) : NULL;

		if (halo_strv_push(&d->types, t ? t : "") < 0) {
			halo_buf_free(&wanted);
			return -ENOMEM;
		}
		halo_buf_printf(&wanted, "%s%s", i ? " " : "", d->opts[i].name);
		if (d->opts[i].value)
			halo_buf_printf(&wanted, "=%s", d->opts[i].value);
	}
	text = halo_buf_steal(&wanted);
	if (!text)
		return -ENOMEM;
	return halo_item_set_wanted(item, "%s", text);
}
