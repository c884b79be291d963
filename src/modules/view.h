/* SPDX-License-Identifier: GPL-2.0-or-later */
/* view.h: the staging directory libkmod reads (view.c), private to the
 * view's files. */
#pragma once

#include "halo.h"
#include "modules/internal.h"

struct halo_kmod_view {
	const struct halo_ctx *ctx;
	char *dir;      /* the staging directory */
	int dfd;
	bool detached;  /* dfd is a tmpfs mounted nowhere: closing frees it */
	char *moddir;   /* <dir>/m: libkmod's module directory */
	char *root_moddir; /* /lib/modules/<release>, inside the root */
	char *conf[HALO_MODPROBE_N_DIRS + 1];
	int *fds;
	size_t n_fds;
	char **blacklist;
	char *depidx;   /* modules.dep.bin, read once */
	size_t depidx_len;
};

/* "DIR/NAME" as the root's display path shows it. Caller frees. */
char *halo_kmod_view_where(const struct halo_ctx *ctx, const char *dir, const char *name);

/* Opens DIR/NAME inside the root as an O_PATH descriptor of a regular
 * file. -ENOENT (no *ret_why) when it plainly does not exist; any other
 * failure sets *ret_why, a one-line reason naming the file. */
int halo_kmod_view_open_regular(const struct halo_ctx *ctx, const char *dir, const char *name,
				int *ret_fd, char **ret_why);

/* Enters FD (taken) into the view as REL, a symlink to /proc/self/fd/N. */
int halo_kmod_view_link(struct halo_kmod_view *v, int fd, const char *rel);
