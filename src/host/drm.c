/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * drm.c: finds the amdgpu card by the driver bound to each card's device,
 * the one fact both the GTT sizing and the readiness items rest on (see
 * docs/hardware.md "GTT and TTM sizing").
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "host/drm.h"
#include "util/rootfs.h"
#include "util/strv.h"

int halo_host_amdgpu_card(struct halo_ctx *ctx, char **ret_dir)
{
	_cleanup_strv_free_ char **names = NULL;
	int r = halo_root_list_dir(ctx, "/sys/class/drm", &names);

	if (r < 0)
		return r == -ENOTDIR ? -ENOENT : r;
	for (size_t i = 0; names[i]; i++) {
		_cleanup_free_ char *path = NULL, *uevent = NULL;
		const char *n = names[i];
		size_t len;

		/* card1, not its connectors (card1-eDP-1) */
		if (strncmp(n, "card", 4) != 0 || !n[4] ||
		    strspn(n + 4, "0123456789") != strlen(n + 4))
			continue;
		path = halo_strdup_printf("/sys/class/drm/%s/device/uevent", n);
		if (!path)
			return -ENOMEM;
		if (halo_read_file(ctx, path, &uevent, &len) < 0)
			continue;
		if (strncmp(uevent, "DRIVER=amdgpu\n", 14) == 0 ||
		    strstr(uevent, "\nDRIVER=amdgpu\n")) {
			*ret_dir = halo_strdup_printf("/sys/class/drm/%s/device", n);
			return *ret_dir ? 0 : -ENOMEM;
		}
	}
	return -ENOENT;
}
