/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysctl.c: the sysctl section. Keys: the multi_nic rule's on
 * each managed interface, by its live name from the host table, then the
 * settings, in config order. Each key is a sysctl/<name> item (the running
 * value) and a line of the owned drop-in /etc/sysctl.d/90-halo-provision.conf
 * (what systemd-sysctl applies at boot, and to an interface when it
 * appears). Nothing to write: the drop-in must not exist.
 *
 * A key that is not under the root's /proc/sys is a validation error
 * (exit 1, nothing changed) like an unknown interface, unless the modules
 * phase still has work: a module may bring it, so it is drift until the
 * apply, which fails the item if it is still missing.
 *
 * The drop-in names every key, so it is planned only when every key is
 * known: not by a hotplug run (--interface), which sets only that
 * interface's keys, nor while an interface has no link yet.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/sysctl-rule.h"
#include "engine/revert.h"
#include "files/files.h"
#include "files/sysctl-key.h"
#include "files/sysctl-runtime.h"
#include "host/host.h"
#include "util/rootfs.h"
#include "util/strv.h"

struct keyset {
	struct halo_sysctl *v;
	size_t n, cap;
};

/* Takes NAME and VALUE (freed on failure). */
static int push(struct keyset *k, char *name, char *value, int line)
{
	if (!name || !value)
		goto oom;
	if (k->n == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 8;
		struct halo_sysctl *v = realloc(k->v, cap * sizeof(*v));

		if (!v)
			goto oom;
		k->v = v;
		k->cap = cap;
	}
	k->v[k->n++] = (struct halo_sysctl){ .name = name, .value = value, .line = line };
	return 0;
oom:
	free(name);
	free(value);
	return -ENOMEM;
}

static int rule_line(const struct halo_config *cfg)
{
	return cfg->sysctl.multi_nic_line ? cfg->sysctl.multi_nic_line : cfg->sysctl.line;
}

/* The settings against the rule on a live name the config does not
 * spell (an entry matched by MAC or PCI address). */
static int check_live_conflicts(const struct halo_config *cfg, const char *ifname,
				struct halo_errors *errs)
{
	const struct halo_sysctl_config *s = &cfg->sysctl;

	for (size_t i = 0; i < s->n_settings; i++) {
		_cleanup_free_ char *why = NULL;
		int r = halo_sysctl_rule_conflict(s->settings[i].key, s->settings[i].value,
						  ifname, &why);

		if (r < 0)
			return r;
		if (r > 0)
			halo_errors_add(errs, "%s:%d: sysctl.settings: %s (%s is a managed interface)",
					halo_config_name(cfg), s->settings[i].line, why, ifname);
	}
	return 0;
}

static int add_rule(struct halo_ctx *ctx, const struct halo_config *cfg,
		    struct halo_plan *plan, struct halo_errors *errs, struct keyset *keys,
		    bool *complete)
{
	const struct halo_host *host = ctx->host;

	if (cfg->n_interfaces == 0)
		return halo_plan_warn(plan, "sysctl.multi_nic is \"on\" but no interface is "
					    "configured: it sets nothing");
	/* The table is built only when links, roce or rdma run too. */
	if (!host || host->n != cfg->n_interfaces) {
		*complete = false;
		return halo_plan_warn_held(plan, HALO_SYSCTL_DROPIN,
					   "sysctl.multi_nic: the managed interfaces are not "
					   "resolved in this run (--only without links): their keys "
					   "and %s are not applied or checked", HALO_SYSCTL_DROPIN);
	}
	for (size_t i = 0; i < host->n; i++) {
		const struct halo_host_link *h = &host->links[i];
		const char *ifname = h->link.name, *why;
		int r;

		if (!h->selected) {
			*complete = false;
			continue;
		}
		/* A revert removes the drop-in whatever it lists. */
		if (!h->found && ctx->revert)
			continue;
		if (!h->found) {
			*complete = false;
			r = halo_plan_warn_held(plan, HALO_SYSCTL_DROPIN,
						"sysctl: interface %s has no link%s: its keys and "
						"%s are not applied or checked", h->entry->name,
						halo_host_yet(ctx), HALO_SYSCTL_DROPIN);
			if (r < 0)
				return r;
			continue;
		}
		why = halo_sysctl_check_ifname(ifname);
		/* A revert leaves the running values: a live name no key can
		 * hold is not its concern (its keys are just not listed). */
		if (why && ctx->revert) {
			*complete = false;
			continue;
		}
		if (why) {
			halo_errors_add(errs, "%s:%d: sysctl.multi_nic: interface %s is %s, which %s",
					halo_config_name(cfg), rule_line(cfg), h->entry->name, ifname, why);
			continue;
		}
		if (strcmp(ifname, h->entry->name) != 0 && !ctx->revert) {
			r = check_live_conflicts(cfg, ifname, errs);
			if (r < 0)
				return r;
		}
		for (const struct halo_sysctl_rule *rule = halo_sysctl_rules; rule->leaf; rule++) {
			r = push(keys, halo_sysctl_iface_name(ifname, rule->leaf),
				 strdup(rule->value), 0);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

static int add_settings(const struct halo_config *cfg, struct keyset *keys)
{
	const struct halo_sysctl_config *s = &cfg->sysctl;

	for (size_t i = 0; i < s->n_settings; i++) {
		const struct halo_sysctl_setting *set = &s->settings[i];
		int r = push(keys, strdup(set->key), strdup(set->value), set->line);

		if (r < 0)
			return r;
	}
	return 0;
}

/* Whether K is a key of the root's /proc/sys that can be written: 0, or
 * -EINVAL with the reason in ERRS. */
static int check_key(struct halo_ctx *ctx, const struct halo_config *cfg,
		     const struct halo_sysctl *k, const char *path, bool may_appear,
		     struct halo_errors *errs)
{
	_cleanup_free_ char *shown = halo_root_display_path(ctx, path);
	int line = k->line ? k->line : rule_line(cfg);
	const char *what = k->line ? "sysctl.settings" : "sysctl.multi_nic";
	struct stat st;
	int r = halo_root_lstat(ctx, path, &st);

	if (r == -ENOENT && may_appear)
		return 0;
	if (r == -ENOENT || r == -ENOTDIR)
		halo_errors_add(errs, "%s:%d: %s: %s is not a key of this kernel (no %s)",
				halo_config_name(cfg), line, what, k->name, shown ? shown : path);
	else if (r < 0)
		halo_errors_add(errs, "%s:%d: %s: %s: cannot stat %s: %s", halo_config_name(cfg), line,
				what, k->name, shown ? shown : path, strerror(-r));
	else if (S_ISDIR(st.st_mode))
		halo_errors_add(errs, "%s:%d: %s: %s is a directory of keys, not a key",
				halo_config_name(cfg), line, what, k->name);
	else if (!S_ISREG(st.st_mode))
		halo_errors_add(errs, "%s:%d: %s: %s is not a key: %s: %s, not a regular file",
				halo_config_name(cfg), line, what, k->name, shown ? shown : path,
				halo_file_kind(st.st_mode));
	else if (!(st.st_mode & 0222))
		halo_errors_add(errs, "%s:%d: %s: %s is read-only", halo_config_name(cfg), line, what,
				k->name);
	else
		return 0;
	return -EINVAL;
}

static int add_items(struct halo_ctx *ctx, const struct halo_config *cfg,
		     struct halo_plan *plan, struct halo_errors *errs, const struct keyset *keys)
{
	bool may_appear = ctx->host && ctx->host->stage == HALO_HOST_BEFORE_MODULES;
	bool bad = false;

	for (size_t i = 0; i < keys->n; i++) {
		_cleanup_free_ char *path = halo_sysctl_path(keys->v[i].name);
		int r;

		if (!path)
			return -ENOMEM;
		/* A revert leaves the running values as they are: whether
		 * this kernel has the key does not matter to it. */
		if (!ctx->revert &&
		    check_key(ctx, cfg, &keys->v[i], path, may_appear, errs) < 0) {
			bad = true;
			continue;
		}
		r = halo_sysctl_runtime_add(plan, &keys->v[i], path, may_appear, NULL);
		/* Only a live name makes a key twice (the parser refuses the
		 * rest); its conflict is not checked by a revert. */
		if (r == -EEXIST && ctx->revert)
			r = 0;
		if (r == -EEXIST)
			halo_errors_add(errs, "%s:%d: sysctl: %s is set twice", halo_config_name(cfg),
					keys->v[i].line ? keys->v[i].line : rule_line(cfg),
					keys->v[i].name);
		else if (r < 0)
			return r;
		bad |= r < 0;
	}
	return bad ? -EINVAL : 0;
}

static int plan_keys(struct halo_ctx *ctx, const struct halo_config *cfg,
		     struct halo_plan *plan, struct halo_errors *errs, struct keyset *keys)
{
	/* A hotplug run sets that interface's keys only. */
	bool partial = ctx->interface != NULL, complete = !partial;
	_cleanup_free_ char *content = NULL;
	size_t n_errs = errs->n;
	int r = 0;

	if (halo_sysctl_rule_applies(cfg))
		r = add_rule(ctx, cfg, plan, errs, keys, &complete);
	if (r == 0 && !partial)
		r = add_settings(cfg, keys);
	if (r < 0)
		return r;
	if (errs->n > n_errs)
		return -EINVAL;
	r = add_items(ctx, cfg, plan, errs, keys);
	if (r < 0 || !complete)
		return r;
	r = halo_sysctl_render(keys->v, keys->n, &content);
	if (r < 0)
		return r;
	/* No keys: a drop-in of ours goes, one without the header stays. */
	if (!content)
		r = halo_plan_add_revert_file(plan, HALO_SUB_FILES, HALO_PHASE_FILES,
					      HALO_SYSCTL_DROPIN, NULL);
	else
		r = halo_plan_add_file(plan, HALO_SUB_FILES, HALO_PHASE_FILES,
				       HALO_SYSCTL_DROPIN, content, 0644, NULL);
	if (r == -EEXIST)
		halo_errors_add(errs, "%s: %s is also written by another part", halo_config_name(cfg),
				HALO_SYSCTL_DROPIN);
	return r;
}

int halo_files_sysctl_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
			   struct halo_plan *plan, struct halo_errors *errs)
{
	struct keyset keys = { 0 };
	int r;

	if (!cfg->sysctl.present || !(ctx->only & HALO_SUB_FILES))
		return 0;
	r = plan_keys(ctx, cfg, plan, errs, &keys);
	halo_sysctl_free_all(keys.v, keys.n);
	return r;
}
