/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysmodule.c: what the kernel under the root has loaded, from
 * /sys/module/<name>/initstate and parameters/, and the kernel release in
 * /proc/sys/kernel/osrelease, all read through util/rootfs.h.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "modules/internal.h"
#include "util/rootfs.h"
#include "util/strv.h"

static void chomp(char *s, size_t *len)
{
	while (*len > 0 && (s[*len - 1] == '\n' || s[*len - 1] == ' '))
		s[--*len] = '\0';
}

int halo_sysmodule_state(const struct halo_ctx *ctx, const char *name,
			 enum halo_modstate *ret)
{
	_cleanup_free_ char *path = NULL, *dir = NULL, *buf = NULL;
	struct stat st;
	size_t len;
	int r;

	path = halo_strdup_printf("/sys/module/%s/initstate", name);
	if (!path)
		return -ENOMEM;
	r = halo_read_file(ctx, path, &buf, &len);
	if (r == -ENOENT) {
		/* A built-in module with parameters has a directory but no
		 * initstate (one without parameters has neither: the caller
		 * knows those from modules.builtin). */
		dir = halo_strdup_printf("/sys/module/%s", name);
		if (!dir)
			return -ENOMEM;
		r = halo_root_lstat(ctx, dir, &st);
		if (r == -ENOENT) {
			*ret = HALO_MODSTATE_ABSENT;
			return 0;
		}
		if (r < 0)
			return r;
		*ret = S_ISDIR(st.st_mode) ? HALO_MODSTATE_BUILTIN : HALO_MODSTATE_ABSENT;
		return 0;
	}
	if (r < 0)
		return r;
	chomp(buf, &len);
	if (strcmp(buf, "live") == 0)
		*ret = HALO_MODSTATE_LIVE;
	else if (strcmp(buf, "coming") == 0)
		*ret = HALO_MODSTATE_COMING;
	else if (strcmp(buf, "going") == 0)
		*ret = HALO_MODSTATE_GOING;
	else
		return -EBADMSG;
	return 0;
}

int halo_sysmodule_param(const struct halo_ctx *ctx, const char *name,
			 const char *param, char **ret_value)
{
	_cleanup_free_ char *path = NULL;
	char *buf;
	size_t len;
	int r;

	path = halo_strdup_printf("/sys/module/%s/parameters/%s", name, param);
	if (!path)
		return -ENOMEM;
	r = halo_read_file(ctx, path, &buf, &len);
	if (r < 0)
		return r;
	chomp(buf, &len);
	*ret_value = buf;
	return 0;
}

bool halo_sysmodule_kernel_running(const struct halo_ctx *ctx)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;

	if (!ctx->kernel_release ||
	    halo_read_file(ctx, "/proc/sys/kernel/osrelease", &buf, &len) < 0)
		return false;
	chomp(buf, &len);
	return strcmp(buf, ctx->kernel_release) == 0;
}
