/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kmod.c: every libkmod call of halo-provision, converted to -errno.
 * libkmod is opened on first use (kmod-dl.h): every call goes through its
 * sym_ pointers, which halo_kmod_get fills before anything else here runs.
 *
 * libkmod reads only the private view of the root (view.c): the index
 * files, the modprobe.d files and, entered before libkmod opens them, the
 * module files, each checked to be a regular file inside the root. The
 * blacklist is the view's (the root's modprobe.d and /proc/cmdline); under
 * --root, libkmod's own reading of /proc/cmdline sees the root's too
 * (kmod-cmdline.c). libkmod
 * still checks "is it loaded" in the absolute /sys/module when it probes:
 * that only happens when the root's kernel is the running one.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "modules/internal.h"
#include "modules/kmod-dl.h"
#include "util/rootfs.h"
#include "util/strv.h"

struct halo_kmod {
	struct kmod_ctx *kctx;
	struct halo_kmod_view *view;
	const char *dirname; /* the view's module directory */
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
		sym_kmod_unref(k->kctx);
	halo_kmod_view_free(k->view);
	free(k);
}

static int kmod_ctx_open(struct halo_ctx *ctx, struct halo_kmod **ret, char **ret_why)
{
	struct halo_kmod *k;
	bool shadowed;
	int r;

	/* The library first: without it there is nothing to stage for. */
	r = halo_kmod_dl_open(ret_why);
	if (r < 0)
		return r;
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	r = halo_kmod_view_new(ctx, &k->view, ret_why);
	if (r < 0)
		goto fail;
	k->dirname = halo_kmod_view_moddir(k->view);
	/* kmod_new reads /proc/cmdline: the root's, under --root. */
	r = halo_kmod_cmdline_shadow(ctx, &shadowed, ret_why);
	if (r < 0)
		goto fail;
	/* The view's config directories, never the host's defaults. */
	k->kctx = sym_kmod_new(k->dirname, halo_kmod_view_conf_paths(k->view));
	halo_kmod_cmdline_unshadow(shadowed);
	if (!k->kctx) {
		r = -ENOMEM;
		goto fail;
	}
	sym_kmod_set_log_fn(k->kctx, log_nothing, NULL);
	r = sym_kmod_load_resources(k->kctx);
	if (r < 0)
		goto fail;
	*ret = k;
	return 0;
fail:
	halo_kmod_free(k);
	return r;
}

int halo_kmod_get(struct halo_ctx *ctx, struct halo_kmod **ret, char **ret_why)
{
	int r;

	if (!ctx->kmod) {
		r = kmod_ctx_open(ctx, &ctx->kmod, ret_why);
		if (r < 0)
			return r;
	}
	*ret = ctx->kmod;
	return 0;
}

static int info_collect(struct kmod_module *mod, struct halo_modinfo *mi)
{
	struct kmod_list *info = NULL, *l;
	int r;

	r = sym_kmod_module_get_info(mod, &info);
	if (r < 0)
		return r;
	r = 0;
	kmod_list_foreach(l, info) {
		const char *key = sym_kmod_module_info_get_key(l);
		const char *value = sym_kmod_module_info_get_value(l);

		if (!key || !value)
			continue;
		r = halo_modinfo_add_entry(mi, key, value);
		if (r < 0)
			break;
	}
	sym_kmod_module_info_free_list(info);
	return r;
}

/* Names of the modules of LIST that the root's blacklist names. */
static int blacklist_collect(struct halo_kmod *k, struct kmod_list *list,
			     struct halo_modinfo *mi)
{
	struct kmod_list *l;
	int r = 0;

	kmod_list_foreach(l, list) {
		struct kmod_module *mod = sym_kmod_module_get_module(l);
		const char *name = sym_kmod_module_get_name(mod);

		if (halo_kmod_view_blacklisted(k->view, name) &&
		    !halo_strv_contains(mi->blacklisted, name))
			r = halo_strv_push(&mi->blacklisted, name);
		sym_kmod_module_unref(mod);
		if (r < 0)
			break;
	}
	return r;
}

/* Enters the files of module NAME, its dependencies and (to a depth) its
 * soft dependencies into the view, before libkmod reads any of them. */
static int stage_module(struct halo_kmod *k, const char *name, int depth, char **ret_why)
{
	struct kmod_list *pre = NULL, *post = NULL, *l;
	struct kmod_module *mod = NULL;
	int r;

	r = halo_kmod_view_add_module(k->view, name, ret_why);
	if (r < 0 || depth >= 8)
		return r;
	/* Soft dependencies come from the config; reading them parses no
	 * dependency line of NAME. */
	if (sym_kmod_module_new_from_name(k->kctx, name, &mod) < 0)
		return 0;
	if (sym_kmod_module_get_softdeps(mod, &pre, &post) < 0) {
		sym_kmod_module_unref(mod);
		return 0;
	}
	sym_kmod_module_unref(mod);
	kmod_list_foreach(l, pre) {
		struct kmod_module *d = sym_kmod_module_get_module(l);

		r = stage_module(k, sym_kmod_module_get_name(d), depth + 1, ret_why);
		sym_kmod_module_unref(d);
		if (r < 0)
			break;
	}
	kmod_list_foreach(l, r < 0 ? NULL : post) {
		struct kmod_module *d = sym_kmod_module_get_module(l);

		r = stage_module(k, sym_kmod_module_get_name(d), depth + 1, ret_why);
		sym_kmod_module_unref(d);
		if (r < 0)
			break;
	}
	sym_kmod_module_unref_list(pre);
	sym_kmod_module_unref_list(post);
	return r;
}

/* Why the module file at PATH (a view path) could not be read. */
static char *unreadable(struct halo_kmod *k, const char *name, const char *path, int err)
{
	static const char *const comp[] = { ".gz", ".xz", ".zst" };
	_cleanup_free_ char *shown = halo_kmod_view_root_path(k->view, path);
	const char *ext = NULL;
	size_t n = strlen(path);

	for (size_t i = 0; i < ARRAY_SIZE(comp); i++)
		if (n > strlen(comp[i]) && strcmp(path + n - strlen(comp[i]), comp[i]) == 0)
			ext = comp[i];
	if (err != -EINVAL && err != -ENOEXEC && err != -EBADMSG)
		return halo_strdup_printf("module '%s': cannot read its file %s: %s", name,
					  shown ? shown : path, strerror(-err));
	/* A compressed module that libkmod cannot decompress reads as a
	 * broken ELF file, exactly like a truncated one. */
	if (ext)
		return halo_strdup_printf("module '%s': cannot read its file %s: %s (corrupt or truncated, "
					  "or this libkmod cannot decompress %s: see kmod --version)",
					  name, shown ? shown : path, strerror(-err), ext);
	return halo_strdup_printf("module '%s': cannot read its file %s: %s (not a valid module: corrupt or truncated)",
				  name, shown ? shown : path, strerror(-err));
}

static int deps_collect(struct halo_kmod *k, struct kmod_module *mod,
			struct halo_modinfo *mi)
{
	struct kmod_list *deps = sym_kmod_module_get_dependencies(mod), *l;
	int r = 0;

	/* The whole closure from modules.dep, already in load order (libkmod
	 * reverses the line, whose deepest dependency comes last). */
	kmod_list_foreach(l, deps) {
		struct kmod_module *d = sym_kmod_module_get_module(l);
		const char *cmd = sym_kmod_module_get_install_commands(d);

		r = halo_strv_push(&mi->deps, sym_kmod_module_get_name(d));
		if (r == 0 && cmd && !mi->install_cmd) {
			mi->install_cmd = halo_strdup_printf("%s: install %s",
							     sym_kmod_module_get_name(d), cmd);
			if (!mi->install_cmd)
				r = -ENOMEM;
		}
		sym_kmod_module_unref(d);
		if (r < 0)
			break;
	}
	if (r == 0)
		r = blacklist_collect(k, deps, mi);
	sym_kmod_module_unref_list(deps);
	return r;
}

int halo_kmod_lookup(struct halo_kmod *k, const char *name,
		     struct halo_modinfo **ret, char **ret_why)
{
	_cleanup_modinfo_ struct halo_modinfo *mi = NULL;
	struct kmod_list *list = NULL, *l;
	struct kmod_module *mod = NULL;
	const char *path, *cmd;
	int r;

	mi = halo_modinfo_new(name);
	if (!mi)
		return -ENOMEM;
	/* The lookup parses the module's dependency line: stage first. */
	r = stage_module(k, mi->name, 0, ret_why);
	if (r < 0)
		return r;
	r = sym_kmod_module_new_from_lookup(k->kctx, mi->name, &list);
	if (r < 0)
		return r;
	/* A lookup also resolves aliases; only the module itself counts. */
	kmod_list_foreach(l, list) {
		struct kmod_module *m = sym_kmod_module_get_module(l);

		if (strcmp(sym_kmod_module_get_name(m), mi->name) == 0) {
			mod = m;
			break;
		}
		sym_kmod_module_unref(m);
	}
	if (!mod) {
		sym_kmod_module_unref_list(list);
		return -ENOENT;
	}

	path = sym_kmod_module_get_path(mod);
	cmd = sym_kmod_module_get_install_commands(mod);
	if (path) {
		size_t n = strlen(k->dirname);

		if (strncmp(path, k->dirname, n) == 0 && path[n] == '/')
			path += n + 1;
		mi->relpath = strdup(path);
		r = mi->relpath ? 0 : -ENOMEM;
	} else if (sym_kmod_module_get_initstate(mod) == KMOD_MODULE_BUILTIN) {
		/* Set from modules.builtin by the lookup; no sysfs read. */
		mi->builtin = true;
	} else if (!cmd) {
		r = -ENOENT; /* only an alias or softdep in modprobe.d */
	}
	if (r == 0 && cmd) {
		mi->install_cmd = halo_strdup_printf("%s: install %s", mi->name, cmd);
		r = mi->install_cmd ? 0 : -ENOMEM;
	}
	if (r == 0) {
		r = info_collect(mod, mi);
		if (r < 0 && r != -ENOMEM && path) {
			*ret_why = unreadable(k, mi->name, sym_kmod_module_get_path(mod), r);
			if (!*ret_why)
				r = -ENOMEM;
		}
	}
	if (r == 0)
		r = blacklist_collect(k, list, mi);
	if (r == 0)
		r = deps_collect(k, mod, mi);
	sym_kmod_module_unref(mod);
	sym_kmod_module_unref_list(list);
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

	r = sym_kmod_module_new_from_lookup(k->kctx, name, &list);
	if (r < 0)
		return r;
	if (!list)
		return -ENOENT;
	m = sym_kmod_module_get_module(list);
	s = strdup(sym_kmod_module_get_name(m));
	sym_kmod_module_unref(m);
	sym_kmod_module_unref_list(list);
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
					      sym_kmod_module_get_name(m), cmdline);
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
	r = stage_module(k, norm, 0, &rf.what);
	if (r < 0)
		goto out;
	r = sym_kmod_module_new_from_name(k->kctx, norm, &mod);
	if (r < 0)
		goto out;
	/* KMOD_PROBE_APPLY_BLACKLIST, with the root's blacklist: a module
	 * already in the kernel is "loaded" (EEXIST), not refused. */
	if (apply_blacklist && halo_kmod_view_blacklisted(k->view, norm)) {
		int state = sym_kmod_module_get_initstate(mod);

		if (state == KMOD_MODULE_LIVE || state == KMOD_MODULE_COMING ||
		    state == KMOD_MODULE_BUILTIN) {
			r = -EEXIST;
			goto out;
		}
		rf.what = halo_strdup_printf("%s: blacklisted in modprobe.d or the kernel command line",
					     norm);
		r = rf.what ? -EPERM : -ENOMEM;
		goto out;
	}
	/* FAIL_ON_LOADED: a module that the kernel says exists (EEXIST) is
	 * reported, so the caller can check sysfs instead of trusting it. */
	r = sym_kmod_module_probe_insert_module(mod, KMOD_PROBE_FAIL_ON_LOADED,
					    extra_options, refuse_install, &rf, NULL);
out:
	sym_kmod_module_unref(mod);
	if (r < 0 && rf.what) {
		*ret_refused = rf.what;
		return r == -ENOMEM ? r : -EPERM;
	}
	free(rf.what);
	return r > 0 ? -EPERM : r;
}

int halo_kmod_unindexed_hint(struct halo_kmod *k, const char *name, char **ret_hint)
{
	_cleanup_free_ char *file = NULL;
	const char *why;
	size_t n;
	int r;

	r = halo_kmod_view_find_unindexed(k->view, name, &file);
	if (r < 0)
		return r;
	n = strlen(file);
	if (n > 3 && strcmp(file + n - 3, ".gz") == 0)
		why = "depmod skips .ko.gz modules when kmod is built without zlib (kmod --version: -ZLIB); recompress them (xz, zstd) or use a kmod with zlib, then run depmod";
	else if (n > 3 && strcmp(file + n - 3, ".xz") == 0)
		why = "depmod skips .ko.xz modules when kmod is built without xz support; run a depmod that has it";
	else if (n > 4 && strcmp(file + n - 4, ".zst") == 0)
		why = "depmod skips .ko.zst modules when kmod is built without zstd support; run a depmod that has it";
	else
		why = "run depmod";
	*ret_hint = halo_strdup_printf("%s is there but not in the module index: %s", file, why);
	return *ret_hint ? 0 : -ENOMEM;
}
