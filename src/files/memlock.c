/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memlock.c: access.memlock as the limit of login sessions (a pam_limits
 * drop-in in /etc/security/limits.d) and of what the system and user
 * managers start (DefaultLimitMEMLOCK= drop-ins): RDMA memory registration
 * fails above RLIMIT_MEMLOCK, and rootless podman cannot raise its soft
 * limit above the session's hard one (docs/hardware.md "memlock"). Soft and hard are both
 * the configured value. Each file is read when a session or manager
 * starts, so every item says that a re-login (or reboot) is needed.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/stat.h>

#include "files/access.h"
#include "engine/revert.h"
#include "files/files.h"
#include "util/rootfs.h"
#include "util/strv.h"
#include "util/template.h"

static int render(const char *tmpl, const char *value, char **ret)
{
	return halo_template_render(tmpl, (const char *const[]){ "VALUE", value, NULL }, ret);
}

int halo_memlock_render_limits(const struct halo_access_config *a, char **ret)
{
	char v[32];

	if (!a->memlock_set)
		return -EINVAL;
	if (a->memlock_unlimited)
		snprintf(v, sizeof(v), "unlimited");
	else
		snprintf(v, sizeof(v), "%" PRIu64, a->memlock_kib); /* pam_limits: KiB */
	return render("90-halo-limits.conf", v, ret);
}

int halo_memlock_render_systemd(const struct halo_access_config *a, char **ret)
{
	char v[32];

	if (!a->memlock_set)
		return -EINVAL;
	/* systemd takes bytes, with K = 1024 as the unit suffix. */
	if (a->memlock_unlimited)
		snprintf(v, sizeof(v), "infinity");
	else
		snprintf(v, sizeof(v), "%" PRIu64 "K", a->memlock_kib);
	return render("90-halo-systemd-memlock.conf", v, ret);
}

static const struct {
	const char *path;
	int (*render)(const struct halo_access_config *a, char **ret);
	const char *when;
} files[] = {
	{ HALO_MEMLOCK_LIMITS, halo_memlock_render_limits,
	  "pam_limits reads it at login: after a change, log in again (or reboot)" },
	{ HALO_MEMLOCK_SYSTEM, halo_memlock_render_systemd,
	  "the system manager reads it when it starts: after a change, reboot (or systemctl "
	  "daemon-reexec) for services to get the new limit" },
	{ HALO_MEMLOCK_USER, halo_memlock_render_systemd,
	  "each user manager reads it when it starts: after a change, log out of every "
	  "session and in again (or reboot)" },
};

int halo_files_memlock_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
			    struct halo_plan *plan, struct halo_errors *errs)
{
	const struct halo_access_config *a = &cfg->access;

	(void)errs; /* the value was validated by the config parser */
	if (!a->present)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		_cleanup_free_ char *content = NULL;
		struct halo_item *item;
		struct stat st;
		int r;

		if (!a->memlock_set) {
			/* No longer asked for: a drop-in of ours goes. */
			if (halo_root_lstat(ctx, files[i].path, &st) < 0)
				continue;
			r = halo_plan_add_revert_file(plan, HALO_SUB_FILES, HALO_PHASE_FILES,
						      files[i].path, NULL);
			if (r < 0)
				return r;
			continue;
		}
		r = files[i].render(a, &content);
		if (r < 0)
			return r;
		r = halo_plan_add_file(plan, HALO_SUB_FILES, HALO_PHASE_FILES, files[i].path,
				       content, 0644, &item);
		if (r < 0)
			return r;
		(void)halo_item_set_note(item, "%s", files[i].when);
	}
	return 0;
}
