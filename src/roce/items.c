/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * items.c: what the roce items share, and the dcbx and pfc items.
 * Every observation is one IEEE_GET (it carries PFC, the APP table and
 * the DCBX mode); every change is read back by the engine's second
 * observation.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <net/if.h>

#include "netlink/context.h"
#include "netlink/dcbnl.h"
#include "netlink/rtnl.h"
#include "netlink/transport.h"
#include "roce/roce.h"
#include "util/strv.h"

/* mlx5 toggles the port after a PFC change; how long we wait for the
 * carrier, from its loss, before verifying. */
#define CARRIER_WAIT_MS 5000
/* How long the carrier may take to go after the PFC change's reply. */
#define CARRIER_LOSS_WAIT_MS 2000

/* The wanted value, in the form observe shows the NIC's. */
static int set_wanted(struct halo_item *item, const struct halo_roce_want *w)
{
	char buf[HALO_ROCE_DSCP_MAX * 8] = "";
	size_t o = 0;

	switch (w->kind) {
	case HALO_ROCE_FW_LLDP:
		return halo_item_set_wanted(item, "%s", w->on ? "on" : "off");
	case HALO_ROCE_ENABLE:
		return halo_item_set_wanted(item, "%s", w->on ? "true" : "false");
	case HALO_ROCE_DCBX:
		return halo_item_set_wanted(item, "%s", halo_dcbx_mode_name(w->dcbx) ?
					    halo_dcbx_mode_name(w->dcbx) : "-");
	case HALO_ROCE_PFC:
		halo_roce_mask_text(w->pfc_mask, buf, sizeof(buf));
		break;
	case HALO_ROCE_ECN:
		halo_roce_mask_text(w->ecn_mask, buf, sizeof(buf));
		if (!w->ecn_exclusive)
			return halo_item_set_wanted(item, "%s on, the others as found", buf);
		break;
	case HALO_ROCE_DSCP_PRIO:
		for (size_t i = 0; i < w->n_app && o < sizeof(buf); i++)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%u:%u",
					      i ? ", " : "", w->app[i].protocol,
					      w->app[i].priority);
		break;
	case HALO_ROCE_TRUST:
		return halo_item_set_wanted(item, "%s", w->trust_dscp ? "dscp" : "pcp");
	}
	return halo_item_set_wanted(item, "%s", buf);
}

int halo_roce_item_add(struct halo_plan *plan, const char *key,
		       const struct halo_roce_want *w, bool required,
		       struct halo_item **ret_item)
{
	const struct halo_item_ops *ops;
	struct halo_item *item;
	int err;

	switch (w->kind) {
	case HALO_ROCE_FW_LLDP:
	case HALO_ROCE_ENABLE:
		ops = &halo_roce_dev_ops;
		break;
	case HALO_ROCE_DCBX:
	case HALO_ROCE_PFC:
		ops = &halo_roce_dcb_ops;
		break;
	case HALO_ROCE_DSCP_PRIO:
	case HALO_ROCE_TRUST:
		ops = &halo_roce_app_ops;
		break;
	default:
		ops = &halo_roce_ecn_ops;
		break;
	}
	err = halo_plan_add_new(plan, key, HALO_SUB_ROCE, HALO_PHASE_ROCE, ops,
				sizeof(*w), &item);
	if (err < 0)
		return err;
	memcpy(item->data, w, sizeof(*w));
	item->required = required;
	err = set_wanted(item, w);
	if (err < 0)
		return err;
	if (ret_item)
		*ret_item = item;
	return 0;
}

int halo_roce_nlt(struct halo_ctx *ctx, struct halo_item *item,
		  struct halo_nlt **ret)
{
	int err = halo_netlink_transport(ctx, ret);

	return err < 0 ? halo_item_fail(item, err, "opening netlink") : 0;
}

int halo_roce_fail(struct halo_ctx *ctx, struct halo_item *item, int err,
		   const char *what)
{
	const char *ext = halo_netlink_extack(ctx);

	if (ext && *ext)
		return halo_item_fail(item, err, "%s (driver: %s)", what, ext);
	return halo_item_fail(item, err, "%s", what);
}

void halo_roce_mask_text(uint8_t mask, char *buf, size_t len)
{
	size_t o = halo_strjoin(buf, len, "[", NULL);
	bool first = true;

	for (int p = 0; p < 8 && o < len; p++)
		if (mask & (1u << p)) {
			const char digit[2] = { (char)('0' + p), '\0' };

			o += halo_strjoin(buf + o, len - o, first ? " " : ", ", digit, NULL);
			first = false;
		}
	if (o < len)
		halo_strjoin(buf + o, len - o, " ]", NULL);
}

int halo_roce_ieee_get(struct halo_ctx *ctx, struct halo_item *item,
		       const struct halo_roce_want *w, struct halo_dcbnl_ieee *ret)
{
	struct halo_nlt *t;
	int err = halo_roce_nlt(ctx, item, &t);

	if (err < 0)
		return err;
	err = halo_dcbnl_ieee_get(t, w->ifname, ret);
	if (err == -EOPNOTSUPP) {
		free(item->observed);
		item->observed = NULL;
		halo_item_set_message(item, "%s has no DCB (dcbnl: %s)", w->ifname,
				      strerror(EOPNOTSUPP));
		return HALO_SYNC_UNSUPPORTED;
	}
	if (err < 0)
		return halo_roce_fail(ctx, item, err, "reading DCB (IEEE_GET)");
	return 0;
}

int halo_roce_bond_refuses(struct halo_item *item, const struct halo_roce_want *w, int sync)
{
	if (sync != HALO_SYNC_DIFFERS || !w->bond[0])
		return sync;
	halo_item_set_message(item, "%s is a port of bond %s, and ice refuses DCB changes there "
			      "(\"DCB changes not allowed when in a bond\"): configure DCB before "
			      "the port joins the bond", w->ifname, w->bond);
	return HALO_SYNC_INVALID;
}

bool halo_roce_fw_managed(const struct halo_roce_want *w, const struct halo_dcbnl_ieee *g)
{
	return w->nic == HALO_ROCE_NIC_ICE && g->has_dcbx &&
	       (g->dcbx & DCB_CAP_DCBX_LLD_MANAGED);
}

/* ---- dcbx ---- */

static bool dcbx_is_host(uint8_t mode)
{
	return (mode & DCB_CAP_DCBX_HOST) && (mode & DCB_CAP_DCBX_VER_IEEE) &&
	       !(mode & DCB_CAP_DCBX_LLD_MANAGED);
}

static const char *dcbx_name(uint8_t mode)
{
	return mode & DCB_CAP_DCBX_HOST && !(mode & DCB_CAP_DCBX_LLD_MANAGED) ?
	       (mode & DCB_CAP_DCBX_VER_IEEE ? "host" : "host (not IEEE)") : "firmware";
}

static int dcbx_observe(struct halo_ctx *ctx, struct halo_item *item,
			const struct halo_roce_want *w, const struct halo_dcbnl_ieee *g)
{
	bool host;

	(void)ctx;
	if (!g->has_dcbx) {
		halo_item_set_message(item, "%s reports no DCBX mode", w->ifname);
		return HALO_SYNC_UNSUPPORTED;
	}
	host = dcbx_is_host(g->dcbx);
	halo_item_set_observed(item, "%s (0x%x)", dcbx_name(g->dcbx), g->dcbx);
	if (w->dcbx == HALO_DCBX_HOST ? host : !host)
		return HALO_SYNC_OK;
	if (w->nic == HALO_ROCE_NIC_ICE)
		halo_item_set_message(item, "on ice the DCBX mode follows the fw-lldp-agent flag");
	return HALO_SYNC_DIFFERS;
}

static int dcbx_apply(struct halo_ctx *ctx, struct halo_item *item,
		      const struct halo_roce_want *w)
{
	struct halo_dcbnl_ieee g;
	struct halo_nlt *t;
	uint8_t mode = w->dcbx == HALO_DCBX_HOST ?
		       DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE : 0;
	int err = halo_roce_ieee_get(ctx, item, w, &g);

	if (err != 0)
		return err < 0 ? err : -EOPNOTSUPP;
	/* ice: the fw-lldp-agent item, applied before, already switched it
	 * (ice answers "no change" to a mode it has). */
	if (g.has_dcbx && (w->dcbx == HALO_DCBX_HOST) == dcbx_is_host(g.dcbx))
		return 0;
	if (w->nic == HALO_ROCE_NIC_ICE && w->dcbx == HALO_DCBX_FIRMWARE)
		return halo_item_fail(item, -EOPNOTSUPP,
				      "ice returns DCBX to the firmware only with fw-lldp-agent on");
	err = halo_roce_nlt(ctx, item, &t);
	if (err < 0)
		return err;
	err = halo_dcbnl_set_dcbx(t, w->ifname, mode);
	if (err < 0)
		return halo_roce_fail(ctx, item, err, "setting the DCBX mode (SDCBX)");
	return 0;
}

/* ---- pfc ---- */

static int pfc_observe(struct halo_ctx *ctx, struct halo_item *item,
		       const struct halo_roce_want *w, const struct halo_dcbnl_ieee *g)
{
	char have[40];

	(void)ctx;
	if (!g->has_pfc) {
		free(item->observed);
		item->observed = NULL;
		halo_item_set_message(item, "%s reports no IEEE PFC", w->ifname);
		return HALO_SYNC_UNSUPPORTED;
	}
	halo_roce_mask_text(g->pfc.pfc_en, have, sizeof(have));
	halo_item_set_observed(item, "%s", have);
	if (halo_roce_fw_managed(w, g)) {
		halo_item_set_message(item, "the firmware LLDP agent manages DCB: set after fw-lldp-agent is off");
		return HALO_SYNC_DIFFERS;
	}
	return g->pfc.pfc_en == w->pfc_mask ? HALO_SYNC_OK : HALO_SYNC_DIFFERS;
}

/* The carrier of IFINDEX now (one RTM_GETLINK): 1 up, 0 down, and the
 * carrier losses so far (-1 when the kernel does not count them); -errno. */
static int carrier_get(struct halo_ctx *ctx, int ifindex, int *ret, long long *ret_losses)
{
	struct halo_rtnl_link l;
	int err = halo_rtnl_link_fetch(ctx, ifindex, &l);

	if (err < 0)
		return err;
	*ret = (l.flags & IFF_UP) && l.carrier == 1 ? 1 : 0;
	*ret_losses = l.has_carrier_down_count ? (long long)l.carrier_down_count : -1;
	return 0;
}

static long ms_since(const struct timespec *a)
{
	struct timespec b;

	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a->tv_sec) * 1000L + (b.tv_nsec - a->tv_nsec) / 1000000L;
}

/* mlx5 flaps the link when the PFC bitmap changes: wait (bounded) for
 * the carrier to go and come back, so the verification and the next
 * phase see a working link. The IEEE_SET reply comes before the carrier
 * goes: mlx5 learns of the toggled port from the firmware's port-change
 * event (docs/hardware.md), so a carrier still up is not yet the end.
 * LOSSES_BEFORE: the carrier losses counted before the set (-1 unknown). */
static void wait_carrier(struct halo_ctx *ctx, struct halo_item *item,
			 const struct halo_roce_want *w, long long losses_before)
{
	const struct timespec tick = { 0, 10 * 1000000L };
	struct timespec start, lost_at;
	bool lost = false;
	long long losses;
	int carrier = 0, err;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		err = carrier_get(ctx, w->ifindex, &carrier, &losses);
		if (err < 0) {
			halo_item_set_note(item, "mlx5 flaps the link on a PFC change: reading its "
					   "carrier: %s", strerror(-err));
			return;
		}
		/* The count may wrap: any change is a loss. */
		if (!lost && (!carrier || (losses_before >= 0 && losses != losses_before))) {
			lost = true;
			clock_gettime(CLOCK_MONOTONIC, &lost_at);
		}
		if (lost && carrier) {
			halo_item_set_note(item, "mlx5 flaps the link on a PFC change: carrier back "
					   "after %ld ms", ms_since(&start));
			return;
		}
		if (!lost && ms_since(&start) >= CARRIER_LOSS_WAIT_MS) {
			halo_item_set_note(item, "mlx5 flaps the link on a PFC change: the carrier "
					   "stayed up for %d ms", CARRIER_LOSS_WAIT_MS);
			return;
		}
		/* Link training gets its whole bound from the loss. */
		if (lost && ms_since(&lost_at) >= CARRIER_WAIT_MS)
			break;
		nanosleep(&tick, NULL);
	}
	halo_item_set_note(item, "mlx5 flaps the link on a PFC change: no carrier %d ms after "
			   "it went", CARRIER_WAIT_MS);
}

static int pfc_apply(struct halo_ctx *ctx, struct halo_item *item,
		     const struct halo_roce_want *w)
{
	struct halo_dcbnl_ieee g;
	struct halo_nlt *t;
	int was_up = 0;
	long long losses = -1;
	int err = halo_roce_ieee_get(ctx, item, w, &g);

	if (err != 0)
		return err < 0 ? err : -EOPNOTSUPP;
	if (!g.has_pfc)
		return halo_item_fail(item, -EOPNOTSUPP, "%s reports no IEEE PFC", w->ifname);
	if (g.pfc.pfc_en == w->pfc_mask)
		return 0; /* the agent's reset already left it right */
	err = halo_roce_nlt(ctx, item, &t);
	if (err < 0)
		return err;
	if (w->nic == HALO_ROCE_NIC_MLX5 && carrier_get(ctx, w->ifindex, &was_up, &losses) < 0)
		was_up = 0;
	/* Read-modify-write: pfc_cap, mbc, delay (mlx5's cable length) and
	 * the counters stay as the driver reported them. */
	g.pfc.pfc_en = w->pfc_mask;
	err = halo_dcbnl_set_pfc(t, w->ifname, &g.pfc);
	if (err < 0)
		return halo_roce_fail(ctx, item, err, "setting PFC (IEEE_SET)");
	if (was_up)
		wait_carrier(ctx, item, w, losses);
	return 0;
}

/* ---- ops ---- */

static int dcb_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_roce_want *w = item->data;
	struct halo_dcbnl_ieee g;
	int r = halo_roce_ieee_get(ctx, item, w, &g);

	if (r != 0)
		return r;
	r = w->kind == HALO_ROCE_DCBX ? dcbx_observe(ctx, item, w, &g)
				      : pfc_observe(ctx, item, w, &g);
	return halo_roce_bond_refuses(item, w, r);
}

static int dcb_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_roce_want *w = item->data;

	return w->kind == HALO_ROCE_DCBX ? dcbx_apply(ctx, item, w)
					 : pfc_apply(ctx, item, w);
}

const struct halo_item_ops halo_roce_dcb_ops = {
	.observe = dcb_observe,
	.apply = dcb_apply,
};
