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
 * root has none: a detached copy of that file's mount (open_tree) attached
 * over /proc/cmdline (move_mount) in a mount namespace of this process's
 * own (unshare(CLONE_NEWNS), every mount made private first, so nothing
 * reaches the host's namespace), removed right after. Nothing of the
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
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/mount.h>

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
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return -errno;
	have_private_ns = true;
	return 0;
}

/* A detached copy of the mount of the file at DFD/PATH (PATH "": DFD
 * itself), made before the namespace changes: a mount of another
 * namespace cannot be bound into ours, a detached one can be attached. */
static int clone_tree(int dfd, const char *path)
{
#if defined(SYS_open_tree)
	int fd = (int)syscall(SYS_open_tree, dfd, path,
			      OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | (*path ? 0 : AT_EMPTY_PATH));

	return fd < 0 ? -errno : fd;
#else
	return -ENOSYS;
#endif
}

static int attach_tree(int tree)
{
#if defined(SYS_move_mount)
	if (syscall(SYS_move_mount, tree, "", AT_FDCWD, PROC_CMDLINE,
		    MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return -errno;
	return 0;
#else
	return -ENOSYS;
#endif
}

int halo_kmod_cmdline_shadow(struct halo_ctx *ctx, bool *ret_shadowed, char **ret_why)
{
	_cleanup_close_ int fd = -1, tree = -1;
	struct stat st;
	int r;

	*ret_shadowed = false;
	if (!ctx->under_root)
		return 0;
	r = halo_root_openat(ctx, PROC_CMDLINE, O_PATH, 0, &fd);
	if (r == -ENOENT) {
		char *why = NULL;

		/* Absent, unless a symlink that leaves the root hides it. */
		r = halo_root_explain_missing(ctx, PROC_CMDLINE, &why);
		if (r < 0) {
			*ret_why = why;
			return r;
		}
		/* No command line in the root: libkmod reads an empty one. */
		r = tree = clone_tree(AT_FDCWD, "/dev/null");
	} else if (r < 0) {
		*ret_why = halo_root_read_error(ctx, PROC_CMDLINE, r);
		return r;
	} else {
		if (fstat(fd, &st) < 0)
			return -errno;
		if (!S_ISREG(st.st_mode)) {
			r = S_ISDIR(st.st_mode) ? -EISDIR : -HALO_ENOTREG;
			*ret_why = halo_root_read_error(ctx, PROC_CMDLINE, r);
			return r;
		}
		r = tree = clone_tree(fd, "");
	}
	if (r >= 0)
		r = private_ns();
	if (r >= 0)
		r = attach_tree(tree);
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
