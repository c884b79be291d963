/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nicsim-ice.c: the E810's dcbnl ops as ice implements them
 * (drivers/net/ethernet/intel/ice/ice_dcb_nl.c, ice_dcb_lib.c), with what
 * they do besides answering: every configuration they commit resets the
 * port (ice_dcbnl_devreset), and deleting the last DSCP APP entry returns
 * the port to L2 and the software default DCB (ice_dcb_sw_dflt_cfg).
 *
 * Every set edits ice's desired configuration and commits it whole
 * (ice_pf_dcb_cfg): a commit happens when it differs from what the port
 * holds; a set that leaves them equal answers 0 and resets nothing. The
 * default DCB is installed on the port alone, so the desired copy is zero
 * after the probe and stale after a fall-back, and the next set commits
 * it with its own change (a PFC set after the return to L2 brings back
 * the DSCP-mode ETS).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "nicsim.h"

/* ice_dcb_lib.h: what ice's ops answer besides 0 and -errno. */
#define ICE_DCB_NO_HW_CHG 1
#define ICE_DCB_HW_CHG 2
/* The E810's func_caps maxtc; DSCP values ice maps. */
#define ICE_MAX_TC 8
#define ICE_DSCP_NUM_VAL 64

static const char *msg_bond = "DCB changes not allowed when in a bond";

uint8_t nicsim_ice_dcbx_mode(bool agent)
{
	/* The port's DCBX mode is IEEE: one version bit, never both. */
	return (agent ? DCB_CAP_DCBX_LLD_MANAGED : DCB_CAP_DCBX_HOST) | DCB_CAP_DCBX_VER_IEEE;
}

unsigned nicsim_ice_num_tc(const struct nicsim_ets *ets)
{
	uint8_t used = 0; /* a u8 as in the driver: TC 8 and up fall off */
	unsigned n = 0;
	bool gap = false;

	for (int i = 0; i < IEEE_8021QAZ_MAX_TCS; i++)
		if (ets->prio_tc[i] < 8)
			used |= (uint8_t)(1u << ets->prio_tc[i]);
	for (int i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
		if (!(used & (1u << i))) {
			gap = true;
			continue;
		}
		if (gap)
			return 1; /* "Non-contiguous TCs - Disabling DCB" */
		n++;
	}
	return n ? n : 1;
}

void nicsim_ice_sw_default(struct nicsim_if *nic)
{
	memset(&nic->ets, 0, sizeof(nic->ets));
	nic->ets.willing = 1;
	nic->ets.tc_bw[0] = 100;
	nic->ets.tsa[0] = IEEE_8021QAZ_TSA_ETS;
	nic->pfc_cap = ICE_MAX_TC;
	nic->pfc_en = 0;
	nic->pfc_mbc = 0;
	/* The port's own table holds the default FCoE entry, which no
	 * desired table has. */
	nic->desired.apps_differ = true;
}

void nicsim_ice_desired_sync(struct nicsim_if *nic)
{
	nic->desired = (struct nicsim_ice_desired){
		.ets = nic->ets, .pfc_cap = nic->pfc_cap, .pfc_en = nic->pfc_en,
		.trust_dscp = nic->trust_dscp,
	};
}

/* ice_dcbnl_setapp, switching to DSCP mode: all bandwidth on TC0, each
 * priority its own TC, not willing. */
void nicsim_ice_dscp_ets(struct nicsim_ets *ets)
{
	ets->willing = 0;
	for (int i = 0; i < ICE_MAX_TC; i++) {
		ets->tc_bw[i] = i ? 0 : 100;
		ets->tsa[i] = IEEE_8021QAZ_TSA_ETS;
		ets->prio_tc[i] = (uint8_t)i;
	}
}

void nicsim_ice_getets(const struct nicsim_if *nic, struct ieee_ets *ets)
{
	/* ice_dcbnl_getets; ice_pf_dcb_cfg copies the configured table into
	 * the recommended one at every commit. */
	ets->willing = nic->ets.willing;
	ets->ets_cap = ICE_MAX_TC;
	ets->cbs = nic->ets.cbs;
	memcpy(ets->tc_tx_bw, nic->ets.tc_bw, sizeof(ets->tc_tx_bw));
	memcpy(ets->tc_rx_bw, nic->ets.tc_bw, sizeof(ets->tc_rx_bw));
	memcpy(ets->tc_tsa, nic->ets.tsa, sizeof(ets->tc_tsa));
	memcpy(ets->prio_tc, nic->ets.prio_tc, sizeof(ets->prio_tc));
	memcpy(ets->tc_reco_bw, nic->ets.tc_bw, sizeof(ets->tc_reco_bw));
	memcpy(ets->tc_reco_tsa, nic->ets.tsa, sizeof(ets->tc_reco_tsa));
	memcpy(ets->reco_prio_tc, nic->ets.prio_tc, sizeof(ets->reco_prio_tc));
}

static bool host_ieee(const struct nicsim_if *nic)
{
	return !(nic->dcbx & DCB_CAP_DCBX_LLD_MANAGED) && (nic->dcbx & DCB_CAP_DCBX_VER_IEEE);
}

/* setets and setpfc: EINVAL while firmware managed (no log line), and
 * while bonded. */
static int gate(const struct nicsim_if *nic, const char **ret_msg)
{
	if (!host_ieee(nic))
		return -EINVAL;
	if (nic->bonded) {
		*ret_msg = msg_bond;
		return -EINVAL;
	}
	return 0;
}

/* ice_dcb_bwchk: one TC takes all bandwidth; several must sum to 100 over
 * the TCs in use, or to 0 (then TC0 takes it all). */
static int bwchk(struct nicsim_ets *ets)
{
	unsigned n = nicsim_ice_num_tc(ets), total = 0;

	if (n == 1) {
		ets->tc_bw[0] = 100;
		return 0;
	}
	for (unsigned i = 0; i < n; i++)
		total += ets->tc_bw[i];
	if (!total)
		ets->tc_bw[0] = 100;
	else if (total != 100)
		return -EINVAL; /* "Invalid config, total bandwidth must equal 100" */
	return 0;
}

/* ice_pf_dcb_cfg: the desired configuration onto the port when they
 * differ, then the reset; equal, nothing. */
static int commit(struct nicsim_if *nic)
{
	struct nicsim_ice_desired *d = &nic->desired;

	if (!d->apps_differ && d->trust_dscp == nic->trust_dscp && d->pfc_cap == nic->pfc_cap &&
	    d->pfc_en == nic->pfc_en && memcmp(&d->ets, &nic->ets, sizeof(d->ets)) == 0)
		return 0;
	if (bwchk(&d->ets))
		return -EINVAL;
	nic->ets = d->ets;
	nic->pfc_cap = d->pfc_cap;
	nic->pfc_en = d->pfc_en;
	nic->trust_dscp = d->trust_dscp;
	d->apps_differ = false;
	nicsim_port_reset(nic);
	return 0;
}

int nicsim_ice_setets(struct nicsim_if *nic, const struct ieee_ets *ets, const char **ret_msg)
{
	struct nicsim_ets *want = &nic->desired.ets;
	int err = gate(nic, ret_msg);

	if (err)
		return err;
	/* Edited in place: a set refused below leaves its values in the
	 * desired copy for the next commit, as ice does. */
	want->willing = ets->willing;
	want->cbs = ets->cbs;
	for (int i = 0; i < ICE_MAX_TC; i++) {
		want->tc_bw[i] = ets->tc_tx_bw[i];
		want->tsa[i] = ets->tc_tsa[i];
		/* In DSCP mode the priority-to-TC map cannot change. */
		if (!nic->desired.trust_dscp)
			want->prio_tc[i] = ets->prio_tc[i];
	}
	if (bwchk(want))
		return -EINVAL;
	return commit(nic);
}

int nicsim_ice_setpfc(struct nicsim_if *nic, const struct ieee_pfc *pfc, const char **ret_msg)
{
	int err = gate(nic, ret_msg);

	if (err)
		return err;
	/* Only pfc_cap and pfc_en are taken (mbc and delay are not). */
	nic->desired.pfc_cap = pfc->pfc_cap ? pfc->pfc_cap : ICE_MAX_TC;
	nic->desired.pfc_en = pfc->pfc_en;
	return commit(nic);
}

int nicsim_ice_setapp(struct nicsim_if *nic, const struct dcb_app *app, const char **ret_msg)
{
	ssize_t i;
	bool l2;
	int err;

	if (app->selector != IEEE_8021QAZ_APP_SEL_DSCP)
		return -EINVAL;
	if (nic->dcbx & DCB_CAP_DCBX_LLD_MANAGED) {
		*ret_msg = "can't do DSCP QoS when FW DCB agent active";
		return -EINVAL;
	}
	if (!(nic->dcbx & DCB_CAP_DCBX_VER_IEEE))
		return -EINVAL;
	if (app->protocol >= ICE_DSCP_NUM_VAL) {
		*ret_msg = "DSCP value out of range";
		return -EINVAL;
	}
	if (nic->bonded) {
		*ret_msg = msg_bond;
		return -EINVAL;
	}
	if (app->priority >= ICE_MAX_TC) {
		*ret_msg = "TC out of range";
		return -EINVAL;
	}
	i = nicsim_app_find(nic, app->selector, app->protocol);
	if (i >= 0 && nic->app[i].priority == app->priority)
		return -EEXIST; /* dcb_ieee_setapp: the exact entry exists */
	if (i >= 0) {
		*ret_msg = "DSCP value already user mapped";
		return -EINVAL;
	}
	l2 = !nic->trust_dscp; /* before the entry is in the port's list */
	err = nicsim_app_add(nic, app);
	if (err)
		return err;
	if (l2) {
		/* "Switched QoS to L3 DSCP mode", in the desired copy: its
		 * PFC enable bits stay as they were there. */
		nic->desired.trust_dscp = true;
		nicsim_ice_dscp_ets(&nic->desired.ets);
		nic->desired.pfc_cap = ICE_MAX_TC;
	}
	nic->desired.apps_differ = true; /* a new mapping always commits */
	/* A commit ice refuses is not the set's error: the entry stays. */
	return commit(nic) < 0 ? ICE_DCB_NO_HW_CHG : 0;
}

int nicsim_ice_delapp(struct nicsim_if *nic, const struct dcb_app *app, const char **ret_msg)
{
	ssize_t i;

	if (nic->dcbx & DCB_CAP_DCBX_LLD_MANAGED) {
		*ret_msg = "can't delete DSCP netlink app when FW DCB agent is active";
		return -EINVAL;
	}
	if (nic->bonded) {
		*ret_msg = msg_bond;
		return -EINVAL;
	}
	i = nicsim_app_find(nic, app->selector, app->protocol);
	if (i < 0 || nic->app[i].priority != app->priority)
		return -ENOENT; /* dcb_ieee_delapp */
	nicsim_app_remove(nic, (size_t)i);
	/* Gone from the desired table; committed only for a DSCP entry. */
	nic->desired.apps_differ = true;
	if (app->selector != IEEE_8021QAZ_APP_SEL_DSCP)
		return ICE_DCB_HW_CHG;
	if (!nicsim_app_has_dscp(nic) && nic->desired.trust_dscp) {
		/* "Switched QoS to L2 VLAN mode": the default config on the
		 * port, PFC on no priority, one TC; the desired copy keeps
		 * the rest of DSCP mode. */
		nic->desired.trust_dscp = false;
		nic->trust_dscp = false;
		nicsim_ice_sw_default(nic);
		nicsim_port_reset(nic);
		return 0;
	}
	return commit(nic);
}

uint8_t nicsim_ice_setdcbx(struct nicsim_if *nic, uint8_t mode)
{
	if (nic->priv_flags & (1u << NICSIM_E810_FW_LLDP))
		return ICE_DCB_NO_HW_CHG;
	if ((mode & DCB_CAP_DCBX_LLD_MANAGED) ||
	    ((mode & DCB_CAP_DCBX_VER_IEEE) && (mode & DCB_CAP_DCBX_VER_CEE)) ||
	    !(mode & DCB_CAP_DCBX_HOST))
		return ICE_DCB_NO_HW_CHG;
	if (mode == nic->dcbx || nic->bonded)
		return ICE_DCB_NO_HW_CHG;
	if (nic->trust_dscp)
		return ICE_DCB_NO_HW_CHG; /* DSCP configuration is not DCBX negotiated */
	nic->dcbx = mode;
	return 0; /* ICE_DCB_HW_CHG_RST, yet setdcbx itself resets nothing */
}
