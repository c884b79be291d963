/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kmod.c: every libkmod call of halo-provision, converted to -errno.
 *
 * The context reads only the root's files: the module directory and the
 * modprobe.d directories are opened inside the root (util/rootfs.h, so a
 * symlink in an image cannot lead to the host) and handed to libkmod as
 * /proc/self/fd/N paths. libkmod itself still checks "is it loaded" in the
 * absolute /sys/module and merges module options from /proc/cmdline; both
 * are the running kernel's, which is the one we load into.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libkmod.h>
#include <stdio.h>
#include <string.h>

#include "modules/internal.h"
#include "util/rootfs.h"
#include "util/strv.h"

/* kmod's own default search list, in its order of precedence. */
static const char *const conf_dirs[] = {
	"/etc/modprobe.d",
	"/run/modprobe.d",
	"/usr/local/lib/modprobe.d",
	"/lib/modprobe.d",
};

struct halo_kmod {
	struct kmod_ctx *kctx;
	int dir_fd;
	int conf_fd[ARRAY_SIZE(conf_dirs)];
	char *dirname; /* "/proc/self/fd/N" */
};

/* libkmod logs to stderr by default; a subsystem never prints. */
static void log_nothing(void *data, int priority, const char *file, int line,
			const char *fn, const char *format, va_list args)
{
}

void halo_kmod_free(struct halo_kmod *k)
{
	if (!k)
		return;
	if (k->kctx)
		kmod_unref(k->kctx);
	if (k->dir_fd >= 0)
		close(k->dir_fd);
	for (size_t i = 0; i < ARRAY_SIZE(conf_dirs); i++)
		if (k->conf_fd[i] >= 0)
			close(k->conf_fd[i]);
	free(k->dirname);
	free(k);
}

static int kmod_open(struct halo_ctx *ctx, struct halo_kmod **ret)
{
	_cleanup_free_ char *moddir = NULL;
	char *conf_paths[ARRAY_SIZE(conf_dirs) + 1] = { NULL };
	const char *paths[ARRAY_SIZE(conf_dirs) + 1] = { NULL };
	struct halo_kmod *k;
	size_t n = 0;
	int r, fd;

	if (!ctx->kernel_release || !*ctx->kernel_release ||
	    strchr(ctx->kernel_release, '/'))
		return -EINVAL;
	moddir = halo_strdup_printf("/lib/modules/%s", ctx->kernel_release);
	k = calloc(1, sizeof(*k));
	if (!moddir || !k) {
		free(k);
		return -ENOMEM;
	}
	k->dir_fd = -1;
	for (size_t i = 0; i < ARRAY_SIZE(conf_dirs); i++)
		k->conf_fd[i] = -1;

	r = halo_root_openat(ctx, moddir, O_PATH | O_DIRECTORY | O_CLOEXEC, 0,
			     &k->dir_fd);
	if (r < 0)
		goto fail;
	/* Without the binary index every lookup would come back empty. */
	if (faccessat(k->dir_fd, "modules.dep.bin", F_OK, 0) < 0) {
		r = -errno;
		goto fail;
	}
	k->dirname = halo_strdup_printf("/proc/self/fd/%d", k->dir_fd);
	if (!k->dirname) {
		r = -ENOMEM;
		goto fail;
	}
	for (size_t i = 0; i < ARRAY_SIZE(conf_dirs); i++) {
		r = halo_root_openat(ctx, conf_dirs[i],
				     O_PATH | O_DIRECTORY | O_CLOEXEC, 0, &fd);
		if (r == -ENOENT || r == -ENOTDIR)
			continue;
		if (r < 0)
			goto fail_paths;
		k->conf_fd[i] = fd;
		conf_paths[n] = halo_strdup_printf("/proc/self/fd/%d", fd);
		if (!conf_paths[n]) {
			r = -ENOMEM;
			goto fail_paths;
		}
		paths[n] = conf_paths[n];
		n++;
	}
	/* An empty list (not NULL) keeps libkmod off the host's defaults. */
	k->kctx = kmod_new(k->dirname, paths);
	if (!k->kctx) {
		r = -ENOMEM;
		goto fail_paths;
	}
	kmod_set_log_fn(k->kctx, log_nothing, NULL);
	r = kmod_load_resources(k->kctx);
	if (r < 0)
		goto fail_paths;
	for (size_t i = 0; i < n; i++)
		free(conf_paths[i]);
	*ret = k;
	return 0;

fail_paths:
	for (size_t i = 0; i < n; i++)
		free(conf_paths[i]);
fail:
	halo_kmod_free(k);
	return r;
}

int halo_kmod_get(struct halo_ctx *ctx, struct halo_kmod **ret)
{
	int r;

	if (!ctx->kmod) {
		r = kmod_open(ctx, &ctx->kmod);
		if (r < 0)
			return r;
	}
	*ret = ctx->kmod;
	return 0;
}

void halo_modinfo_free(struct halo_modinfo *mi)
{
	if (!mi)
		return;
	free(mi->name);
	free(mi->relpath);
	halo_strv_free(mi->parms);
	halo_strv_free(mi->deps);
	halo_strv_free(mi->blacklisted);
	free(mi->install_cmd);
	free(mi);
}

const char *halo_modinfo_parm_type(const struct halo_modinfo *mi, const char *parm)
{
	size_t n = strlen(parm);

	for (char **p = mi->parms; p && *p; p++)
		if (strncmp(*p, parm, n) == 0 && (*p)[n] == ':')
			return *p + n + 1;
	return NULL;
}

/* Adds "name:type" (or "name:" for a parm without parmtype) once. */
static int parm_add(struct halo_modinfo *mi, const char *value, bool typed)
{
	size_t n = strcspn(value, ":");
	_cleanup_free_ char *name = strndup(value, n);
	char **p;

	if (!name)
		return -ENOMEM;
	halo_name_normalize(name);
	for (p = mi->parms; p && *p; p++)
		if (strncmp(*p, name, n) == 0 && (*p)[n] == ':')
			break;
	if (p && *p) {
		/* A parmtype without ':' has no type to add (and nothing
		 * after its name to read). */
		if (typed && value[n] == ':' && (*p)[n + 1] == '\0') {
			char *t = halo_strdup_printf("%s:%s", name, value + n + 1);

			if (!t)
				return -ENOMEM;
			free(*p);
			*p = t;
		}
		return 0;
	}
	_cleanup_free_ char *entry = halo_strdup_printf(
		"%s:%s", name, typed && value[n] == ':' ? value + n + 1 : "");
	if (!entry)
		return -ENOMEM;
	return halo_strv_push(&mi->parms, entry);
}

static int info_collect(struct kmod_module *mod, struct halo_modinfo *mi)
{
	struct kmod_list *info = NULL, *l;
	int r;

	r = kmod_module_get_info(mod, &info);
	if (r < 0)
		return r;
	r = 0;
	kmod_list_foreach(l, info) {
		const char *key = kmod_module_info_get_key(l);
		const char *value = kmod_module_info_get_value(l);

		if (!key || !value)
			continue;
		if (strcmp(key, "parmtype") == 0)
			r = parm_add(mi, value, true);
		else if (strcmp(key, "parm") == 0)
			r = parm_add(mi, value, false);
		if (r < 0)
			break;
	}
	kmod_module_info_free_list(info);
	return r;
}

/* Names of the modules of LIST that the modprobe.d blacklist filters out. */
static int blacklist_collect(struct halo_kmod *k, struct kmod_list *list,
			     struct halo_modinfo *mi)
{
	struct kmod_list *kept = NULL, *l, *m;
	int r;

	if (!list)
		return 0;
	r = kmod_module_apply_filter(k->kctx, KMOD_FILTER_BLACKLIST, list, &kept);
	if (r < 0)
		return r;
	r = 0;
	kmod_list_foreach(l, list) {
		struct kmod_module *mod = kmod_module_get_module(l);
		bool found = false;

		kmod_list_foreach(m, kept) {
			struct kmod_module *km = kmod_module_get_module(m);

			found = km == mod;
			kmod_module_unref(km);
			if (found)
				break;
		}
		if (!found)
			r = halo_strv_push(&mi->blacklisted, kmod_module_get_name(mod));
		kmod_module_unref(mod);
		if (r < 0)
			break;
	}
	kmod_module_unref_list(kept);
	return r;
}

static int deps_collect(struct halo_kmod *k, struct kmod_module *mod,
			struct halo_modinfo *mi)
{
	struct kmod_list *deps = kmod_module_get_dependencies(mod), *l;
	int r = 0;

	/* The whole closure from modules.dep, already in load order (libkmod
	 * reverses the line, whose deepest dependency comes last). */
	kmod_list_foreach(l, deps) {
		struct kmod_module *d = kmod_module_get_module(l);
		const char *cmd = kmod_module_get_install_commands(d);

		r = halo_strv_push(&mi->deps, kmod_module_get_name(d));
		if (r == 0 && cmd && !mi->install_cmd) {
			mi->install_cmd = halo_strdup_printf("%s: install %s",
							     kmod_module_get_name(d), cmd);
			if (!mi->install_cmd)
				r = -ENOMEM;
		}
		kmod_module_unref(d);
		if (r < 0)
			break;
	}
	if (r == 0)
		r = blacklist_collect(k, deps, mi);
	kmod_module_unref_list(deps);
	return r;
}

int halo_kmod_lookup(struct halo_kmod *k, const char *name,
		     struct halo_modinfo **ret)
{
	_cleanup_modinfo_ struct halo_modinfo *mi = NULL;
	struct kmod_list *list = NULL, *l;
	struct kmod_module *mod = NULL;
	const char *path, *cmd;
	int r;

	mi = calloc(1, sizeof(*mi));
	if (!mi)
		return -ENOMEM;
	mi->name = halo_modname_dup(name);
	if (!mi->name)
		return -ENOMEM;
	r = kmod_module_new_from_lookup(k->kctx, mi->name, &list);
	if (r < 0)
		return r;
	/* A lookup also resolves aliases; only the module itself counts. */
	kmod_list_foreach(l, list) {
		struct kmod_module *m = kmod_module_get_module(l);

		if (strcmp(kmod_module_get_name(m), mi->name) == 0) {
			mod = m;
			break;
		}
		kmod_module_unref(m);
	}
	if (!mod) {
		kmod_module_unref_list(list);
		return -ENOENT;
	}

	path = kmod_module_get_path(mod);
	cmd = kmod_module_get_install_commands(mod);
	if (path) {
		size_t n = strlen(k->dirname);

		if (strncmp(path, k->dirname, n) == 0 && path[n] == '/')
			path += n + 1;
		mi->relpath = strdup(path);
		r = mi->relpath ? 0 : -ENOMEM;
	} else if (kmod_module_get_initstate(mod) == KMOD_MODULE_BUILTIN) {
		/* Set from modules.builtin by the lookup; no sysfs read. */
		mi->builtin = true;
	} else if (!cmd) {
		r = -ENOENT; /* only an alias or softdep in modprobe.d */
	}
	if (r == 0 && cmd) {
		mi->install_cmd = halo_strdup_printf("%s: install %s", mi->name, cmd);
		r = mi->install_cmd ? 0 : -ENOMEM;
	}
	if (r == 0)
		r = info_collect(mod, mi);
	if (r == 0)
		r = blacklist_collect(k, list, mi);
	if (r == 0)
		r = deps_collect(k, mod, mi);
	kmod_module_unref(mod);
	kmod_module_unref_list(list);
	if (r < 0)
		return r;
	*ret = TAKE_PTR(mi);
	return 0;
}

int halo_kmod_alias_target(struct halo_kmod *k, const char *name, char **ret_module)
{
	struct kmod_list *list = NULL;
	struct kmod_module *m;
	char *s;
	int r;

	r = kmod_module_new_from_lookup(k->kctx, name, &list);
	if (r < 0)
		return r;
	if (!list)
		return -ENOENT;
	m = kmod_module_get_module(list);
	s = strdup(kmod_module_get_name(m));
	kmod_module_unref(m);
	kmod_module_unref_list(list);
	if (!s)
		return -ENOMEM;
	*ret_module = s;
	return 0;
}

struct refusal {
	char *what;
};

/* Install commands are shell lines; halo-provision never runs a shell. */
static int refuse_install(struct kmod_module *m, const char *cmdline, void *data)
{
	struct refusal *rf = data;

	if (!rf->what)
		rf->what = halo_strdup_printf("%s: modprobe.d install command not run "
					      "(halo-provision runs no shell): %s",
					      kmod_module_get_name(m), cmdline);
	return -EPERM;
}

int halo_kmod_probe(struct halo_kmod *k, const char *name,
		    const char *extra_options, bool apply_blacklist,
		    char **ret_refused)
{
	_cleanup_free_ char *norm = halo_modname_dup(name);
	struct refusal rf = { NULL };
	struct kmod_module *mod = NULL;
	int r;

	if (!norm)
		return -ENOMEM;
	r = kmod_module_new_from_name(k->kctx, norm, &mod);
	if (r < 0)
		return r;
	/* FAIL_ON_LOADED: a module that the kernel says exists (EEXIST) is
	 * reported, so the caller can check sysfs instead of trusting it. */
	r = kmod_module_probe_insert_module(
		mod, KMOD_PROBE_FAIL_ON_LOADED |
			     (apply_blacklist ? KMOD_PROBE_APPLY_BLACKLIST : 0),
		extra_options, refuse_install, &rf, NULL);
	kmod_module_unref(mod);
	if (r > 0) {
		free(rf.what);
		rf.what = halo_strdup_printf("%s: blacklisted in modprobe.d", norm);
		r = -EPERM;
	}
	if (r < 0 && rf.what) {
		*ret_refused = rf.what;
		return -EPERM;
	}
	free(rf.what);
	return r;
}
