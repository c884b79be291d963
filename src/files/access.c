/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * access.c: access.gpu_group and access.rdma_group as a udev rule of our
 * own (templates/70-halo-access.rules): the GPU nodes get the group and
 * mode the config asks for; of /dev/infiniband only umad* and issm*, the
 * nodes whose kernel default (root-only) is not what a group wants
 * (uverbs* and rdma_cm are 0666 already: docs/hardware.md "udev and device groups"). Each group must exist
 * in the root's /etc/group: udev would ignore an unknown one at boot,
 * leaving the devices as they were, so it is a validation error here.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "files/access.h"
#include "engine/revert.h"
#include "files/files.h"
#include "files/group.h"
#include "util/rootfs.h"
#include "util/strv.h"
#include "util/template.h"

int halo_access_render(const struct halo_access_config *a, char **ret)
{
	_cleanup_free_ char *gpu = NULL, *rdma = NULL;
	unsigned mode = a->gpu_mode ? a->gpu_mode : HALO_GPU_MODE_DEFAULT;

	if (!a->gpu_group && !a->rdma_group)
		return -EINVAL;
	/* Group names were checked by the config parser (letters, digits,
	 * '_' and '-'): nothing in them can end the quoted value. */
	if (a->gpu_group)
		gpu = halo_strdup_printf(
			"SUBSYSTEM==\"kfd\", KERNEL==\"kfd\", GROUP=\"%s\", MODE=\"%04o\"\n"
			"SUBSYSTEM==\"drm\", KERNEL==\"renderD*\", GROUP=\"%s\", MODE=\"%04o\"",
			a->gpu_group, mode, a->gpu_group, mode);
	else
		gpu = strdup("# access.gpu_group is not set: /dev/kfd and /dev/dri/renderD* keep "
			     "their defaults.");
	if (a->rdma_group)
		rdma = halo_strdup_printf("SUBSYSTEM==\"infiniband_mad\", KERNEL==\"umad*|issm*\", "
					  "GROUP=\"%s\", MODE=\"0660\"", a->rdma_group);
	else
		rdma = strdup("# access.rdma_group is not set: umad* and issm* stay root-only.");
	if (!gpu || !rdma)
		return -ENOMEM;
	return halo_template_render("70-halo-access.rules",
				    (const char *const[]){ "GPU_RULES", gpu, "RDMA_RULES", rdma, NULL },
				    ret);
}

/* KEY's group must be in the root's /etc/group; reported into ERRS. */
static int check_group(struct halo_ctx *ctx, const struct halo_config *cfg, const char *key,
		       const char *name, int line, struct halo_errors *errs)
{
	_cleanup_free_ char *shown = halo_root_display_path(ctx, HALO_ETC_GROUP);
	int r = halo_group_lookup(ctx, name, NULL);

	if (!shown)
		return -ENOMEM;
	if (r == 1)
		return 0;
	if (r == 0)
		halo_errors_add(errs, "%s:%d: access.%s: group \"%s\" is not in %s "
				"(udev would ignore it; create the group first)",
				cfg->path, line, key, name, shown);
	else {
		/* What is there, or the symlink that leaves the root, in the
		 * file layer's words (util/rootfs.h). */
		_cleanup_free_ char *why = NULL;

		if (r == -ENOENT && halo_root_explain_missing(ctx, HALO_ETC_GROUP, &why) == 0)
			halo_errors_add(errs, "%s:%d: access.%s: cannot check group \"%s\": %s does "
					"not exist", cfg->path, line, key, name, shown);
		else if ((why = why ? why : halo_root_read_error(ctx, HALO_ETC_GROUP, r)))
			halo_errors_add(errs, "%s:%d: access.%s: cannot check group \"%s\": %s",
					cfg->path, line, key, name, why);
		else
			return -ENOMEM;
	}
	return 0;
}

int halo_files_access_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
			   struct halo_plan *plan, struct halo_errors *errs)
{
	const struct halo_access_config *a = &cfg->access;
	_cleanup_free_ char *content = NULL;
	struct halo_item *item;
	size_t n_errs = errs->n;
	struct stat st;
	int r;

	if (!a->present)
		return 0;
	if (!a->gpu_group && !a->rdma_group) {
		/* Nothing asked for: a rule of ours left by an earlier
		 * config goes; otherwise stay out of rules.d. */
		if (halo_root_lstat(ctx, HALO_ACCESS_RULES, &st) < 0)
			return 0;
		return halo_plan_add_revert_file(plan, HALO_SUB_FILES, HALO_PHASE_FILES,
						 HALO_ACCESS_RULES, NULL);
	}
	/* A revert only removes the rule: the groups need not exist. */
	if (a->gpu_group && !ctx->revert &&
	    (r = check_group(ctx, cfg, "gpu_group", a->gpu_group, a->gpu_group_line, errs)) < 0)
		return r;
	if (a->rdma_group && !ctx->revert &&
	    (r = check_group(ctx, cfg, "rdma_group", a->rdma_group, a->rdma_group_line, errs)) < 0)
		return r;
	if (errs->n != n_errs)
		return 0;
	r = halo_access_render(a, &content);
	if (r < 0)
		return r;
	r = halo_plan_add_file(plan, HALO_SUB_FILES, HALO_PHASE_FILES, HALO_ACCESS_RULES,
			       content, 0644, &item);
	if (r < 0)
		return r;
	return halo_item_set_note(item,
		"udev applies a change to devices added from then on: reboot, or udevadm control "
		"--reload and udevadm trigger --subsystem-match=kfd --subsystem-match=drm "
		"--subsystem-match=infiniband_mad");
}
