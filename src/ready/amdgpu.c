/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amdgpu.c: ready/uma-carveout and ready/gtt, the memory split the amdgpu
 * driver actually uses (mem_info_*_total of the card, in bytes). The BIOS
 * UMA carve-out is VRAM taken from RAM before Linux starts; the GTT is
 * what the boot parameters ask for once the kernel honours them.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "host/drm.h"
#include "ready/ready.h"
#include "util/rootfs.h"
#include "util/strv.h"

#define MIB (UINT64_C(1) << 20)

/* The card's ATTR in MiB; UNSUPPORTED or an item failure when absent. */
static int read_mib(struct halo_ctx *ctx, struct halo_item *item, const char *attr,
		    uint64_t *ret)
{
	_cleanup_free_ char *dev = NULL;
	char path[192];
	uint64_t v;
	int r = halo_host_amdgpu_card(ctx, &dev);

	if (r == -ENOENT) {
		(void)halo_item_set_message(item, "no amdgpu card in /sys/class/drm (driver not "
					    "loaded, or no AMD GPU)");
		return HALO_SYNC_UNSUPPORTED;
	}
	if (r < 0)
		return halo_item_fail(item, r, "listing /sys/class/drm");
	snprintf(path, sizeof(path), "%s/%s", dev, attr);
	r = halo_ready_read_u64(ctx, path, &v);
	if (r == -ENOENT) {
		(void)halo_item_set_message(item, "%s is absent", path);
		return HALO_SYNC_UNSUPPORTED;
	}
	if (r < 0)
		return halo_item_fail(item, r, "reading %s", path);
	*ret = v / MIB;
	return HALO_SYNC_OK;
}

int halo_ready_uma_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_ready_want *w = item->data;
	uint64_t mib = 0;
	int r;

	(void)halo_item_set_wanted(item, "<= %" PRIu64 " MiB", w->uma_max_mib);
	r = read_mib(ctx, item, "mem_info_vram_total", &mib);
	if (r != HALO_SYNC_OK)
		return r;
	(void)halo_item_set_observed(item, "%" PRIu64 " MiB", mib);
	if (mib <= w->uma_max_mib)
		return HALO_SYNC_OK;
	(void)halo_item_set_message(item, "the BIOS reserves %" PRIu64 " MiB of RAM as VRAM (UMA): "
				    "set UMA/iGPU memory to the minimum (%" PRIu64 " MiB) in the "
				    "BIOS so the memory goes to GTT", mib, w->uma_max_mib);
	return HALO_SYNC_DIFFERS;
}

int halo_ready_gtt_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_ready_want *w = item->data;
	uint64_t mib = 0;
	int r;

	if (w->gtt_mib)
		(void)halo_item_set_wanted(item, "%" PRIu64 " MiB (boot.gtt_mib)", w->gtt_mib);
	else
		(void)halo_item_set_wanted(item, w->gtt_auto ? "auto (boot items)" : "not configured");
	r = read_mib(ctx, item, "mem_info_gtt_total", &mib);
	if (r != HALO_SYNC_OK)
		return r;
	(void)halo_item_set_observed(item, "%" PRIu64 " MiB", mib);
	/* Without a number to compare, the fact is reported as it is. */
	if (!w->gtt_mib || mib == w->gtt_mib)
		return HALO_SYNC_OK;
	(void)halo_item_set_message(item, "amdgpu uses %" PRIu64 " MiB of GTT, not %" PRIu64 ": "
				    "reboot so the boot parameters apply (newer kernels clip GTT "
				    "to RAM; amdttm. is ignored by the in-tree driver)",
				    mib, w->gtt_mib);
	return HALO_SYNC_DIFFERS;
}
