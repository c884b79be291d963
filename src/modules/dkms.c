/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dkms.c: is the amdgpu in use the out-of-tree amdgpu-dkms driver? It
 * brings its own TTM as the module amdttm, so the GTT limit is then
 * amdttm.pages_limit instead of ttm.pages_limit (FACTS.md section 2).
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "modules/internal.h"
#include "modules/modules.h"
#include "util/rootfs.h"

/* Where DKMS and distribution kABI packages put out-of-tree modules:
 * Debian/Ubuntu updates/dkms, Fedora/RHEL extra (and weak-updates links). */
static const char *const dkms_dirs[] = { "updates/", "extra/", "weak-updates/" };

int halo_modules_amdgpu_is_dkms(struct halo_ctx *ctx, bool *ret_dkms)
{
	_cleanup_modinfo_ struct halo_modinfo *mi = NULL;
	/* A refused file is the modules section's error to report. */
	_cleanup_free_ char *why = NULL, *why2 = NULL;
	struct halo_kmod *k;
	int r;

	r = halo_root_exists(ctx, "/sys/module/amdttm");
	if (r < 0)
		return r;
	if (r > 0) {
		*ret_dkms = true;
		return 0;
	}
	r = halo_kmod_get(ctx, &k, &why);
	if (r == -ENOENT) {
		*ret_dkms = false; /* no module tree for this kernel: in-tree assumed */
		return 0;
	}
	if (r < 0)
		return r;
	r = halo_kmod_lookup(k, "amdgpu", &mi, &why2);
	if (r == -ENOENT) {
		*ret_dkms = false;
		return 0;
	}
	if (r < 0)
		return r;
	*ret_dkms = false;
	for (size_t i = 0; mi->relpath && i < ARRAY_SIZE(dkms_dirs); i++)
		if (strncmp(mi->relpath, dkms_dirs[i], strlen(dkms_dirs[i])) == 0)
			*ret_dkms = true;
	return 0;
}
