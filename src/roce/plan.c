/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan.c: each selected interface entry's `roce` group becomes
 * roce/<entry>/... items on the live link the host table matched.
 *
 * What the config loader cannot know is checked here, before anything
 * changes: the link's driver must have RoCE, and what the drivers are
 * known to refuse (docs/hardware.md, "E810 (ice): DCB" and "ConnectX
 * (mlx5): DCB") is refused up front with FILE:LINE.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "host/host.h"
#include "roce/roce.h"
#include "util/strv.h"

/* Ethernet drivers with a RoCE RDMA device (irdma on ice, mlx5_ib on
 * mlx5_core, bnxt_re, qedr, hns_roce, mlx4_ib). */
static const char *const roce_drivers[] = {
	"ice", "mlx5_core", "bnxt_en", "qede", "hns3", "mlx4_en", NULL,
};

static bool has_roce(const char *driver)
{
	for (size_t i = 0; driver && roce_drivers[i]; i++)
		if (strcmp(driver, roce_drivers[i]) == 0)
			return true;
	return false;
}

static enum halo_roce_nic nic_of(const char *driver)
{
	if (driver && strcmp(driver, "ice") == 0)
		return HALO_ROCE_NIC_ICE;
	if (driver && strcmp(driver, "mlx5_core") == 0)
		return HALO_ROCE_NIC_MLX5;
	return HALO_ROCE_NIC_OTHER;
}

static bool host_dcb(const struct halo_roce_config *rc)
{
	return rc->pfc_set || rc->n_dscp_prio || rc->trust != HALO_TRUST_UNSET;
}

/* The checks that need the live link; false when one failed. */
static bool check_entry(const struct halo_config *cfg, const struct halo_host_link *h,
			struct halo_errors *errs)
{
	const struct halo_interface *f = h->entry;
	const struct halo_roce_config *rc = &f->roce;
	const char *file = halo_config_name(cfg);
	bool ok = true;

	if (!has_roce(h->driver)) {
		halo_errors_add(errs, "%s:%d: interface \"%s\": roce: link %s (driver %s) has no RoCE; "
				"roce needs ice, mlx5_core or another RoCE NIC driver",
				file, rc->line, f->name, h->link.name,
				h->driver ? h->driver : "none");
		return false;
	}
	if (nic_of(h->driver) == HALO_ROCE_NIC_ICE && rc->dcbx == HALO_DCBX_FIRMWARE &&
	    host_dcb(rc)) {
		halo_errors_add(errs, "%s:%d: interface \"%s\": roce: ice refuses host PFC and APP "
				"changes while the firmware LLDP agent runs (dcbx = \"firmware\"); "
				"use dcbx = \"host\"", file, rc->line, f->name);
		ok = false;
	}
	/* PCP trust leaves ice one traffic class, and with one TC irdma
	 * sends untagged frames that PFC never pauses (docs/hardware.md
	 * "E810 (ice): DCB"). */
	if (nic_of(h->driver) == HALO_ROCE_NIC_ICE && rc->trust == HALO_TRUST_PCP &&
	    rc->pfc_set && rc->pfc_mask) {
		halo_errors_add(errs, "%s:%d: interface \"%s\": roce: on ice, trust = \"pcp\" with "
				"pfc leaves one traffic class, and irdma then sends untagged frames "
				"that PFC never pauses (lossy); use trust = \"dscp\" with dscp_prio",
				file, rc->pfc_line ? rc->pfc_line : rc->line, f->name);
		ok = false;
	}
	if (rc->trust == HALO_TRUST_DSCP && rc->n_dscp_prio == 0) {
		halo_errors_add(errs, "%s:%d: interface \"%s\": roce.trust: \"dscp\" needs dscp_prio "
				"entries (ice and mlx5 trust DSCP while the APP table has a DSCP entry)",
				file, rc->line, f->name);
		ok = false;
	}
	return ok;
}

/* What applying W's item also does to its link (docs/hardware.md "E810
 * (ice): DCB", "ConnectX (mlx5): DCB"); NULL: nothing known. */
static const char *side_effect(const struct halo_roce_want *w)
{
	bool app = w->kind == HALO_ROCE_DSCP_PRIO || w->kind == HALO_ROCE_TRUST;

	if (w->nic == HALO_ROCE_NIC_ICE && app)
		return "the port reset that ice does on every DCB change, and its default DCB "
		       "(PFC off) when the last DSCP entry goes";
	if (w->nic == HALO_ROCE_NIC_ICE && w->kind == HALO_ROCE_PFC)
		return "the port reset that ice does on every DCB change";
	if (w->nic == HALO_ROCE_NIC_MLX5 && w->kind == HALO_ROCE_PFC)
		return "the carrier flap that mlx5 does on a PFC change";
	return NULL;
}

/* Adds the item WHAT of F; OWNED (may be NULL) becomes its ownership
 * record. */
static int add(struct halo_plan *plan, struct halo_errors *errs,
	       const struct halo_config *cfg, const struct halo_interface *f,
	       const char *what, struct halo_roce_want *w, enum halo_roce_kind kind,
	       const struct halo_owned *owned)
{
	struct halo_item *item;
	char key[300];
	int err;

	w->kind = kind;
	halo_strjoin(key, sizeof(key), "roce/", f->name, "/", what, NULL);
	err = halo_roce_item_add(plan, key, w, f->roce.required, &item);
	if (err == 0) {
		const char *memo = halo_plan_recorded_memo(plan, key);

		item->iface = f;
		item->side_effect = side_effect(w);
		/* mlx5's enable_roce is a driverinit value: set, it waits for
		 * a devlink reload or a reboot (items-dev.c). */
		item->activates_on_reboot = kind == HALO_ROCE_ENABLE && w->nic == HALO_ROCE_NIC_MLX5;
		if (memo && !(item->memo = strdup(memo)))
			err = -ENOMEM;
		if (err == 0 && owned)
			err = halo_item_keep_owned(item, owned);
	}
	if (err == -EEXIST)
		halo_errors_add(errs, "%s:%d: interface \"%s\": %s is configured twice",
				halo_config_name(cfg), f->line, f->name, key);
	else if (err < 0)
		halo_errors_add(errs, "%s: %s", key, strerror(-err));
	return err;
}

/* The DSCP entries the last apply recorded as ours for entry F (under
 * whichever of its items managed the APP table then). */
static int recorded(const struct halo_plan *plan, const struct halo_interface *f,
		    struct halo_owned *ret)
{
	char prio_key[300], trust_key[300];
	const char *const keys[] = { prio_key, trust_key, NULL };

	halo_strjoin(prio_key, sizeof(prio_key), "roce/", f->name, "/dscp-prio", NULL);
	halo_strjoin(trust_key, sizeof(trust_key), "roce/", f->name, "/trust", NULL);
	return halo_plan_recorded(plan, keys, ret);
}

static int plan_entry(struct halo_ctx *ctx, struct halo_plan *plan, struct halo_errors *errs,
		      const struct halo_config *cfg, const struct halo_host_link *h)
{
	const struct halo_interface *f = h->entry;
	const struct halo_roce_config *rc = &f->roce;
	struct halo_roce_want w;
	struct halo_owned prev, none = { 0 };
	int err = recorded(plan, f, &prev);

	if (err < 0) {
		halo_errors_add(errs, "roce/%s: the state file's record of DSCP entries: %s",
				f->name, strerror(-err));
		return err;
	}
	memset(&w, 0, sizeof(w));
	w.exclusive = rc->exclusive;
	w.nic = nic_of(h->driver);
	w.ifindex = h->link.ifindex;
	halo_strjoin(w.ifname, sizeof(w.ifname), h->link.name, NULL);
	if (h->has_pci)
		halo_pci_format(&h->pci, w.pci, sizeof(w.pci));
	w.pfc_mask = rc->pfc_mask;
	/* ice refuses DCB on a bond's port: the items predict the refusal
	 * (observe: HALO_SYNC_INVALID when a change is needed). */
	if (w.nic == HALO_ROCE_NIC_ICE)
		memcpy(w.bond, h->bond, sizeof(w.bond));

	/* First: ice refuses host DCB while its firmware agent runs, and
	 * turning the agent off resets PFC and the APP table. */
	if (err == 0 && w.nic == HALO_ROCE_NIC_ICE &&
	    (rc->dcbx != HALO_DCBX_UNSET || host_dcb(rc))) {
		w.on = rc->dcbx == HALO_DCBX_FIRMWARE;
		err = add(plan, errs, cfg, f, "fw-lldp-agent", &w, HALO_ROCE_FW_LLDP, NULL);
	}
	if (err == 0 && rc->enable != HALO_UNSET) {
		w.on = rc->enable == HALO_TRUE;
		err = add(plan, errs, cfg, f, "enable", &w, HALO_ROCE_ENABLE, NULL);
	}
	if (err == 0 && rc->dcbx != HALO_DCBX_UNSET) {
		w.dcbx = rc->dcbx;
		err = add(plan, errs, cfg, f, "dcbx", &w, HALO_ROCE_DCBX, NULL);
	}
	if (err == 0 && rc->pfc_set)
		err = add(plan, errs, cfg, f, "pfc", &w, HALO_ROCE_PFC, NULL);
	/* The APP table's item carries the record: dscp-prio, else trust =
	 * "pcp"; with neither, a non-empty record still plans dscp-prio with
	 * an empty map, so the entries we added and nobody wants go. */
	if (err == 0 && (rc->n_dscp_prio || (rc->trust == HALO_TRUST_UNSET && prev.n))) {
		for (size_t i = 0; i < rc->n_dscp_prio && i < HALO_ROCE_DSCP_MAX; i++)
			w.app[w.n_app++] = (struct dcb_app){
				.selector = IEEE_8021QAZ_APP_SEL_DSCP,
				.priority = rc->dscp_prio[i].prio,
				.protocol = rc->dscp_prio[i].dscp,
			};
		err = add(plan, errs, cfg, f, "dscp-prio", &w, HALO_ROCE_DSCP_PRIO, &prev);
	}
	if (err == 0 && rc->trust != HALO_TRUST_UNSET) {
		w.trust_dscp = rc->trust == HALO_TRUST_DSCP;
		err = add(plan, errs, cfg, f, "trust", &w, HALO_ROCE_TRUST,
			  w.trust_dscp ? &none : &prev);
	}
	if (err == 0 && rc->ecn_set) {
		w.ecn_mask = rc->ecn_mask;
		w.ecn_exclusive = rc->ecn_exclusive;
		err = add(plan, errs, cfg, f, "ecn", &w, HALO_ROCE_ECN, NULL);
	}
	return err;
}

int halo_roce_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		   struct halo_plan *plan, struct halo_errors *errs)
{
	const struct halo_host *host = ctx->host;
	bool bad = false;
	int err;

	if (!(ctx->only & HALO_SUB_ROCE) || !host)
		return 0;
	for (size_t i = 0; i < host->n; i++) {
		const struct halo_host_link *h = &host->links[i];

		if (h->selected && h->found && h->entry->roce.present &&
		    !check_entry(cfg, h, errs))
			bad = true;
	}
	if (bad)
		return -EINVAL;
	for (size_t i = 0; i < host->n; i++) {
		const struct halo_host_link *h = &host->links[i];

		if (!h->selected || !h->entry->roce.present)
			continue;
		/* Not there yet: its link/<name>/present item says so; the
		 * apply plans again once the modules phase brought it. */
		if (!h->found) {
			err = halo_plan_warn(plan, "interfaces/%s/roce: no link matches%s: "
						   "nothing is applied or checked",
					     h->entry->name,
					     halo_host_yet(ctx));
		} else {
			err = plan_entry(ctx, plan, errs, cfg, h);
		}
		if (err < 0)
			return err;
	}
	return 0;
}
