/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * view.c: the only files libkmod ever opens, gathered into a private
 * staging directory (mkdtemp, 0700, removed when the run ends).
 *
 * libkmod opens its module directory, its config directories and the
 * module files by path, following every symlink on the host and opening
 * FIFOs and devices (which block). So it is never given a path into the
 * root: each file it may read is first opened inside the root through the
 * file layer (util/rootfs.h: symlinks resolved inside the root, never out),
 * checked to be a regular file, and entered in the staging directory as a
 * symlink to that open descriptor (/proc/self/fd/N). Module files are
 * entered on demand, before libkmod reads them (modinfo, probe). Anything
 * else (a symlink that does not resolve inside the root, a FIFO, a device,
 * a directory where a file belongs) is refused with a message naming it.
 *
 * The staging directory is a tmpfs mounted nowhere (fsopen/fsmount, the
 * new mount API): it lives in memory, is reached only through its
 * descriptor (/proc/self/fd/N) and vanishes when that is closed, so a
 * run writes nothing on the host for it, and costs no inode creation on
 * a disk filesystem. Where the mount API is refused (no CAP_SYS_ADMIN, an
 * old kernel, a seccomp filter) it falls back to a mkdtemp directory in
 * $TMPDIR, removed at the end.
 *
 * The view also computes the blacklist (blacklist.c) from the files it
 * staged and the root's /proc/cmdline: libkmod's own blacklist carries the
 * running kernel's command line, which is not the root's.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/mount.h>

#include "modules/internal.h"
#include "modules/view.h"
#include "util/rootfs.h"
#include "util/strv.h"


/* What libkmod reads from the module directory itself. */
static const char *const index_files[] = {
	"modules.dep.bin", "modules.alias.bin", "modules.symbols.bin",
	"modules.builtin.alias.bin", "modules.builtin.bin",
	"modules.builtin.modinfo", "modules.softdep",
};



/* Removes what the view made: directories and symlinks only. */
static void rm_tree(int dfd)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;

	if (!d) {
		close(dfd);
		return;
	}
	while ((de = readdir(d))) {
		int fd;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (unlinkat(dirfd(d), de->d_name, 0) == 0)
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0)
			rm_tree(fd);
		(void)unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR);
	}
	closedir(d);
}

void halo_kmod_view_free(struct halo_kmod_view *v)
{
	if (!v)
		return;
	if (v->detached) {
		close(v->dfd);
	} else if (v->dfd >= 0) {
		int fd = openat(v->dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (fd >= 0)
			rm_tree(fd);
		close(v->dfd);
	}
	if (v->dir && !v->detached)
		(void)rmdir(v->dir);
	for (size_t i = 0; i < v->n_fds; i++)
		close(v->fds[i]);
	free(v->fds);
	free(v->dir);
	free(v->moddir);
	free(v->root_moddir);
	for (size_t i = 0; i < ARRAY_SIZE(v->conf); i++)
		free(v->conf[i]);
	halo_strv_free(v->blacklist);
	free(v->depidx);
	free(v);
}

char *halo_kmod_view_where(const struct halo_ctx *ctx, const char *dir, const char *name)
{
	_cleanup_free_ char *path = halo_strdup_printf("%s/%s", dir, name);

	return path ? halo_root_display_path(ctx, path) : NULL;
}

int halo_kmod_view_open_regular(const struct halo_ctx *ctx, const char *dir, const char *name,
			int *ret_fd, char **ret_why)
{
	_cleanup_free_ char *path = halo_strdup_printf("%s/%s", dir, name);
	_cleanup_free_ char *shown = NULL;
	_cleanup_close_ int fd = -1;
	struct stat st;
	int r;

	if (!path)
		return -ENOMEM;
	r = halo_root_openat(ctx, path, O_PATH, 0, &fd);
	if (r == -ENOENT || r == -ELOOP) {
		/* A symlink that resolves to nothing inside the root may well
		 * resolve on the host: refuse it rather than skip it. */
		int e = halo_root_explain_missing(ctx, path, ret_why);

		if (e < 0 || r == -ENOENT)
			return e < 0 ? e : -ENOENT;
	}
	if (r >= 0 && fstat(fd, &st) < 0)
		r = -errno;
	if (r >= 0 && !S_ISREG(st.st_mode)) {
		shown = halo_root_display_path(ctx, path);
		*ret_why = halo_strdup_printf("%s: %s, not a regular file",
					      shown ? shown : path, halo_file_kind(st.st_mode));
		return *ret_why ? -EPERM : -ENOMEM;
	}
	if (r < 0) {
		shown = halo_root_display_path(ctx, path);
		*ret_why = halo_strdup_printf("%s: %s", shown ? shown : path, strerror(-r));
		return *ret_why ? r : -ENOMEM;
	}
	*ret_fd = TAKE_FD(fd);
	return 0;
}

int halo_kmod_view_link(struct halo_kmod_view *v, int fd, const char *rel)
{
	char target[64];
	int *fds;

	fds = realloc(v->fds, (v->n_fds + 1) * sizeof(*fds));
	if (!fds) {
		close(fd);
		return -ENOMEM;
	}
	v->fds = fds;
	v->fds[v->n_fds++] = fd;
	snprintf(target, sizeof(target), "/proc/self/fd/%d", fd);
	return symlinkat(target, v->dfd, rel) < 0 ? -errno : 0;
}

/* The content of a regular file already opened (O_PATH) as FD. */
static int read_fd(int fd, char **ret, size_t *ret_len)
{
	char proc[64];
	_cleanup_close_ int rfd = -1;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	rfd = open(proc, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (rfd < 0)
		return -errno;
	return halo_read_fd(rfd, 0, ret, ret_len);
}

static int blacklist_add_file(struct halo_kmod_view *v, int fd)
{
	_cleanup_free_ char *text = NULL;
	int r;

	r = read_fd(fd, &text, NULL);
	if (r < 0)
		return r;
	return halo_blacklist_from_modprobe(text, &v->blacklist);
}

static int stage_conf_dir(struct halo_kmod_view *v, size_t i, char ***seen, char **ret_why)
{
	_cleanup_strv_free_ char **names = NULL;
	char rel[32];
	int r;

	snprintf(rel, sizeof(rel), "c%zu", i);
	if (mkdirat(v->dfd, rel, 0700) < 0)
		return -errno;
	v->conf[i] = halo_strdup_printf("%s/%s", v->dir, rel);
	if (!v->conf[i])
		return -ENOMEM;
	r = halo_root_list_dir(v->ctx, halo_modprobe_dirs[i], &names);
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	if (r < 0) {
		_cleanup_free_ char *shown = halo_root_display_path(v->ctx, halo_modprobe_dirs[i]);

		*ret_why = halo_strdup_printf("%s: %s", shown ? shown : halo_modprobe_dirs[i], strerror(-r));
		return *ret_why ? r : -ENOMEM;
	}
	for (char **n = names; *n; n++) {
		_cleanup_free_ char *entry = NULL;
		int fd;

		if (!halo_modprobe_conf_name(*n))
			continue;
		r = halo_kmod_view_open_regular(v->ctx, halo_modprobe_dirs[i], *n, &fd, ret_why);
		if (r == -ENOENT)
			continue; /* gone since the listing */
		if (r < 0)
			return r;
		entry = halo_strdup_printf("%s/%s", rel, *n);
		if (!entry) {
			close(fd);
			return -ENOMEM;
		}
		r = halo_kmod_view_link(v, fd, entry);
		if (r < 0)
			return r;
		/* Same name in an earlier directory: that one wins (kmod). */
		if (halo_strv_contains(*seen, *n))
			continue;
		r = halo_strv_push(seen, *n);
		if (r == 0)
			r = blacklist_add_file(v, fd);
		if (r < 0)
			return r;
	}
	return 0;
}

static int stage_cmdline(struct halo_kmod_view *v, char **ret_why)
{
	_cleanup_free_ char *text = NULL;
	int r;

	r = halo_read_file(v->ctx, "/proc/cmdline", &text, NULL);
	if (r == -ENOENT)
		return 0;
	if (r < 0) {
		/* "a FIFO, not a regular file", or the reason, naming it. */
		*ret_why = halo_root_read_error(v->ctx, "/proc/cmdline", r);
		return *ret_why ? r : -ENOMEM;
	}
	return halo_blacklist_from_cmdline(text, &v->blacklist);
}

bool halo_kernel_release_valid(const char *rel)
{
	return rel && *rel && !strchr(rel, '/') && strcmp(rel, "..") != 0 &&
	       strcmp(rel, ".") != 0;
}

/* A tmpfs mounted nowhere, as a descriptor of its root directory, or
 * -errno when the kernel refuses the mount API here. */
static int detached_tmpfs(void)
{
#if defined(SYS_fsopen) && defined(SYS_fsconfig) && defined(SYS_fsmount)
	_cleanup_close_ int fsfd = -1;
	int mfd;

	fsfd = (int)syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC);
	if (fsfd < 0)
		return -errno;
	if (syscall(SYS_fsconfig, fsfd, FSCONFIG_SET_STRING, "mode", "0700", 0) < 0 ||
	    syscall(SYS_fsconfig, fsfd, FSCONFIG_SET_STRING, "size", "1m", 0) < 0 ||
	    syscall(SYS_fsconfig, fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return -errno;
	mfd = (int)syscall(SYS_fsmount, fsfd, FSMOUNT_CLOEXEC,
			   MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
			   MOUNT_ATTR_NOEXEC);
	return mfd < 0 ? -errno : mfd;
#else
	return -ENOSYS;
#endif
}

static int make_stage_dir(struct halo_kmod_view *v)
{
	const char *tmp = secure_getenv("TMPDIR");
	int fd = detached_tmpfs();

	if (fd >= 0) {
		v->dfd = fd;
		v->detached = true;
		v->dir = halo_strdup_printf("/proc/self/fd/%d", fd);
		return v->dir ? 0 : -ENOMEM;
	}
	v->dir = halo_strdup_printf("%s/halo-kmod.XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp");
	if (!v->dir)
		return -ENOMEM;
	if (!mkdtemp(v->dir)) {
		free(v->dir);
		v->dir = NULL;
		return -errno;
	}
	v->dfd = open(v->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return v->dfd < 0 ? -errno : 0;
}

int halo_kmod_view_new(const struct halo_ctx *ctx, struct halo_kmod_view **ret,
		       char **ret_why)
{
	struct halo_kmod_view *v;
	_cleanup_strv_free_ char **seen = NULL;
	_cleanup_close_ int mfd = -1;
	int r, fd;

	if (!halo_kernel_release_valid(ctx->kernel_release))
		return -EINVAL;
	v = calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	v->ctx = ctx;
	v->dfd = -1;
	v->root_moddir = halo_strdup_printf("/lib/modules/%s", ctx->kernel_release);
	if (!v->root_moddir) {
		r = -ENOMEM;
		goto fail;
	}
	r = halo_root_openat(ctx, v->root_moddir, O_PATH | O_DIRECTORY, 0, &mfd);
	if (r < 0)
		goto fail; /* -ENOENT: this kernel has no module tree */
	r = make_stage_dir(v);
	if (r < 0)
		goto fail;
	if (mkdirat(v->dfd, "m", 0700) < 0) {
		r = -errno;
		goto fail;
	}
	v->moddir = halo_strdup_printf("%s/m", v->dir);
	if (!v->moddir) {
		r = -ENOMEM;
		goto fail;
	}
	for (size_t i = 0; i < ARRAY_SIZE(index_files); i++) {
		char rel[64];

		r = halo_kmod_view_open_regular(ctx, v->root_moddir, index_files[i], &fd, ret_why);
		if (r == -ENOENT && i > 0)
			continue; /* libkmod copes, or fails as it would */
		if (r < 0)
			goto fail; /* -ENOENT for modules.dep.bin: no index */
		snprintf(rel, sizeof(rel), "m/%s", index_files[i]);
		r = halo_kmod_view_link(v, fd, rel);
		if (r == 0 && i == 0)
			r = read_fd(fd, &v->depidx, &v->depidx_len);
		/* libkmod parses modules.softdep as a config file. */
		if (r == 0 && strcmp(index_files[i], "modules.softdep") == 0)
			r = blacklist_add_file(v, fd);
		if (r < 0)
			goto fail;
	}
	for (size_t i = 0; i < HALO_MODPROBE_N_DIRS; i++) {
		r = stage_conf_dir(v, i, &seen, ret_why);
		if (r < 0)
			goto fail;
	}
	r = stage_cmdline(v, ret_why);
	if (r < 0)
		goto fail;
	*ret = v;
	return 0;
fail:
	halo_kmod_view_free(v);
	return r;
}

const char *halo_kmod_view_moddir(const struct halo_kmod_view *v)
{
	return v->moddir;
}

const char *const *halo_kmod_view_conf_paths(const struct halo_kmod_view *v)
{
	return (const char *const *)v->conf;
}

bool halo_kmod_view_blacklisted(const struct halo_kmod_view *v, const char *name)
{
	return halo_strv_contains(v->blacklist, name);
}
