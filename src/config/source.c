/* SPDX-License-Identifier: GPL-2.0-or-later */
/* source.c: the config of a run, from wherever it comes (halo-config.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "config/halo-config.h"
#include "util/rootfs.h"

int halo_config_load_source(const struct halo_ctx *ctx, const struct halo_config_source *src,
			    struct halo_config **ret, struct halo_errors *errs)
{
	int fd, r;

	if (src->args_st) {
		r = halo_config_file_check(src->args_st, src->args_path, "args file",
					   !ctx->under_root, errs);
		if (r < 0)
			return r;
	}
	if (src->text)
		return halo_config_load_string(src->name, src->text, ret, errs);
	if (src->data)
		return halo_config_load_json(src->name, src->data, ret, errs);
	if (!src->in_root) {
		r = halo_config_load(src->name, !ctx->under_root, ret, errs);
		if (r == -ENOENT && src->meant)
			halo_errors_append(errs, " (-c%s: did you mean --%s?)", src->name, src->meant);
		return r;
	}
	/* Resolved inside the root like every other file: an image's
	 * absolute symlink stays in the image. */
	r = halo_root_openat(ctx, HALO_CONFIG_DEFAULT_PATH, O_RDONLY | O_NONBLOCK | O_NOCTTY, 0, &fd);
	if (r < 0) {
		halo_errors_add(errs, "%s: cannot open the config file: %s", src->name,
				strerror(-r));
		return r;
	}
	r = halo_config_load_fd(fd, src->name, !ctx->under_root, ret, errs);
	if (r >= 0 && *ret)
		(*ret)->in_root = true;
	return r;
}
