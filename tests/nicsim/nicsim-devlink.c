/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nicsim-devlink.c: devlink on the interface's pci/<addr> instance, as
 * net/devlink (dev.c, param.c) and the two drivers answer it: the device
 * itself (GET, with the reload statistics devlink_nl_fill reports), its
 * parameters enable_roce and enable_iwarp, its info (firmware versions),
 * and reload.
 *
 * A driverinit parameter (mlx5's enable_roce) reads back its new value at
 * once, yet the device runs with the old one until a reload with action
 * driver_reinit (devlink_reload: devlink_params_driverinit_load_new); the
 * reload statistics are how a reader tells that one happened.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/devlink.h>
#include <linux/genetlink.h>
#include <string.h>

#include "nicsim.h"

/* DEVLINK_PARAM_TYPE_BOOL: the kernel's NLA_FLAG. */
#define PARAM_TYPE_BOOL 6

struct param {
	const char *name;
	uint8_t cmode;
};

/* ice: both runtime (devlink.c); mlx5: enable_roce is driverinit and there
 * is no enable_iwarp (mlx5 devlink.c). */
static const struct param e810_params[] = {
	{ "enable_roce", DEVLINK_PARAM_CMODE_RUNTIME },
	{ "enable_iwarp", DEVLINK_PARAM_CMODE_RUNTIME },
};
static const struct param connectx_params[] = {
	{ "enable_roce", DEVLINK_PARAM_CMODE_DRIVERINIT },
};

static const struct param *params_of(const struct nicsim_if *nic, size_t *ret_n)
{
	if (nic->profile == NICSIM_E810) {
		*ret_n = 2;
		return e810_params;
	}
	*ret_n = 1;
	return connectx_params;
}

static bool *param_value(struct nicsim_if *nic, const char *name)
{
	return strcmp(name, "enable_roce") == 0 ? &nic->enable_roce : &nic->enable_iwarp;
}

static bool *active_value(struct nicsim_if *nic, const char *name)
{
	return strcmp(name, "enable_roce") == 0 ? &nic->active_roce : &nic->active_iwarp;
}


static void put_handle(struct nlmsghdr *nlh, const struct nicsim_if *nic)
{
	mnl_attr_put_strz(nlh, DEVLINK_ATTR_BUS_NAME, "pci");
	mnl_attr_put_strz(nlh, DEVLINK_ATTR_DEV_NAME, nic->pci);
}

static int param_msg(struct nicsim_out *out, const struct nlmsghdr *req,
		     uint32_t portid, struct nicsim_if *nic,
		     const struct param *p, uint16_t flags)
{
	struct nlmsghdr *nlh = nicsim_genl_new(out, req, portid, DEVLINK_CMD_PARAM_GET,
					DEVLINK_GENL_VERSION, flags);
	struct nlattr *param, *list, *value;

	if (!nlh)
		return -ENOMEM;
	put_handle(nlh, nic);
	param = mnl_attr_nest_start(nlh, DEVLINK_ATTR_PARAM);
	mnl_attr_put_strz(nlh, DEVLINK_ATTR_PARAM_NAME, p->name);
	mnl_attr_put(nlh, DEVLINK_ATTR_PARAM_GENERIC, 0, NULL);
	mnl_attr_put_u8(nlh, DEVLINK_ATTR_PARAM_TYPE, PARAM_TYPE_BOOL);
	list = mnl_attr_nest_start(nlh, DEVLINK_ATTR_PARAM_VALUES_LIST);
	value = mnl_attr_nest_start(nlh, DEVLINK_ATTR_PARAM_VALUE);
	mnl_attr_put_u8(nlh, DEVLINK_ATTR_PARAM_VALUE_CMODE, p->cmode);
	if (*param_value(nic, p->name))
		mnl_attr_put(nlh, DEVLINK_ATTR_PARAM_VALUE_DATA, 0, NULL);
	mnl_attr_nest_end(nlh, value);
	mnl_attr_nest_end(nlh, list);
	mnl_attr_nest_end(nlh, param);
	nicsim_msg_commit(out, nlh);
	return 0;
}

/* ---- devlink info (net/devlink/dev.c devlink_nl_info_fill) ---- */

static void put_version(struct nlmsghdr *nlh, uint16_t kind, const char *name,
			const char *value)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, kind);

	mnl_attr_put_strz(nlh, DEVLINK_ATTR_INFO_VERSION_NAME, name);
	mnl_attr_put_strz(nlh, DEVLINK_ATTR_INFO_VERSION_VALUE, value);
	mnl_attr_nest_end(nlh, nest);
}

/* ice_devlink_info_get: the DSN as serial number, then its versions table
 * in order, combined() ones running then stored (nothing pending, so the
 * same value); the NVM is fw.psid.api. */
static void e810_info(struct nlmsghdr *nlh, const struct nicsim_if *nic)
{
	static const struct { const char *name, *value; bool stored; } vs[] = {
		{ "fw.mgmt", "7.5.4", false },
		{ "fw.mgmt.api", "1.7.11", false },
		{ "fw.mgmt.build", "0x7bd5a3e7", false },
		{ "fw.undi", "1.3534.0", true },
		{ "fw.psid.api", NULL, true },
		{ "fw.bundle_id", "0x8001f1a3", true },
		{ "fw.app.name", "ICE OS Default Package", false },
		{ "fw.app", "1.3.36.0", false },
		{ "fw.app.bundle_id", "0xc0000001", false },
		{ "fw.netlist", "4.4.5000-2.15.0", true },
		{ "fw.netlist.build", "0x9a5b6d3b", true },
	};

	mnl_attr_put_strz(nlh, DEVLINK_ATTR_INFO_SERIAL_NUMBER, "b4-96-91-ff-ff-a5-c2-40");
	put_version(nlh, DEVLINK_ATTR_INFO_VERSION_FIXED, "board.id", "K91258-000");
	for (size_t i = 0; i < sizeof(vs) / sizeof(vs[0]); i++) {
		const char *v = vs[i].value ? vs[i].value : nic->fw;

		put_version(nlh, DEVLINK_ATTR_INFO_VERSION_RUNNING, vs[i].name, v);
		if (vs[i].stored)
			put_version(nlh, DEVLINK_ATTR_INFO_VERSION_STORED, vs[i].name, v);
	}
}

/* mlx5_devlink_info_get: fixed fw.psid, running and stored fw.version and
 * its "fw" twin, the board serial number. */
static void connectx_info(struct nlmsghdr *nlh, const struct nicsim_if *nic)
{
	mnl_attr_put_strz(nlh, DEVLINK_ATTR_INFO_BOARD_SERIAL_NUMBER, "MT2225300179");
	put_version(nlh, DEVLINK_ATTR_INFO_VERSION_FIXED, "fw.psid", "MT_0000000359");
	put_version(nlh, DEVLINK_ATTR_INFO_VERSION_RUNNING, "fw.version", nic->fw);
	put_version(nlh, DEVLINK_ATTR_INFO_VERSION_RUNNING, "fw", nic->fw);
	put_version(nlh, DEVLINK_ATTR_INFO_VERSION_STORED, "fw.version", nic->fw);
	put_version(nlh, DEVLINK_ATTR_INFO_VERSION_STORED, "fw", nic->fw);
}

static int info_msg(struct nicsim_out *out, const struct nlmsghdr *req, uint32_t portid,
		    const struct nicsim_if *nic, uint16_t flags)
{
	struct nlmsghdr *nlh = nicsim_genl_new(out, req, portid, DEVLINK_CMD_INFO_GET,
					DEVLINK_GENL_VERSION, flags);

	if (!nlh)
		return -ENOMEM;
	put_handle(nlh, nic);
	if (nic->profile == NICSIM_E810)
		e810_info(nlh, nic);
	else
		connectx_info(nlh, nic);
	/* The core puts the driver's name last. */
	mnl_attr_put_strz(nlh, DEVLINK_ATTR_INFO_DRIVER_NAME,
			  nic->profile == NICSIM_E810 ? "ice" : "mlx5_core");
	nicsim_msg_commit(out, nlh);
	return 0;
}

static const struct param *param_find(const struct nicsim_if *nic, const char *name)
{
	size_t n;
	const struct param *ps = params_of(nic, &n);

	for (size_t i = 0; name && i < n; i++)
		if (strcmp(ps[i].name, name) == 0)
			return &ps[i];
	return NULL;
}

/* ice_devlink_enable_{roce,iw}_validate: the value is not even looked at,
 * the other protocol being on is enough to refuse. */
static int param_validate(const struct nicsim_if *nic, const struct param *p,
			  const char **ret_msg)
{
	if (nic->profile != NICSIM_E810)
		return 0;
	if (strcmp(p->name, "enable_roce") == 0 && nic->enable_iwarp) {
		*ret_msg = "ice: iWARP is currently enabled. This device cannot enable iWARP and RoCEv2 simultaneously";
		return -EOPNOTSUPP;
	}
	if (strcmp(p->name, "enable_iwarp") == 0 && nic->enable_roce) {
		*ret_msg = "ice: RoCEv2 is currently enabled. This device cannot enable iWARP and RoCEv2 simultaneously";
		return -EOPNOTSUPP;
	}
	return 0;
}

/* ---- the device and its reload (net/devlink/dev.c) ---- */

/* The reload limits each driver declares: mlx5 no_reset, ice none; both
 * declare the actions driver_reinit and fw_activate. */
static uint32_t reload_limits(const struct nicsim_if *nic)
{
	return nic->profile == NICSIM_CONNECTX ? 1u << DEVLINK_RELOAD_LIMIT_NO_RESET : 0;
}

/* devlink_reload_combination_is_invalid: driver_reinit cannot be no_reset. */
static bool combination_invalid(unsigned action, unsigned limit)
{
	return action == DEVLINK_RELOAD_ACTION_DRIVER_REINIT &&
	       limit == DEVLINK_RELOAD_LIMIT_NO_RESET;
}

static uint32_t reload_count(const struct nicsim_if *nic, unsigned action, unsigned limit,
			     bool remote)
{
	/* Only driver_reinit without a limit is ever performed here. */
	return !remote && action == DEVLINK_RELOAD_ACTION_DRIVER_REINIT &&
	       limit == DEVLINK_RELOAD_LIMIT_UNSPEC ? (uint32_t)nic->reloads : 0;
}

/* devlink_reload_stats_put: per supported action (remote: every action),
 * one entry per limit (unspecified always, the others when supported or
 * remote), the invalid combination left out. */
static void reload_stats_put(struct nlmsghdr *nlh, const struct nicsim_if *nic, bool remote)
{
	struct nlattr *stats = mnl_attr_nest_start(nlh, remote ? DEVLINK_ATTR_REMOTE_RELOAD_STATS
							      : DEVLINK_ATTR_RELOAD_STATS);

	for (unsigned a = DEVLINK_RELOAD_ACTION_DRIVER_REINIT; a <= DEVLINK_RELOAD_ACTION_MAX; a++) {
		struct nlattr *info = mnl_attr_nest_start(nlh, DEVLINK_ATTR_RELOAD_ACTION_INFO);
		struct nlattr *act;

		mnl_attr_put_u8(nlh, DEVLINK_ATTR_RELOAD_ACTION, (uint8_t)a);
		act = mnl_attr_nest_start(nlh, DEVLINK_ATTR_RELOAD_ACTION_STATS);
		for (unsigned l = 0; l <= DEVLINK_RELOAD_LIMIT_MAX; l++) {
			struct nlattr *entry;

			if ((!remote && l != DEVLINK_RELOAD_LIMIT_UNSPEC &&
			     !(reload_limits(nic) & (1u << l))) || combination_invalid(a, l))
				continue;
			entry = mnl_attr_nest_start(nlh, DEVLINK_ATTR_RELOAD_STATS_ENTRY);
			mnl_attr_put_u8(nlh, DEVLINK_ATTR_RELOAD_STATS_LIMIT, (uint8_t)l);
			mnl_attr_put_u32(nlh, DEVLINK_ATTR_RELOAD_STATS_VALUE,
					 reload_count(nic, a, l, remote));
			mnl_attr_nest_end(nlh, entry);
		}
		mnl_attr_nest_end(nlh, act);
		mnl_attr_nest_end(nlh, info);
	}
	mnl_attr_nest_end(nlh, stats);
}

/* devlink_nl_fill: the handle, reload_failed, the statistics. */
static void dev_fill(struct nlmsghdr *nlh, const struct nicsim_if *nic)
{
	struct nlattr *dev_stats;

	put_handle(nlh, nic);
	mnl_attr_put_u8(nlh, DEVLINK_ATTR_RELOAD_FAILED, 0);
	dev_stats = mnl_attr_nest_start(nlh, DEVLINK_ATTR_DEV_STATS);
	reload_stats_put(nlh, nic, false);
	reload_stats_put(nlh, nic, true);
	mnl_attr_nest_end(nlh, dev_stats);
}

/* devlink_nl_reload_doit with the drivers' reload_down/reload_up. */
static int reload(struct nicsim_if *nic, const struct nlattr **tb, const struct nlmsghdr *req,
		  uint32_t portid, struct nicsim_out *out, const char **ret_msg)
{
	unsigned action = DEVLINK_RELOAD_ACTION_DRIVER_REINIT, limit = DEVLINK_RELOAD_LIMIT_UNSPEC;
	const struct nlattr *a = tb[DEVLINK_ATTR_RELOAD_ACTION];
	struct nlmsghdr *nlh;

	if (a) {
		if (mnl_attr_validate(a, MNL_TYPE_U8) < 0)
			return -EINVAL;
		action = mnl_attr_get_u8(a);
	}
	if (action != DEVLINK_RELOAD_ACTION_DRIVER_REINIT &&
	    action != DEVLINK_RELOAD_ACTION_FW_ACTIVATE) {
		*ret_msg = "Requested reload action is not supported by the driver";
		return -EOPNOTSUPP;
	}
	if (tb[DEVLINK_ATTR_RELOAD_LIMITS]) {
		struct nla_bitfield32 bf;
		uint32_t sel;

		if (mnl_attr_get_payload_len(tb[DEVLINK_ATTR_RELOAD_LIMITS]) < sizeof(bf))
			return -EINVAL;
		memcpy(&bf, mnl_attr_get_payload(tb[DEVLINK_ATTR_RELOAD_LIMITS]), sizeof(bf));
		sel = bf.value & bf.selector;
		if (!sel) {
			*ret_msg = "Invalid limit selected";
			return -EINVAL;
		}
		for (limit = 0; limit <= DEVLINK_RELOAD_LIMIT_MAX; limit++)
			if (sel & (1u << limit))
				break;
		if (sel != 1u << limit) {
			*ret_msg = "Multiselection of limit is not supported";
			return -EOPNOTSUPP;
		}
		if (!(reload_limits(nic) & sel)) {
			*ret_msg = "Requested limit is not supported by the driver";
			return -EOPNOTSUPP;
		}
		if (combination_invalid(action, limit)) {
			*ret_msg = "Requested limit is invalid for this action";
			return -EINVAL;
		}
	}
	if (tb[DEVLINK_ATTR_NETNS_PID] || tb[DEVLINK_ATTR_NETNS_FD] || tb[DEVLINK_ATTR_NETNS_ID]) {
		*ret_msg = "nicsim: moving the instance to another namespace is not simulated";
		return -EOPNOTSUPP;
	}
	if (action == DEVLINK_RELOAD_ACTION_FW_ACTIVATE) {
		/* No firmware update is ever pending on a simulated NIC. */
		if (nic->profile == NICSIM_E810) {
			*ret_msg = "ice: No pending firmware update";
			return -ECANCELED;
		}
		*ret_msg = "mlx5_core: FW activate is unsupported for this function";
		return -EOPNOTSUPP;
	}
	if (nic->profile == NICSIM_E810 && nic->bonded) {
		*ret_msg = "ice: Remove all associated Bonds before doing reinit";
		return -EBUSY;
	}
	/* reload_down unloads the driver, reload_up loads it with the
	 * driverinit values; the netdev goes through it as ice or mlx5 takes
	 * it (mlx5: detached and attached again, the carrier lost; ice: the
	 * port brought down and up). */
	nic->active_roce = nic->enable_roce;
	nic->active_iwarp = nic->enable_iwarp;
	nic->reloads++;
	if (nic->profile == NICSIM_CONNECTX)
		nicsim_carrier_flap(nic);
	else
		nicsim_port_reset(nic);
	/* Only a request naming an action or a limit gets the reply. */
	if (!tb[DEVLINK_ATTR_RELOAD_ACTION] && !tb[DEVLINK_ATTR_RELOAD_LIMITS])
		return 0;
	nlh = nicsim_genl_new(out, req, portid, DEVLINK_CMD_RELOAD, DEVLINK_GENL_VERSION, 0);
	if (!nlh)
		return -ENOMEM;
	put_handle(nlh, nic);
	{
		struct nla_bitfield32 done = { 1u << action, 1u << action };

		mnl_attr_put(nlh, DEVLINK_ATTR_RELOAD_ACTIONS_PERFORMED, sizeof(done), &done);
	}
	nicsim_msg_commit(out, nlh);
	return 0;
}

int nicsim_devlink_handle(struct nicsim_if *ifs, size_t n_ifs, int idx,
			  const struct nlmsghdr *req, uint32_t portid,
			  struct nicsim_out *out, const char **ret_msg)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(req);
	const struct nlattr *tb[NICSIM_GENL_ATTRS];
	struct nicsim_if *nic = idx >= 0 ? &ifs[idx] : NULL;
	const struct param *p;
	struct nlmsghdr *nlh;
	size_t np;
	int err;

	nicsim_genl_parse(req, sizeof(*g), tb);
	switch (g->cmd) {
	case DEVLINK_CMD_GET:
		if (nicsim_is_dump(req)) {
			for (size_t i = 0; i < n_ifs; i++) {
				if (!nicsim_present(&ifs[i]))
					continue;
				nlh = nicsim_genl_new(out, req, portid, DEVLINK_CMD_NEW,
					       DEVLINK_GENL_VERSION, NLM_F_MULTI);
				if (!nlh)
					return -ENOMEM;
				dev_fill(nlh, &ifs[i]);
				nicsim_msg_commit(out, nlh);
			}
			return 0;
		}
		if (!nic)
			return -ENODEV;
		nlh = nicsim_genl_new(out, req, portid, DEVLINK_CMD_NEW, DEVLINK_GENL_VERSION, 0);
		if (!nlh)
			return -ENOMEM;
		dev_fill(nlh, nic);
		nicsim_msg_commit(out, nlh);
		return 0;
	case DEVLINK_CMD_PARAM_GET:
		if (nicsim_is_dump(req)) {
			for (size_t i = 0; i < n_ifs; i++) {
				const struct param *ps;

				if (!nicsim_present(&ifs[i]))
					continue;
				ifs[i].get[NICSIM_DEVLINK]++;
				ps = params_of(&ifs[i], &np);
				for (size_t j = 0; j < np; j++) {
					err = param_msg(out, req, portid, &ifs[i], &ps[j],
							NLM_F_MULTI);
					if (err)
						return err;
				}
			}
			return 0;
		}
		if (!nic)
			return -ENODEV;
		nic->get[NICSIM_DEVLINK]++;
		p = param_find(nic, nicsim_str_attr(tb[DEVLINK_ATTR_PARAM_NAME]));
		if (!p)
			return -EINVAL;
		return param_msg(out, req, portid, nic, p, 0);
	case DEVLINK_CMD_INFO_GET:
		if (nicsim_is_dump(req)) {
			for (size_t i = 0; i < n_ifs; i++) {
				if (!nicsim_present(&ifs[i]))
					continue;
				ifs[i].get[NICSIM_DEVLINK]++;
				err = info_msg(out, req, portid, &ifs[i], NLM_F_MULTI);
				if (err)
					return err;
			}
			return 0;
		}
		if (!nic)
			return -ENODEV;
		nic->get[NICSIM_DEVLINK]++;
		return info_msg(out, req, portid, nic, 0);
	case DEVLINK_CMD_PARAM_SET:
		if (!nic)
			return -ENODEV;
		nic->set[NICSIM_DEVLINK]++;
		p = param_find(nic, nicsim_str_attr(tb[DEVLINK_ATTR_PARAM_NAME]));
		if (!p)
			return -EINVAL;
		if (!tb[DEVLINK_ATTR_PARAM_TYPE] ||
		    mnl_attr_validate(tb[DEVLINK_ATTR_PARAM_TYPE], MNL_TYPE_U8) < 0 ||
		    mnl_attr_get_u8(tb[DEVLINK_ATTR_PARAM_TYPE]) != PARAM_TYPE_BOOL)
			return -EINVAL;
		if (!tb[DEVLINK_ATTR_PARAM_VALUE_CMODE] ||
		    mnl_attr_validate(tb[DEVLINK_ATTR_PARAM_VALUE_CMODE], MNL_TYPE_U8) < 0)
			return -EINVAL;
		if (mnl_attr_get_u8(tb[DEVLINK_ATTR_PARAM_VALUE_CMODE]) != p->cmode)
			return -EOPNOTSUPP;
		err = param_validate(nic, p, ret_msg);
		if (err)
			return err;
		*param_value(nic, p->name) = tb[DEVLINK_ATTR_PARAM_VALUE_DATA] != NULL;
		/* A runtime value is in effect at once; a driverinit one
		 * waits for the next reload (devlink_reload loads it). */
		if (p->cmode == DEVLINK_PARAM_CMODE_RUNTIME)
			*active_value(nic, p->name) = *param_value(nic, p->name);
		return 0;
	case DEVLINK_CMD_RELOAD:
		if (!nic)
			return -ENODEV;
		nic->set[NICSIM_DEVLINK]++;
		return reload(nic, tb, req, portid, out, ret_msg);
	default:
		return nic ? -EOPNOTSUPP : -ENODEV;
	}
}

