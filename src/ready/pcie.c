/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcie.c: ready/<entry>/pcie-link. A NIC in a slot narrower or slower than
 * it can use (an x16 card behind an x4 riser) trains below its maximum and
 * caps the port: the link's current_link_width/_speed against max_link_*
 * of its PCI function, and the resulting ceiling next to the port speed.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ready/ready.h"

double halo_pcie_ceiling_gbps(double gts, unsigned width)
{
	/* Gen1/2 spend 2 of 10 bits on encoding, Gen3+ 2 of 130. */
	double enc = gts <= 5.0 ? 8.0 / 10.0 : 128.0 / 130.0;

	return gts * width * enc;
}

int halo_pcie_speed_parse(const char *s, double *ret)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || v <= 0 || strncmp(end, " GT/s", 5) != 0)
		return -EINVAL;
	*ret = v;
	return 0;
}

struct link {
	double cur_gts, max_gts;
	uint64_t cur_w, max_w;
};

static int read_link(struct halo_ctx *ctx, struct halo_item *item, const char *pci,
		     struct link *l)
{
	static const char *const names[] = { "current_link_speed", "max_link_speed" };
	char path[128];
	int r;

	for (int i = 0; i < 2; i++) {
		_cleanup_free_ char *s = NULL;

		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", pci, names[i]);
		r = halo_ready_read_line(ctx, path, &s);
		if (r < 0)
			return r == -ENOENT ? r : halo_item_fail(item, r, "reading %s", path);
		if (halo_pcie_speed_parse(s, i ? &l->max_gts : &l->cur_gts) < 0)
			return halo_item_fail(item, -EBADMSG, "%s: \"%s\" is not a link speed", path, s);
	}
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/current_link_width", pci);
	r = halo_ready_read_u64(ctx, path, &l->cur_w);
	if (r == 0) {
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/max_link_width", pci);
		r = halo_ready_read_u64(ctx, path, &l->max_w);
	}
	if (r < 0 && r != -ENOENT)
		return halo_item_fail(item, r, "reading %s", path);
	return r;
}

/* The port speed in Mb/s from the live link, 0 when unknown (no carrier
 * reads -1 or EINVAL). */
static uint64_t port_mbps(struct halo_ctx *ctx, const char *ifname)
{
	_cleanup_free_ char *s = NULL;
	char path[128];
	long v;

	if (!ifname[0])
		return 0;
	snprintf(path, sizeof(path), "/sys/class/net/%s/speed", ifname);
	if (halo_ready_read_line(ctx, path, &s) < 0)
		return 0;
	v = strtol(s, NULL, 10);
	return v > 0 ? (uint64_t)v : 0;
}

int halo_ready_pcie_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_ready_want *w = item->data;
	struct link l = { 0 };
	double cur, max;
	uint64_t port;
	char tail[96] = "";
	int r;

	(void)halo_item_set_wanted(item, "the device's maximum link");
	if (!w->pci[0]) {
		(void)halo_item_set_message(item, "%s", w->why_no_pci);
		return HALO_SYNC_UNSUPPORTED;
	}
	r = read_link(ctx, item, w->pci, &l);
	if (r == -ENOENT) {
		(void)halo_item_set_message(item, "%s has no PCIe link attributes in sysfs", w->pci);
		return HALO_SYNC_UNSUPPORTED;
	}
	if (r < 0)
		return r;
	cur = halo_pcie_ceiling_gbps(l.cur_gts, (unsigned)l.cur_w);
	max = halo_pcie_ceiling_gbps(l.max_gts, (unsigned)l.max_w);
	port = port_mbps(ctx, w->ifname);
	if (port)
		snprintf(tail, sizeof(tail), "; the %" PRIu64 "G port %s", port / 1000,
			 cur * 1000 < (double)port ? "is capped by it" : "fits");
	(void)halo_item_set_observed(item, "%s: x%" PRIu64 " %.1f GT/s of x%" PRIu64 " %.1f GT/s, "
				     "ceiling ~%.0f Gb/s%s", w->pci, l.cur_w, l.cur_gts, l.max_w,
				     l.max_gts, cur, tail);
	if (l.cur_w >= l.max_w && l.cur_gts >= l.max_gts)
		return HALO_SYNC_OK;
	(void)halo_item_set_message(item, "%s (%s) trained at x%" PRIu64 " %.1f GT/s, below its "
				    "x%" PRIu64 " %.1f GT/s: ~%.0f of ~%.0f Gb/s; move it to a full "
				    "slot (no riser), check the BIOS link speed setting",
				    w->entry, w->pci, l.cur_w, l.cur_gts, l.max_w, l.max_gts, cur, max);
	return HALO_SYNC_DIFFERS;
}
