/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kmod-cmdline.c: the kernel command line libkmod reads, under --root.
 *
 * kmod_new() reads the absolute path /proc/cmdline for its
 * "module.param=value" options and modprobe.blacklist= (libkmod-config.c:
 * kmod_config_new calls kmod_config_parse_kcmdline unconditionally; no
 * flag, config path or later call of libkmod skips it). On a live host
 * that is the right command line. Under --root it is the build machine's:
 * the image's module options would be judged, and its modules probed,
 * with the host's boot parameters.
 *
 * So under --root, for the span of kmod_new() only, this process sees at
 * /proc/cmdline the root's own /proc/cmdline (opened inside the root as a
 * regular file, like every read), or an empty file (/dev/null) when the
 * root has none: bound over /proc/cmdline in a mount namespace of this
 * process's own (unshare(CLONE_NEWNS), every mount made private first, so
 * nothing reaches the host's namespace), removed right after. Nothing of the
 * host's command line is opened. Where the namespace cannot be made (no
 * CAP_SYS_ADMIN), libkmod is not opened under --root: an error, never the
 * host's command line.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "modules/internal.h"
#include "util/rootfs.h"
#include "util/strv.h"

#define PROC_CMDLINE "/proc/cmdline"

/* Once per process: the mount namespace is the process's, not a run's. */
static bool have_private_ns;

static int private_ns(void)
{
	if (have_private_ns)
		return 0;
	if (unshare(CLONE_NEWNS) < 0)
		return -errno;
	/* Shared mounts would carry the bind mount back to the host's
	 * namespace: make every mount private first. */
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0)
		return -errno;
	have_private_ns = true;
	return 0;
}

/* The root again, by its path, in the namespace we are in now: a file
 * opened through the old namespace's mounts cannot be bound into the new
 * one. It must be the directory ctx->root_fd is (-ESTALE otherwise: it
 * was moved or replaced meanwhile). */
static int reopen_root(const struct halo_ctx *ctx, int *ret_fd)
{
	struct stat now, before;
	int fd = open(ctx->root, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &now) < 0 || fstat(ctx->root_fd, &before) < 0 ||
	    now.st_dev != before.st_dev || now.st_ino != before.st_ino) {
		close(fd);
		return -ESTALE;
	}
	*ret_fd = fd;
	return 0;
}

/* Opens the root's /proc/cmdline (O_PATH) through ROOT_FD, a regular
 * file or refused: 0, -ENOENT (absent), or -errno with *RET_WHY. */
static int open_cmdline(const struct halo_ctx *ctx, int root_fd, int *ret_fd, char **ret_why)
{
	struct halo_ctx in = *ctx;
	_cleanup_close_ int fd = -1;
	struct stat st;
	int r;

	in.root_fd = root_fd;
	r = halo_root_openat(&in, PROC_CMDLINE, O_PATH, 0, &fd);
	if (r == -ENOENT) {
		/* Absent, unless a symlink that leaves the root hides it. */
		r = halo_root_explain_missing(ctx, PROC_CMDLINE, ret_why);
		return r < 0 ? r : -ENOENT;
	}
	if (r < 0) {
		*ret_why = halo_root_read_error(ctx, PROC_CMDLINE, r);
		return r;
	}
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode)) {
		r = S_ISDIR(st.st_mode) ? -EISDIR : -HALO_ENOTREG;
		*ret_why = halo_root_read_error(ctx, PROC_CMDLINE, r);
		return r;
	}
	*ret_fd = TAKE_FD(fd);
	return 0;
}

int halo_kmod_cmdline_shadow(struct halo_ctx *ctx, bool *ret_shadowed, char **ret_why)
{
	_cleanup_close_ int root = -1, fd = -1;
	char src[64] = "/dev/null"; /* no command line in the root: an empty one */
	int r;

	*ret_shadowed = false;
	if (!ctx->under_root)
		return 0;
	/* Refusals first, in the file layer's words. */
	r = open_cmdline(ctx, ctx->root_fd, &fd, ret_why);
	if (r < 0 && r != -ENOENT)
		return r;
	if (fd >= 0)
		close(TAKE_FD(fd));
	r = private_ns();
	if (r >= 0)
		r = reopen_root(ctx, &root);
	/* The run walks the root through this namespace's mounts from now
	 * on. The one we left ends when we were its last process, and with
	 * it every mount below the root that a walk from the old descriptor
	 * would cross: a read-only bind mount would be written through, a
	 * filesystem mounted at /boot written under. */
	if (r >= 0)
		r = halo_root_rebind(ctx, root);
	if (r >= 0) {
		r = open_cmdline(ctx, root, &fd, ret_why);
		if (r == 0)
			snprintf(src, sizeof(src), "/proc/self/fd/%d", fd);
		else if (r == -ENOENT)
			r = 0;
		else
			return r; /* changed under us: refused all the same */
	}
	if (r >= 0 && mount(src, PROC_CMDLINE, "none", MS_BIND, NULL) < 0)
		r = -errno;
	if (r < 0) {
		*ret_why = halo_strdup_printf("under --root, libkmod would read the build host's "
					      "/proc/cmdline; hiding it needs a mount namespace "
					      "of this process (CAP_SYS_ADMIN): %s", strerror(-r));
		return r;
	}
	*ret_shadowed = true;
	return 0;
}

void halo_kmod_cmdline_unshadow(bool shadowed)
{
	if (shadowed)
		(void)umount2(PROC_CMDLINE, MNT_DETACH);
}
