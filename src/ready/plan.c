/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan.c: the readiness items and the small readers they share. Each item
 * carries the thresholds it compares against (struct halo_ready_want), so
 * observing needs nothing but the root.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/host.h"
#include "ready/ready.h"
#include "util/rootfs.h"

int halo_ready_read_line(struct halo_ctx *ctx, const char *path, char **ret)
{
	char *buf = NULL;
	size_t len;
	int r = halo_read_file(ctx, path, &buf, &len);

	if (r < 0)
		return r;
	buf[strcspn(buf, "\n")] = '\0';
	*ret = buf;
	return 0;
}

int halo_ready_read_u64(struct halo_ctx *ctx, const char *path, uint64_t *ret)
{
	_cleanup_free_ char *s = NULL;
	char *end;
	unsigned long long v;
	int r = halo_ready_read_line(ctx, path, &s);

	if (r < 0)
		return r;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-')
		return -EBADMSG;
	*ret = v;
	return 0;
}

#define OPS(name, fn) static const struct halo_item_ops name = { .observe = fn }
OPS(kernel_ops, halo_ready_kernel_observe);
OPS(pcie_ops, halo_ready_pcie_observe);
OPS(uma_ops, halo_ready_uma_observe);
OPS(gtt_ops, halo_ready_gtt_observe);
OPS(iommu_ops, halo_ready_iommu_observe);
OPS(memlock_ops, halo_ready_memlock_observe);
OPS(firmware_ops, halo_ready_firmware_observe);

static void want_fill(const struct halo_config *cfg, struct halo_ready_want *w)
{
	memcpy(w->kernel_min, cfg->ready.kernel_min, sizeof(w->kernel_min));
	w->uma_max_mib = cfg->ready.uma_max_mib;
	w->gtt_auto = cfg->boot.gtt_set && cfg->boot.gtt_auto;
	w->gtt_mib = cfg->boot.gtt_set && !cfg->boot.gtt_auto ? cfg->boot.gtt_mib : 0;
	w->iommu = cfg->boot.iommu != HALO_IOMMU_UNSET ? halo_iommu_mode_name(cfg->boot.iommu) :
							  NULL;
	/* The rdma guides' own value unless access.memlock says otherwise. */
	w->memlock_unlimited = !cfg->access.memlock_set || cfg->access.memlock_unlimited;
	w->memlock_kib = cfg->access.memlock_kib;
}

/* An item of the node (IFACE NULL) or of one interfaces entry. */
static int add(struct halo_plan *plan, const struct halo_config *cfg, const char *key,
	       const struct halo_interface *iface, const struct halo_item_ops *ops,
	       struct halo_ready_want **ret)
{
	struct halo_item *item;
	int r = halo_plan_add_new(plan, key, HALO_SUB_READY, HALO_READY_PHASE, ops,
				  sizeof(struct halo_ready_want), &item);

	if (r < 0)
		return r;
	item->iface = iface;
	want_fill(cfg, item->data);
	if (ret)
		*ret = item->data;
	return 0;
}

/* The PCI function of an entry: the live link's (the host table, built
 * for the readiness items too), else the configured match.pci (no link
 * matches it now, or a tree under --root without --netns, whose links
 * are not read); otherwise the reason there is none. */
static void entry_pci(struct halo_ctx *ctx, const struct halo_interface *e,
		      struct halo_ready_want *w)
{
	const struct halo_host_link *h = halo_host_find(ctx->host, e->name);

	snprintf(w->entry, sizeof(w->entry), "%s", e->name);
	snprintf(w->ifname, sizeof(w->ifname), "%s", h && h->found ? h->link.name : "");
	if (h && h->found && h->driver)
		snprintf(w->driver, sizeof(w->driver), "%s", h->driver);
	if (h && h->found && h->has_pci) {
		halo_pci_format(&h->pci, w->pci, sizeof(w->pci));
	} else if (h && h->found) {
		snprintf(w->why_no_pci, sizeof(w->why_no_pci), "%s is not on a PCI device (%s)",
			 h->link.name, h->driver ? h->driver : "virtual");
	} else if (e->match.has_pci) {
		halo_pci_format(&e->match.pci, w->pci, sizeof(w->pci));
	} else if (h) {
		snprintf(w->why_no_pci, sizeof(w->why_no_pci),
			 "no link matches %s: its PCI device is not known", e->name);
	} else {
		snprintf(w->why_no_pci, sizeof(w->why_no_pci),
			 "the PCI device of %s is not known: a tree under --root has no links (give --netns, or match.pci)",
			 e->name);
	}
}

int halo_ready_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		    struct halo_plan *plan, struct halo_errors *errs)
{
	struct halo_ready_want *w;
	char key[160];
	int r;

	(void)errs;
	if (!(ctx->only & HALO_SUB_READY))
		return 0;
	/* Host-wide facts; a --interface (hotplug) run looks at its NIC only. */
	if (!ctx->interface) {
		if ((r = add(plan, cfg, "ready/kernel", NULL, &kernel_ops, NULL)) < 0 ||
		    (r = add(plan, cfg, "ready/uma-carveout", NULL, &uma_ops, NULL)) < 0 ||
		    (r = add(plan, cfg, "ready/gtt", NULL, &gtt_ops, NULL)) < 0 ||
		    (r = add(plan, cfg, "ready/iommu", NULL, &iommu_ops, NULL)) < 0 ||
		    (r = add(plan, cfg, "ready/memlock", NULL, &memlock_ops, NULL)) < 0)
			return r;
	}
	for (size_t i = 0; i < cfg->n_interfaces; i++) {
		const struct halo_interface *e = &cfg->interfaces[i];
		const struct halo_host_link *h = halo_host_find(ctx->host, e->name);

		if (h ? !h->selected : ctx->interface && strcmp(e->name, ctx->interface) != 0)
			continue;
		snprintf(key, sizeof(key), "ready/%s/pcie-link", e->name);
		r = add(plan, cfg, key, e, &pcie_ops, &w);
		if (r < 0)
			return r;
		entry_pci(ctx, e, w);
		/* Every entry: one that is no RoCE NIC says so (unsupported). */
		snprintf(key, sizeof(key), "ready/%s/firmware", e->name);
		r = add(plan, cfg, key, e, &firmware_ops, &w);
		if (r < 0)
			return r;
		entry_pci(ctx, e, w);
	}
	return 0;
}
