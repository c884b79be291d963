/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nicsim-dcb.c: dcbnl (RTM_GETDCB / RTM_SETDCB) as net/dcb/dcbnl.c answers
 * it, with ice's or mlx5's dcbnl_rtnl_ops behind it (nicsim-ice.c,
 * nicsim-mlx5.c).
 *
 * Reply shapes, as the kernel's: one unicast message of type RTM_GETDCB
 * (get commands) or RTM_SETDCB (set commands) with the request's cmd, seq
 * and flags; IEEE_SET and IEEE_DEL put the driver's verdict in a u8
 * DCB_ATTR_IEEE (a negative errno, ACK 0 all the same); SDCBX puts the
 * driver's setdcbx return in DCB_ATTR_DCBX. Request-level errors (no
 * DCB_ATTR_IEEE, short attributes) are the ACK's errno and no message.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>
#include <string.h>

#include "nicsim.h"

/* DCB_ATTR_DCB_APP (uapi 6.2 and later; Debian 12's headers lack it). */
#define ATTR_DCB_APP 2

struct dcb_req {
	const struct nlattr *tb[DCB_ATTR_MAX + 1];
	const struct nlattr *ieee[DCB_ATTR_IEEE_MAX + 1];
};

static int top_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	uint16_t type = mnl_attr_get_type(a);

	if (type <= DCB_ATTR_MAX)
		tb[type] = a;
	return MNL_CB_OK;
}

static int ieee_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	uint16_t type = mnl_attr_get_type(a);

	if (type <= DCB_ATTR_IEEE_MAX)
		tb[type] = a;
	return MNL_CB_OK;
}

static int parse_top(const struct nlmsghdr *req, struct dcb_req *r)
{
	memset(r, 0, sizeof(*r));
	if (req->nlmsg_len < NLMSG_HDRLEN + sizeof(struct dcbmsg))
		return -EINVAL;
	if (mnl_attr_parse(req, sizeof(struct dcbmsg), top_cb, r->tb) < 0)
		return -EINVAL;
	return 0;
}

const char *nicsim_dcb_ifname(const struct nlmsghdr *req)
{
	struct dcb_req r;
	const struct nlattr *a;

	if (req->nlmsg_type != RTM_GETDCB && req->nlmsg_type != RTM_SETDCB)
		return NULL;
	if (parse_top(req, &r) < 0 || !(a = r.tb[DCB_ATTR_IFNAME]))
		return NULL;
	if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0)
		return NULL;
	return mnl_attr_get_str(a);
}

/* ---- the APP table the kernel keeps per netdev (dcb_app_list) ---- */

bool nicsim_app_has_dscp(const struct nicsim_if *nic)
{
	for (size_t i = 0; i < nic->n_app; i++)
		if (nic->app[i].selector == IEEE_8021QAZ_APP_SEL_DSCP)
			return true;
	return false;
}

ssize_t nicsim_app_find(const struct nicsim_if *nic, uint8_t sel, uint16_t prot)
{
	for (size_t i = 0; i < nic->n_app; i++)
		if (nic->app[i].selector == sel && nic->app[i].protocol == prot)
			return (ssize_t)i;
	return -1;
}

void nicsim_app_remove(struct nicsim_if *nic, size_t i)
{
	memmove(&nic->app[i], &nic->app[i + 1], (nic->n_app - i - 1) * sizeof(nic->app[0]));
	nic->n_app--;
}

/* Both drivers trust DSCP from the first DSCP entry on. */
int nicsim_app_add(struct nicsim_if *nic, const struct dcb_app *app)
{
	if (nic->n_app == NICSIM_MAX_APPS)
		return -ENOMEM;
	nic->app[nic->n_app++] = *app;
	nic->trust_dscp = nicsim_app_has_dscp(nic);
	return 0;
}

/* ---- messages ---- */

static struct nlmsghdr *reply_new(struct nicsim_out *out, const struct nlmsghdr *req,
				  uint16_t type, uint8_t cmd, uint32_t portid)
{
	struct nlmsghdr *nlh = nicsim_msg_new(out, 4096);
	struct dcbmsg *d;

	if (!nlh)
		return NULL;
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = req->nlmsg_flags; /* dcbnl_newmsg echoes them */
	nlh->nlmsg_seq = req->nlmsg_seq;
	nlh->nlmsg_pid = portid;
	d = mnl_nlmsg_put_extra_header(nlh, sizeof(*d));
	d->dcb_family = AF_UNSPEC;
	d->cmd = cmd;
	return nlh;
}

static void fill_ieee(const struct nicsim_if *nic, struct nlmsghdr *nlh)
{
	struct ieee_ets ets;
	struct ieee_pfc pfc = {
		.pfc_cap = nic->pfc_cap, .pfc_en = nic->pfc_en,
		.mbc = nic->pfc_mbc, .delay = nic->pfc_delay };
	struct nlattr *ieee, *tab;

	/* dcbnl_ieee_fill zeroes the struct before the driver fills it. */
	memset(&ets, 0, sizeof(ets));
	if (nic->profile == NICSIM_E810)
		nicsim_ice_getets(nic, &ets);
	else
		nicsim_mlx5_getets(nic, &ets);
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, nic->name);
	ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	mnl_attr_put(nlh, DCB_ATTR_IEEE_ETS, sizeof(ets), &ets);
	mnl_attr_put(nlh, DCB_ATTR_IEEE_PFC, sizeof(pfc), &pfc);
	tab = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE_APP_TABLE);
	for (size_t i = 0; i < nic->n_app; i++) {
		/* IEEE selectors in DCB_ATTR_IEEE_APP, others (PCP) in
		 * DCB_ATTR_DCB_APP, as dcbnl_ieee_fill does. */
		uint8_t s = nic->app[i].selector;
		uint16_t t = s >= IEEE_8021QAZ_APP_SEL_ETHERTYPE &&
			     s <= IEEE_8021QAZ_APP_SEL_DSCP ? DCB_ATTR_IEEE_APP
							    : ATTR_DCB_APP;

		mnl_attr_put(nlh, t, sizeof(nic->app[i]), &nic->app[i]);
	}
	mnl_attr_nest_end(nlh, tab);
	mnl_attr_nest_end(nlh, ieee);
	mnl_attr_put_u8(nlh, DCB_ATTR_DCBX, nic->dcbx);
}

/* The nested DCB_ATTR_IEEE of a set or del, with the policy's minimum
 * lengths (nla_parse_nested: short ETS or PFC is -ERANGE). */
static int parse_ieee(struct dcb_req *r)
{
	const struct nlattr *a = r->tb[DCB_ATTR_IEEE];

	if (!a)
		return -EINVAL;
	if (mnl_attr_parse_nested(a, ieee_cb, r->ieee) < 0)
		return -EINVAL;
	if (r->ieee[DCB_ATTR_IEEE_ETS] &&
	    mnl_attr_get_payload_len(r->ieee[DCB_ATTR_IEEE_ETS]) < sizeof(struct ieee_ets))
		return -ERANGE;
	if (r->ieee[DCB_ATTR_IEEE_PFC] &&
	    mnl_attr_get_payload_len(r->ieee[DCB_ATTR_IEEE_PFC]) < sizeof(struct ieee_pfc))
		return -ERANGE;
	return 0;
}

static int ieee_apply(struct nicsim_if *nic, struct dcb_req *r, bool del,
		      const char **ret_msg)
{
	const struct nlattr *a;
	int err = 0;

	bool ice = nic->profile == NICSIM_E810;

	/* dcbnl_ieee_set's order: ETS, PFC, then each APP entry; the first
	 * failure ends it. */
	if (!del && r->ieee[DCB_ATTR_IEEE_ETS]) {
		struct ieee_ets ets;

		memcpy(&ets, mnl_attr_get_payload(r->ieee[DCB_ATTR_IEEE_ETS]), sizeof(ets));
		err = ice ? nicsim_ice_setets(nic, &ets, ret_msg)
			  : nicsim_mlx5_setets(nic, &ets, ret_msg);
		if (err)
			return err;
	}
	if (!del && r->ieee[DCB_ATTR_IEEE_PFC]) {
		struct ieee_pfc pfc;

		memcpy(&pfc, mnl_attr_get_payload(r->ieee[DCB_ATTR_IEEE_PFC]), sizeof(pfc));
		err = ice ? nicsim_ice_setpfc(nic, &pfc, ret_msg)
			  : nicsim_mlx5_setpfc(nic, &pfc, ret_msg);
		if (err)
			return err;
	}
	if (!r->ieee[DCB_ATTR_IEEE_APP_TABLE])
		return 0;
	mnl_attr_for_each_nested(a, r->ieee[DCB_ATTR_IEEE_APP_TABLE]) {
		struct dcb_app app;

		if (mnl_attr_get_type(a) != DCB_ATTR_IEEE_APP)
			continue;
		if (mnl_attr_get_payload_len(a) < sizeof(app))
			return -ERANGE;
		memcpy(&app, mnl_attr_get_payload(a), sizeof(app));
		if (del)
			err = ice ? nicsim_ice_delapp(nic, &app, ret_msg)
				  : nicsim_mlx5_delapp(nic, &app, ret_msg);
		else
			err = ice ? nicsim_ice_setapp(nic, &app, ret_msg)
				  : nicsim_mlx5_setapp(nic, &app, ret_msg);
		if (err)
			return err;
	}
	return 0;
}

static bool is_set_cmd(uint8_t cmd)
{
	switch (cmd) {
	case DCB_CMD_SSTATE: case DCB_CMD_PFC_SCFG: case DCB_CMD_SNUMTCS:
	case DCB_CMD_PFC_SSTATE: case DCB_CMD_SAPP: case DCB_CMD_PGTX_SCFG:
	case DCB_CMD_PGRX_SCFG: case DCB_CMD_SET_ALL: case DCB_CMD_BCN_SCFG:
	case DCB_CMD_IEEE_SET: case DCB_CMD_IEEE_DEL: case DCB_CMD_SDCBX:
	case DCB_CMD_SFEATCFG:
		return true;
	default:
		return false;
	}
}

int nicsim_dcb_handle(struct nicsim_if *nic, const struct nlmsghdr *req,
		      uint32_t portid, struct nicsim_out *out,
		      const char **ret_msg)
{
	const struct dcbmsg *dm = mnl_nlmsg_get_payload(req);
	struct nlmsghdr *nlh;
	struct dcb_req r;
	uint8_t cmd;
	int err;

	err = parse_top(req, &r);
	if (err)
		return err;
	cmd = dm->cmd;
	if (cmd > DCB_CMD_MAX)
		return -EINVAL;
	if (is_set_cmd(cmd))
		nic->set[NICSIM_DCBNL]++;
	else
		nic->get[NICSIM_DCBNL]++;

	switch (cmd) {
	case DCB_CMD_IEEE_GET:
		nlh = reply_new(out, req, RTM_GETDCB, cmd, portid);
		if (!nlh)
			return -ENOMEM;
		fill_ieee(nic, nlh);
		break;
	case DCB_CMD_IEEE_SET:
	case DCB_CMD_IEEE_DEL:
		err = parse_ieee(&r);
		if (err)
			return err;
		err = ieee_apply(nic, &r, cmd == DCB_CMD_IEEE_DEL, ret_msg);
		nlh = reply_new(out, req, RTM_SETDCB, cmd, portid);
		if (!nlh)
			return -ENOMEM;
		mnl_attr_put_u8(nlh, DCB_ATTR_IEEE, (uint8_t)err);
		/* The driver's message goes to the kernel log, not the
		 * ACK (the ACK is 0). */
		*ret_msg = NULL;
		break;
	case DCB_CMD_GDCBX:
		nlh = reply_new(out, req, RTM_GETDCB, cmd, portid);
		if (!nlh)
			return -ENOMEM;
		mnl_attr_put_u8(nlh, DCB_ATTR_DCBX, nic->dcbx);
		break;
	case DCB_CMD_SDCBX:
		if (!r.tb[DCB_ATTR_DCBX] || mnl_attr_validate(r.tb[DCB_ATTR_DCBX], MNL_TYPE_U8) < 0)
			return -EINVAL;
		nlh = reply_new(out, req, RTM_SETDCB, cmd, portid);
		if (!nlh)
			return -ENOMEM;
		mnl_attr_put_u8(nlh, DCB_ATTR_DCBX, nic->profile == NICSIM_E810 ?
				nicsim_ice_setdcbx(nic, mnl_attr_get_u8(r.tb[DCB_ATTR_DCBX])) :
				nicsim_mlx5_setdcbx(nic, mnl_attr_get_u8(r.tb[DCB_ATTR_DCBX])));
		break;
	case DCB_CMD_GSTATE:
		nlh = reply_new(out, req, RTM_GETDCB, cmd, portid);
		if (!nlh)
			return -ENOMEM;
		mnl_attr_put_u8(nlh, DCB_ATTR_STATE, 1);
		break;
	default:
		/* A command whose op neither driver model has. */
		return -EOPNOTSUPP;
	}
	nicsim_msg_commit(out, nlh);
	return 0;
}
