/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * roce.h: the roce subsystem: each interface entry's `roce` group becomes
 * roce/<entry>/... items on the host table's live link.
 *
 * Items of one interface, in plan (= apply) order inside HALO_PHASE_ROCE:
 *   fw-lldp-agent  ice: the firmware LLDP agent off before any host DCB
 *                  change (the driver refuses host DCB while it runs, and
 *                  turning it off resets PFC and the APP table)
 *   enable         devlink enable_roce (ice: runtime, after enable_iwarp
 *                  is off; mlx5: driverinit, pending a devlink reload)
 *   dcbx           the DCBX mode (host = HOST|VER_IEEE, firmware)
 *   pfc            IEEE PFC, a read-modify-write of struct ieee_pfc
 *   dscp-prio      the DSCP entries of the APP table, the whole wanted map
 *   trust          "dscp": at least one DSCP APP entry; "pcp": none
 *   ecn            vendor mlx5 sysfs ecn/roce_np|roce_rp/enable/<prio>
 * Every observation reads the NIC back; a knob the NIC lacks is
 * HALO_SYNC_UNSUPPORTED with the reason.
 *
 * Private to src/roce below the planner's prototype.
 */
#pragma once

#include <linux/dcbnl.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "config/halo-config.h"
#include "engine/plan.h"
#include "halo.h"
#include "util/errors.h"

/* Plans the roce items of every selected entry of ctx->host (after the
 * modules phase). Checks that need the live link first (the driver has
 * RoCE, what the driver is known to refuse): errors with FILE:LINE in
 * ERRS, -EINVAL, nothing planned. */
int halo_roce_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		   struct halo_plan *plan, struct halo_errors *errs);

/* ---- private: items (items*.c) ---- */

enum halo_roce_nic {
	HALO_ROCE_NIC_ICE,   /* Intel E810 (ice + irdma) */
	HALO_ROCE_NIC_MLX5,  /* NVIDIA ConnectX (mlx5_core) */
	HALO_ROCE_NIC_OTHER, /* another RoCE driver: dcbnl only */
};

enum halo_roce_kind {
	HALO_ROCE_FW_LLDP,
	HALO_ROCE_ENABLE,
	HALO_ROCE_DCBX,
	HALO_ROCE_PFC,
	HALO_ROCE_DSCP_PRIO,
	HALO_ROCE_TRUST,
	HALO_ROCE_ECN,
};

/* Largest DSCP map: one entry per DSCP. */
#define HALO_ROCE_DSCP_MAX 64

/* DSCP_PRIO and TRUST items keep an ownership record (item->owned,
 * engine/owned.h): the DSCP APP entries ("26:3") this tool added, kept
 * up to date by observe and apply. */
struct halo_roce_want {
	enum halo_roce_kind kind;
	enum halo_roce_nic nic;
	int ifindex;
	char ifname[IF_NAMESIZE]; /* the live link's name at plan time */
	char pci[32];             /* devlink's pci/<pci>, from the host table; "" none */
	bool on;                  /* ENABLE, FW_LLDP: wanted value */
	enum halo_dcbx_mode dcbx; /* DCBX */
	uint8_t pfc_mask;         /* PFC; ECN: for the "no PFC" note */
	uint8_t ecn_mask;         /* ECN */
	bool ecn_exclusive;       /* ECN: off on the other priorities too */
	bool trust_dscp;          /* TRUST */
	struct dcb_app app[HALO_ROCE_DSCP_MAX]; /* DSCP_PRIO: wanted entries */
	size_t n_app;
	bool exclusive;           /* DSCP_PRIO, TRUST: remove foreign DSCP entries too */
	char bond[IF_NAMESIZE];   /* ice port in this bond: no DCB change ("" none) */
};

/* The DSCP entry A as an ownership record entry, "26:3". */
void halo_roce_app_text(const struct dcb_app *a, char buf[HALO_OWNED_LEN]);

/* Adds item KEY for W (copied), REQUIRED as configured. */
int halo_roce_item_add(struct halo_plan *plan, const char *key,
		       const struct halo_roce_want *w, bool required,
		       struct halo_item **ret_item);

/* Shared by the item files (items.c). */
struct halo_nlt;
int halo_roce_nlt(struct halo_ctx *ctx, struct halo_item *item,
		  struct halo_nlt **ret);
/* IEEE_GET of W's link into *RET. HALO_SYNC_UNSUPPORTED (message set) when
 * the device has no dcbnl; 0 when read; -errno (message set). */
struct halo_dcbnl_ieee;
int halo_roce_ieee_get(struct halo_ctx *ctx, struct halo_item *item,
		       const struct halo_roce_want *w, struct halo_dcbnl_ieee *ret);
/* Message for a failed request, with the kernel's extended ack. */
int halo_roce_fail(struct halo_ctx *ctx, struct halo_item *item, int err,
		   const char *what);
/* "[ 3, 4 ]" of a priority mask. */
void halo_roce_mask_text(uint8_t mask, char *buf, size_t len);
/* SYNC, or HALO_SYNC_INVALID with the reason when it is a change that ice
 * refuses because W's port is in a bond (w->bond). */
int halo_roce_bond_refuses(struct halo_item *item, const struct halo_roce_want *w, int sync);
/* ice with the firmware agent in charge: host DCB is not readable as ours. */
bool halo_roce_fw_managed(const struct halo_roce_want *w, const struct halo_dcbnl_ieee *g);

extern const struct halo_item_ops halo_roce_dev_ops;  /* items-dev.c */
extern const struct halo_item_ops halo_roce_dcb_ops;  /* items.c: dcbx, pfc */
extern const struct halo_item_ops halo_roce_app_ops;  /* items-app.c */
extern const struct halo_item_ops halo_roce_ecn_ops;  /* items-ecn.c */
