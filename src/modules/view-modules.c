/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * view-modules.c: module files entered into libkmod's view (view.c) on
 * demand, before libkmod reads them: the file modules.dep.bin names for a
 * module and for each of its dependencies, opened inside the root as a
 * regular file; and the search of the module tree for a module the index
 * does not list.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "modules/internal.h"
#include "modules/view.h"
#include "util/rootfs.h"
#include "util/strv.h"

bool halo_module_relpath_plain(const char *rel)
{
	for (const char *p = rel;;) {
		size_t n = strcspn(p, "/");

		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		if (!p[n])
			return true;
		p += n + 1;
	}
}

/* mkdir -p of REL's parent directories inside the staging directory. */
static int mkdirs_for(int dfd, const char *rel)
{
	_cleanup_free_ char *buf = strdup(rel);

	if (!buf)
		return -ENOMEM;
	for (char *s = strchr(buf, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdirat(dfd, buf, 0700) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	return 0;
}

/* Enters REL (a path of modules.dep.bin) into the view. */
static int add_rel(struct halo_kmod_view *v, const char *rel_in, char **ret_why)
{
	_cleanup_free_ char *rel = NULL, *dir = NULL;
	struct stat st;
	const char *base;
	int r, fd;

	if (!halo_module_relpath_plain(rel_in)) {
		/* libkmod would open an absolute path as it stands. */
		*ret_why = halo_strdup_printf("%s/modules.dep.bin names module file '%s', which is not below it",
					      v->root_moddir, rel_in);
		return *ret_why ? -EPERM : -ENOMEM;
	}
	rel = halo_strdup_printf("m/%s", rel_in);
	if (!rel)
		return -ENOMEM;
	if (fstatat(v->dfd, rel, &st, AT_SYMLINK_NOFOLLOW) == 0)
		return 0; /* entered already */
	base = strrchr(rel_in, '/');
	if (!base) {
		dir = strdup(v->root_moddir);
		base = rel_in;
	} else {
		dir = halo_strdup_printf("%s/%.*s", v->root_moddir, (int)(base - rel_in), rel_in);
		base++;
	}
	if (!dir)
		return -ENOMEM;
	r = halo_kmod_view_open_regular(v->ctx, dir, base, &fd, ret_why);
	if (r == -ENOENT)
		return 0; /* libkmod finds it missing and says so */
	if (r < 0)
		return r;
	r = mkdirs_for(v->dfd, rel);
	if (r < 0) {
		close(fd);
		return r;
	}
	return halo_kmod_view_link(v, fd, rel);
}

int halo_kmod_view_add_module(struct halo_kmod_view *v, const char *name, char **ret_why)
{
	_cleanup_free_ char *norm = halo_modname_dup(name), *line = NULL;
	char *save = NULL, *colon, *dep;
	int r;

	if (!norm)
		return -ENOMEM;
	r = halo_depindex_lookup(v->depidx, v->depidx_len, norm, &line);
	if (r == -ENOENT)
		return 0; /* built in, an alias, or unknown: no file */
	if (r == -EBADMSG) {
		*ret_why = halo_strdup_printf("%s/modules.dep.bin: not a module index (run depmod)",
					      v->root_moddir);
		return *ret_why ? r : -ENOMEM;
	}
	if (r < 0)
		return r;
	/* "path: dep dep ...", the line libkmod is about to parse. */
	colon = strchr(line, ':');
	if (colon)
		*colon = '\0';
	r = add_rel(v, line, ret_why);
	for (dep = colon ? strtok_r(colon + 1, " \t", &save) : NULL; dep && r == 0;
	     dep = strtok_r(NULL, " \t", &save))
		r = add_rel(v, dep, ret_why);
	return r;
}

char *halo_kmod_view_root_path(const struct halo_kmod_view *v, const char *path)
{
	size_t n = strlen(v->moddir);

	if (strncmp(path, v->moddir, n) == 0 && path[n] == '/')
		return halo_kmod_view_where(v->ctx, v->root_moddir, path + n + 1);
	return strdup(path);
}

const char *halo_kmod_view_root_moddir(const struct halo_kmod_view *v)
{
	return v->root_moddir;
}

static const char *const module_suffixes[] = { ".ko", ".ko.gz", ".ko.xz", ".ko.zst" };

/* Is file name FN a module file of NORM (normalized)? */
static bool is_module_file(const char *fn, const char *norm)
{
	size_t len = strlen(fn), n = strlen(norm);

	for (size_t i = 0; i < ARRAY_SIZE(module_suffixes); i++) {
		size_t s = strlen(module_suffixes[i]);

		if (len == n + s && strcmp(fn + n, module_suffixes[i]) == 0 &&
		    halo_name_eq(fn, norm, n))
			return true;
	}
	return false;
}

/* Depth-first search below DFD (taken), never through a symlink. */
static int find_in(int dfd, const char *prefix, const char *norm, int depth,
		   char **ret_rel)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	int r = -ENOENT;

	if (!d) {
		close(dfd);
		return -errno;
	}
	while (r == -ENOENT && (de = readdir(d))) {
		_cleanup_free_ char *rel = NULL;
		struct stat st;
		int fd;

		if (de->d_name[0] == '.')
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		rel = halo_strdup_printf("%s%s%s", prefix, *prefix ? "/" : "", de->d_name);
		if (!rel) {
			r = -ENOMEM;
			break;
		}
		if (S_ISREG(st.st_mode) && is_module_file(de->d_name, norm)) {
			*ret_rel = TAKE_PTR(rel);
			r = 0;
		} else if (S_ISDIR(st.st_mode) && depth < 16) {
			fd = openat(dirfd(d), de->d_name,
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd >= 0)
				r = find_in(fd, rel, norm, depth + 1, ret_rel);
		}
	}
	closedir(d);
	return r;
}

int halo_kmod_view_find_unindexed(const struct halo_kmod_view *v, const char *name,
				  char **ret_path)
{
	_cleanup_free_ char *norm = halo_modname_dup(name), *rel = NULL, *path = NULL;
	int r, fd;

	if (!norm)
		return -ENOMEM;
	r = halo_root_openat(v->ctx, v->root_moddir, O_RDONLY | O_DIRECTORY, 0, &fd);
	if (r < 0)
		return r;
	r = find_in(fd, "", norm, 0, &rel);
	if (r < 0)
		return r;
	path = halo_strdup_printf("%s/%s", v->root_moddir, rel);
	if (!path)
		return -ENOMEM;
	*ret_path = halo_root_display_path(v->ctx, path);
	return *ret_path ? 0 : -ENOMEM;
}
