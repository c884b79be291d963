/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dkms.c: is the amdgpu in use the out-of-tree amdgpu-dkms driver? It
 * brings its own TTM as the module amdttm, so the GTT limit is then
 * amdttm.pages_limit instead of ttm.pages_limit (docs/hardware.md "amdgpu-dkms").
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "modules/internal.h"
#include "modules/modules.h"
#include "util/rootfs.h"
#include "util/strv.h"

/* Where DKMS and distribution kABI packages put out-of-tree modules:
 * Debian/Ubuntu updates/dkms, Fedora/RHEL extra (and weak-updates links). */
static const char *const dkms_dirs[] = { "updates/", "extra/", "weak-updates/" };

/*
 * Read from the module index itself (modules.dep.bin, the file libkmod
 * would look "amdgpu" up in, read inside the root), not through libkmod:
 * the boot phase then never loads libkmod and the libraries it brings,
 * which cost more than the rest of a boot-only run.
 */
int halo_modules_amdgpu_is_dkms(struct halo_ctx *ctx, bool *ret_dkms)
{
	_cleanup_free_ char *line = NULL;
	const void *index;
	size_t len;
	int r;

	*ret_dkms = false;
	r = halo_root_exists(ctx, "/sys/module/amdttm");
	if (r < 0)
		return r;
	if (r > 0) {
		*ret_dkms = true;
		return 0;
	}
	if (!halo_kernel_release_valid(ctx->kernel_release))
		return -EINVAL;
	/* Kept mapped for the native module reader (modindex.c). */
	r = halo_modindex_get(ctx, &index, &len);
	if (r == -ENOENT)
		return 0; /* no module tree for this kernel: in-tree assumed */
	if (r < 0)
		return r;
	r = halo_depindex_lookup(index, len, "amdgpu", &line);
	if (r == -ENOENT)
		return 0; /* built in, or not there: in-tree */
	if (r < 0)
		return r;
	/* "relpath: dep dep ..." */
	for (size_t i = 0; i < ARRAY_SIZE(dkms_dirs); i++)
		if (strncmp(line, dkms_dirs[i], strlen(dkms_dirs[i])) == 0)
			*ret_dkms = true;
	return 0;
}
