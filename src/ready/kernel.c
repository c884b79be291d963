/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kernel.c: ready/kernel, the running kernel (the root's
 * /proc/sys/kernel/osrelease) against ready.kernel_min: older kernels lack
 * the Strix Halo amdgpu/GTT fixes. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "config/kernel-version.h"
#include "ready/ready.h"

#define OSRELEASE "/proc/sys/kernel/osrelease"

int halo_ready_kernel_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_ready_want *w = item->data;
	const unsigned *m = w->kernel_min;
	_cleanup_free_ char *rel = NULL;
	unsigned v[3];
	int r;

	(void)halo_item_set_wanted(item, ">= %u.%u.%u", m[0], m[1], m[2]);
	r = halo_ready_read_line(ctx, OSRELEASE, &rel);
	if (r == -ENOENT) {
		(void)halo_item_set_message(item, "%s is absent in the root: no running kernel to "
					    "check", OSRELEASE);
		return HALO_SYNC_UNSUPPORTED;
	}
	if (r < 0)
		return halo_item_fail(item, r, "reading %s", OSRELEASE);
	(void)halo_item_set_observed(item, "%s", rel);
	if (halo_kernel_version_parse(rel, v, NULL) < 0) {
		(void)halo_item_set_message(item, "%s: \"%s\" is not a kernel release", OSRELEASE, rel);
		return HALO_SYNC_UNSUPPORTED;
	}
	if (halo_kernel_version_cmp(v, m) >= 0)
		return HALO_SYNC_OK;
	(void)halo_item_set_message(item, "kernel %u.%u.%u is older than %u.%u.%u: install %u.%u.%u or "
				    "newer (Strix Halo amdgpu/GTT fixes) and reboot into it",
				    v[0], v[1], v[2], m[0], m[1], m[2], m[0], m[1], m[2]);
	return HALO_SYNC_DIFFERS;
}
