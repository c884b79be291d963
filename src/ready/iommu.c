/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iommu.c: ready/iommu, the IOMMU mode the running kernel booted with
 * (the last iommu= of /proc/cmdline; none: the kernel's default,
 * translated) against boot.iommu, and whether an IOMMU is there at all
 * (/sys/kernel/iommu_groups is empty when it is off in the firmware).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ready/ready.h"
#include "util/rootfs.h"
#include "util/strv.h"

/* The value of the last iommu= word of CMDLINE in BUF, "" when none.
 * Quotes do not matter here: iommu= values never hold blanks. */
static void last_iommu(const char *cmdline, char *buf, size_t len)
{
	const char *p = cmdline;

	buf[0] = '\0';
	while (*p) {
		size_t n;

		p += strspn(p, " \t\n");
		n = strcspn(p, " \t\n");
		if (n > 6 && strncmp(p, "iommu=", 6) == 0)
			snprintf(buf, len, "%.*s", (int)(n - 6), p + 6);
		p += n;
	}
}

int halo_ready_iommu_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_ready_want *w = item->data;
	_cleanup_free_ char *cmdline = NULL;
	_cleanup_(halo_strv_freep) char **groups = NULL;
	char mode[64];
	size_t n = 0;
	int r;

	(void)halo_item_set_wanted(item, "%s", w->iommu ? w->iommu : "not configured");
	r = halo_ready_read_line(ctx, "/proc/cmdline", &cmdline);
	if (r == -ENOENT) {
		(void)halo_item_set_message(item, "/proc/cmdline is absent in the root");
		return HALO_SYNC_UNSUPPORTED;
	}
	if (r < 0)
		return halo_item_fail(item, r, "reading /proc/cmdline");
	last_iommu(cmdline, mode, sizeof(mode));
	r = halo_root_list_dir(ctx, "/sys/kernel/iommu_groups", &groups);
	if (r < 0 && r != -ENOENT)
		return halo_item_fail(item, r, "listing /sys/kernel/iommu_groups");
	n = groups ? halo_strv_len(groups) : 0;
	(void)halo_item_set_observed(item, "%s, %zu IOMMU groups", mode[0] ? mode : "default", n);
	if (w->iommu && strcmp(mode, w->iommu) != 0) {
		(void)halo_item_set_message(item, "the running kernel booted with %s%s, the config asks "
					    "iommu=%s: reboot (the boot items set it)",
					    mode[0] ? "iommu=" : "no iommu=", mode, w->iommu);
		return HALO_SYNC_DIFFERS;
	}
	/* pt and nopt mean nothing without an IOMMU; off and soft do not
	 * want one. */
	if (w->iommu && n == 0 && (strcmp(w->iommu, "pt") == 0 || strcmp(w->iommu, "nopt") == 0 ||
				   strcmp(w->iommu, "force") == 0)) {
		(void)halo_item_set_message(item, "no IOMMU groups: the IOMMU is off in the firmware; "
					    "enable IOMMU (AMD-Vi) in the BIOS");
		return HALO_SYNC_DIFFERS;
	}
	return HALO_SYNC_OK;
}
