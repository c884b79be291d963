/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nicsim-mlx5.c: the ConnectX's dcbnl ops as mlx5 implements them
 * (drivers/net/ethernet/mellanox/mlx5/core/en_dcbnl.c), with the one
 * thing they do besides answering: a new PFC bitmap toggles the port
 * through firmware (mlx5_toggle_port_link), so the carrier goes and comes
 * back while the netdev stays administratively UP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "nicsim.h"

#define MLX5E_MAX_PRIORITY 8
#define MLX5E_MAX_DSCP 64
#define MLX5E_MAX_CABLE_LENGTH 1000

uint8_t nicsim_mlx5_dcbx_mode(bool host)
{
	return DCB_CAP_DCBX_VER_CEE | DCB_CAP_DCBX_VER_IEEE | (host ? DCB_CAP_DCBX_HOST : 0);
}

void nicsim_mlx5_ets_init(struct nicsim_if *nic)
{
	memset(&nic->ets, 0, sizeof(nic->ets));
	for (int i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
		nic->ets.tc_bw[i] = 100;
		nic->ets.tsa[i] = IEEE_8021QAZ_TSA_VENDOR;
		nic->ets.prio_tc[i] = (uint8_t)i;
	}
	nic->ets.prio_tc[0] = 1;
	nic->ets.prio_tc[1] = 0;
}

void nicsim_mlx5_getets(const struct nicsim_if *nic, struct ieee_ets *ets)
{
	/* mlx5e_dcbnl_ieee_getets reads the port: no willing, no rx or
	 * recommended tables. */
	ets->ets_cap = IEEE_8021QAZ_MAX_TCS;
	memcpy(ets->tc_tx_bw, nic->ets.tc_bw, sizeof(ets->tc_tx_bw));
	memcpy(ets->tc_tsa, nic->ets.tsa, sizeof(ets->tc_tsa));
	memcpy(ets->prio_tc, nic->ets.prio_tc, sizeof(ets->prio_tc));
}

/* mlx5e_dbcnl_validate_ets: priorities below 8, and the bandwidth of the
 * ETS classes summing to 100 when there is one. */
static int validate_ets(const struct ieee_ets *ets)
{
	bool have_ets = false;
	unsigned sum = 0;

	for (int i = 0; i < IEEE_8021QAZ_MAX_TCS; i++)
		if (ets->prio_tc[i] >= MLX5E_MAX_PRIORITY)
			return -EINVAL;
	for (int i = 0; i < IEEE_8021QAZ_MAX_TCS; i++)
		if (ets->tc_tsa[i] == IEEE_8021QAZ_TSA_ETS) {
			have_ets = true;
			sum += ets->tc_tx_bw[i];
		}
	return have_ets && sum != 100 ? -EINVAL : 0;
}

int nicsim_mlx5_setets(struct nicsim_if *nic, const struct ieee_ets *ets, const char **ret_msg)
{
	int err = validate_ets(ets);

	(void)ret_msg;
	if (err)
		return err;
	/* The port keeps the map and the groups; strict and vendor classes
	 * read back with all bandwidth, ETS ones with theirs. */
	memset(&nic->ets, 0, sizeof(nic->ets));
	for (int i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
		nic->ets.tsa[i] = ets->tc_tsa[i];
		nic->ets.prio_tc[i] = ets->prio_tc[i];
		nic->ets.tc_bw[i] = ets->tc_tsa[i] == IEEE_8021QAZ_TSA_ETS ? ets->tc_tx_bw[i] : 100;
	}
	return 0;
}

int nicsim_mlx5_setpfc(struct nicsim_if *nic, const struct ieee_pfc *pfc, const char **ret_msg)
{
	(void)ret_msg;
	if (pfc->pfc_en != nic->pfc_en) {
		nic->pfc_en = pfc->pfc_en;
		nicsim_carrier_flap(nic);
	}
	/* delay is the cable length in metres, for the receive buffers. */
	if (pfc->delay && pfc->delay < MLX5E_MAX_CABLE_LENGTH)
		nic->pfc_delay = pfc->delay;
	return 0;
}

int nicsim_mlx5_setapp(struct nicsim_if *nic, const struct dcb_app *app, const char **ret_msg)
{
	ssize_t i;

	(void)ret_msg;
	if (app->selector != IEEE_8021QAZ_APP_SEL_DSCP || app->protocol >= MLX5E_MAX_DSCP ||
	    app->priority >= MLX5E_MAX_PRIORITY)
		return -EINVAL;
	/* A DSCP's old entry is replaced; the first sets trust dscp. */
	i = nicsim_app_find(nic, app->selector, app->protocol);
	if (i >= 0)
		nicsim_app_remove(nic, (size_t)i);
	return nicsim_app_add(nic, app);
}

int nicsim_mlx5_delapp(struct nicsim_if *nic, const struct dcb_app *app, const char **ret_msg)
{
	ssize_t i;

	(void)ret_msg;
	if (app->selector != IEEE_8021QAZ_APP_SEL_DSCP || app->protocol >= MLX5E_MAX_DSCP)
		return -EINVAL;
	/* Only the mapping the firmware holds; the last one gone: trust pcp. */
	i = nicsim_app_find(nic, app->selector, app->protocol);
	if (i < 0 || nic->app[i].priority != app->priority)
		return -ENOENT;
	nicsim_app_remove(nic, (size_t)i);
	nic->trust_dscp = nicsim_app_has_dscp(nic);
	return 0;
}

uint8_t nicsim_mlx5_setdcbx(struct nicsim_if *nic, uint8_t mode)
{
	if (mode & DCB_CAP_DCBX_LLD_MANAGED)
		return 1;
	if (!mode) {
		/* Back to the firmware ("auto"): the HOST bit goes, the
		 * version bits stay as they were. */
		nic->dcbx &= (uint8_t)~DCB_CAP_DCBX_HOST;
		return 0;
	}
	if (!(mode & DCB_CAP_DCBX_HOST))
		return 1;
	nic->dcbx = mode;
	return 0;
}
