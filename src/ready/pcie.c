/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcie.c: ready/<entry>/pcie-link. A NIC in a slot narrower or slower than
 * it can use (an x16 card behind an x4 riser) trains below its maximum and
 * caps the port. The kernel's attributes (drivers/pci/pci-sysfs.c, shown
 * for PCIe functions only, pcie_dev_attrs_are_visible()):
 *   current_link_speed, current_link_width  Link Status: what trained
 *                                          (current_link_*_show())
 *   max_link_speed, max_link_width          Link Capabilities: what the
 *                                          function supports
 *                                          (pcie_get_speed_cap(),
 *                                          pcie_get_width_cap())
 * A link trains to what both ends support, so the NIC's maximum is only
 * reachable when the port above it (its upstream bridge: the parent
 * directory of the function in /sys/devices) supports it too. An x16 NIC
 * at x4 in a slot whose port is x4 (the Framework Desktop's is, and a
 * riser never adds lanes) is at its maximum: ok, with the ceiling said.
 * Drift is a link below what both ends support.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
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
	/* The upstream port's maximum, 0 when unknown (no bridge above: a
	 * function on a root bus; "Unknown", the kernel's pci_speed_string()
	 * for a speed it cannot name; a width of 0). */
	double slot_gts;
	uint64_t slot_w;
};

/* The port above PCI: its max_link_speed and max_link_width, through the
 * parent of the function's own directory (".." after the bus's symlink
 * resolves to the bridge, as the kernel walks it). An absent attribute is
 * an unknown slot; a value that is no speed or width fails the item. */
static int read_slot(struct halo_ctx *ctx, struct halo_item *item, const char *pci,
		     struct link *l)
{
	_cleanup_free_ char *s = NULL;
	char path[128];
	int r;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/../max_link_speed", pci);
	r = halo_ready_read_line(ctx, path, &s);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return halo_item_fail(item, r, "reading %s", path);
	if (strcmp(s, "Unknown") != 0 && halo_pcie_speed_parse(s, &l->slot_gts) < 0)
		return halo_item_fail(item, -EBADMSG, "%s: \"%s\" is not a link speed", path, s);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/../max_link_width", pci);
	r = halo_ready_read_u64(ctx, path, &l->slot_w);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return halo_item_fail(item, r, r == -EBADMSG ? "%s is not a link width" : "reading %s",
				      path);
	return 0;
}

/* The function's own link. "Unknown" (pci_speed_string() for a speed
 * code it cannot name: a link that is down, a virtual function, whose
 * Link Status reads zero, or a speed newer than the kernel) is -ENODATA,
 * with NAME the attribute that said it. */
static int read_link(struct halo_ctx *ctx, struct halo_item *item, const char *pci,
		     struct link *l, const char **name)
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
		*name = names[i];
		if (strcmp(s, "Unknown") == 0)
			return -ENODATA;
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
	const char *name = NULL;
	struct link l = { 0 };
	double cur, max, best_gts;
	uint64_t port, best_w;
	char slot[48] = "", tail[96] = "";
	int r;

	(void)halo_item_set_wanted(item, "the device's maximum link");
	if (!w->pci[0]) {
		(void)halo_item_set_message(item, "%s", w->why_no_pci);
		return HALO_SYNC_UNSUPPORTED;
	}
	r = read_link(ctx, item, w->pci, &l, &name);
	if (r == -ENOENT) {
		(void)halo_item_set_message(item, "%s has no PCIe link attributes in sysfs", w->pci);
		return HALO_SYNC_UNSUPPORTED;
	}
	if (r == -ENODATA || (r == 0 && (!l.cur_w || !l.max_w))) {
		(void)halo_item_set_observed(item, "%s: %s %s", w->pci, r ? name : "link width",
					     r ? "Unknown" : "0");
		(void)halo_item_set_message(item, "%s (%s) reports no PCIe link to compare (%s %s): "
					    "a virtual function, a link that is down, or a speed "
					    "this kernel cannot name", w->entry, w->pci,
					    r ? name : "link width", r ? "\"Unknown\"" : "0");
		return HALO_SYNC_UNSUPPORTED;
	}
	if (r < 0)
		return r;
	r = read_slot(ctx, item, w->pci, &l);
	if (r < 0)
		return r;
	/* What both ends support: the most the link can train to. */
	best_w = l.slot_w && l.slot_w < l.max_w ? l.slot_w : l.max_w;
	best_gts = l.slot_gts > 0 && l.slot_gts < l.max_gts ? l.slot_gts : l.max_gts;
	if (l.slot_w || l.slot_gts > 0) {
		char sw[24] = "x?", ss[24] = "? GT/s";

		if (l.slot_w)
			snprintf(sw, sizeof(sw), "x%" PRIu64, l.slot_w);
		if (l.slot_gts > 0)
			snprintf(ss, sizeof(ss), "%.1f GT/s", l.slot_gts);
		snprintf(slot, sizeof(slot), ", slot %s %s", sw, ss);
	}
	cur = halo_pcie_ceiling_gbps(l.cur_gts, (unsigned)l.cur_w);
	max = halo_pcie_ceiling_gbps(l.max_gts, (unsigned)l.max_w);
	port = port_mbps(ctx, w->ifname);
	if (port)
		snprintf(tail, sizeof(tail), "; the %" PRIu64 "G port %s", port / 1000,
			 cur * 1000 < (double)port ? "is capped by it" : "fits");
	(void)halo_item_set_observed(item, "%s: x%" PRIu64 " %.1f GT/s of x%" PRIu64 " %.1f GT/s%s, "
				     "ceiling ~%.0f Gb/s%s", w->pci, l.cur_w, l.cur_gts, l.max_w,
				     l.max_gts, slot, cur, tail);
	if (l.cur_w >= best_w && l.cur_gts >= best_gts) {
		bool narrow = best_w < l.max_w, slow = best_gts < l.max_gts;

		if (narrow || slow)
			(void)halo_item_set_message(item, "%s (%s) is at the most it and its slot both "
						    "support, x%" PRIu64 " %.1f GT/s: ~%.0f of the ~%.0f "
						    "Gb/s the NIC could use in a %s slot",
						    w->entry, w->pci, l.cur_w, l.cur_gts, cur, max,
						    narrow && slow ? "wider and faster" :
						    narrow ? "wider" : "faster");
		return HALO_SYNC_OK;
	}
	if (slot[0])
		(void)halo_item_set_message(item, "%s (%s) trained at x%" PRIu64 " %.1f GT/s, below "
					    "the x%" PRIu64 " %.1f GT/s both it and its slot support: "
					    "~%.0f of ~%.0f Gb/s; reseat it (and its riser), check "
					    "the BIOS link speed setting",
					    w->entry, w->pci, l.cur_w, l.cur_gts, best_w, best_gts, cur,
					    halo_pcie_ceiling_gbps(best_gts, (unsigned)best_w));
	else
		(void)halo_item_set_message(item, "%s (%s) trained at x%" PRIu64 " %.1f GT/s, below its "
					    "x%" PRIu64 " %.1f GT/s: ~%.0f of ~%.0f Gb/s; move it to a full "
					    "slot (no riser), check the BIOS link speed setting",
					    w->entry, w->pci, l.cur_w, l.cur_gts, l.max_w, l.max_gts, cur, max);
	return HALO_SYNC_DIFFERS;
}
