/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nicsim-genl.c: generic netlink for the simulated interfaces: the family
 * lookups, devlink params (enable_roce, enable_iwarp) and info (the
 * firmware versions) on the interface's pci/<addr> instance, and ethtool
 * private flags.
 *
 * Family ids: the kernel's own when it has the family (this machine's has
 * ethtool, not devlink). Then GETFAMILY goes to the kernel unchanged and
 * only requests naming a simulated device are answered here, so a real
 * device in the same process still gets the kernel's answer. When the
 * kernel lacks the family, the simulator answers GETFAMILY itself with an
 * id above the kernel's range (genl ids stay below 1024), and every request
 * of that family: a device it does not simulate is ENODEV, as the kernel
 * would say for an unknown handle.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/devlink.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <net/if.h>
#include <string.h>

#include "nicsim.h"

#define ATTRS_MAX 256
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

static int attr_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	uint16_t type = mnl_attr_get_type(a);

	if (type < ATTRS_MAX)
		tb[type] = a;
	return MNL_CB_OK;
}

static int parse(const struct nlmsghdr *req, size_t hdr, const struct nlattr **tb)
{
	memset(tb, 0, ATTRS_MAX * sizeof(*tb));
	if (req->nlmsg_len < NLMSG_HDRLEN + hdr)
		return -EINVAL;
	return mnl_attr_parse(req, hdr, attr_cb, tb) < 0 ? -EINVAL : 0;
}

static const char *str_attr(const struct nlattr *a)
{
	if (!a || mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0)
		return NULL;
	return mnl_attr_get_str(a);
}

static bool present(const struct nicsim_if *nic)
{
	return if_nametoindex(nic->name) != 0;
}

static bool is_dump(const struct nlmsghdr *req)
{
	return (req->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
}

/* ---- routing ---- */

static int devlink_idx(const struct nicsim_if *ifs, size_t n, const struct nlattr **tb)
{
	const char *bus = str_attr(tb[DEVLINK_ATTR_BUS_NAME]);
	const char *dev = str_attr(tb[DEVLINK_ATTR_DEV_NAME]);

	if (!bus || !dev || strcmp(bus, "pci"))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (strcmp(ifs[i].pci, dev) == 0 && present(&ifs[i]))
			return (int)i;
	return -1;
}

struct eth_hdr {
	uint32_t index;
	const char *name;
	uint32_t flags;
	bool bad;
};

static void eth_header(const struct nlattr *nest, struct eth_hdr *h)
{
	const struct nlattr *tb[ATTRS_MAX] = { 0 };

	memset(h, 0, sizeof(*h));
	if (!nest)
		return;
	if (mnl_attr_parse_nested(nest, attr_cb, tb) < 0) {
		h->bad = true;
		return;
	}
	if (tb[ETHTOOL_A_HEADER_DEV_INDEX]) {
		if (mnl_attr_validate(tb[ETHTOOL_A_HEADER_DEV_INDEX], MNL_TYPE_U32) < 0)
			h->bad = true;
		else
			h->index = mnl_attr_get_u32(tb[ETHTOOL_A_HEADER_DEV_INDEX]);
	}
	if (tb[ETHTOOL_A_HEADER_DEV_NAME]) {
		h->name = str_attr(tb[ETHTOOL_A_HEADER_DEV_NAME]);
		if (!h->name)
			h->bad = true;
	}
	if (tb[ETHTOOL_A_HEADER_FLAGS]) {
		if (mnl_attr_validate(tb[ETHTOOL_A_HEADER_FLAGS], MNL_TYPE_U32) < 0)
			h->bad = true;
		else
			h->flags = mnl_attr_get_u32(tb[ETHTOOL_A_HEADER_FLAGS]);
	}
}

/* The simulated interface an ethtool header names (by index, name or
 * both, which must agree), -1 for none. */
static int ethtool_idx(const struct nicsim_if *ifs, size_t n, const struct eth_hdr *h)
{
	if (h->bad || (!h->index && !h->name))
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned idx = if_nametoindex(ifs[i].name);

		if (!idx)
			continue;
		if (h->index && h->index != idx)
			continue;
		if (h->name && strcmp(h->name, ifs[i].name))
			continue;
		return (int)i;
	}
	return -1;
}

int nicsim_genl_route(const struct nicsim_if *ifs, size_t n_ifs,
		      const struct nicsim_families *fam,
		      const struct nlmsghdr *req, int *ret_idx)
{
	const struct nlattr *tb[ATTRS_MAX];
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(req);
	const char *name;
	struct eth_hdr h;

	*ret_idx = -1;
	if (parse(req, sizeof(*g), tb) < 0)
		return NICSIM_PASS;
	if (req->nlmsg_type == GENL_ID_CTRL) {
		if (g->cmd != CTRL_CMD_GETFAMILY || is_dump(req))
			return NICSIM_PASS;
		name = str_attr(tb[CTRL_ATTR_FAMILY_NAME]);
		if (name && ((strcmp(name, DEVLINK_GENL_NAME) == 0 && fam->devlink_ours) ||
			     (strcmp(name, ETHTOOL_GENL_NAME) == 0 && fam->ethtool_ours)))
			return 0;
		if (!name && tb[CTRL_ATTR_FAMILY_ID] &&
		    mnl_attr_validate(tb[CTRL_ATTR_FAMILY_ID], MNL_TYPE_U16) == 0) {
			uint16_t id = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);

			if ((id == fam->devlink && fam->devlink_ours) ||
			    (id == fam->ethtool && fam->ethtool_ours))
				return 0;
		}
		return NICSIM_PASS;
	}
	if (req->nlmsg_type == fam->devlink) {
		*ret_idx = devlink_idx(ifs, n_ifs, tb);
		return (*ret_idx >= 0 || fam->devlink_ours) ? 0 : NICSIM_PASS;
	}
	if (req->nlmsg_type == fam->ethtool) {
		if (g->cmd != ETHTOOL_MSG_PRIVFLAGS_GET && g->cmd != ETHTOOL_MSG_PRIVFLAGS_SET)
			return fam->ethtool_ours ? 0 : NICSIM_PASS;
		eth_header(tb[ETHTOOL_A_PRIVFLAGS_HEADER], &h);
		*ret_idx = ethtool_idx(ifs, n_ifs, &h);
		return (*ret_idx >= 0 || fam->ethtool_ours) ? 0 : NICSIM_PASS;
	}
	return NICSIM_PASS;
}

/* ---- replies ---- */

static struct nlmsghdr *genl_new(struct nicsim_out *out, const struct nlmsghdr *req,
				 uint32_t portid, uint8_t cmd, uint8_t version,
				 uint16_t flags)
{
	struct nlmsghdr *nlh = nicsim_msg_new(out, 4096);
	struct genlmsghdr *g;

	if (!nlh)
		return NULL;
	nlh->nlmsg_type = req->nlmsg_type;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = req->nlmsg_seq;
	nlh->nlmsg_pid = portid;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

static int getfamily(const struct nicsim_families *fam, const struct nlmsghdr *req,
		     uint32_t portid, struct nicsim_out *out)
{
	const struct nlattr *tb[ATTRS_MAX];
	struct nlmsghdr *nlh;
	const char *name;
	uint16_t id;
	bool devlink;

	parse(req, sizeof(struct genlmsghdr), tb);
	name = str_attr(tb[CTRL_ATTR_FAMILY_NAME]);
	if (name)
		devlink = strcmp(name, DEVLINK_GENL_NAME) == 0;
	else
		devlink = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]) == fam->devlink;
	id = devlink ? fam->devlink : fam->ethtool;
	nlh = genl_new(out, req, portid, CTRL_CMD_NEWFAMILY, 2, 0);
	if (!nlh)
		return -ENOMEM;
	nlh->nlmsg_type = GENL_ID_CTRL;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME,
			  devlink ? DEVLINK_GENL_NAME : ETHTOOL_GENL_NAME);
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, id);
	mnl_attr_put_u32(nlh, CTRL_ATTR_VERSION,
			 devlink ? DEVLINK_GENL_VERSION : ETHTOOL_GENL_VERSION);
	mnl_attr_put_u32(nlh, CTRL_ATTR_HDRSIZE, 0);
	mnl_attr_put_u32(nlh, CTRL_ATTR_MAXATTR,
			 devlink ? DEVLINK_ATTR_MAX : ETHTOOL_A_PRIVFLAGS_MAX);
	nicsim_msg_commit(out, nlh);
	return 0;
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
	struct nlmsghdr *nlh = genl_new(out, req, portid, DEVLINK_CMD_PARAM_GET,
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
	struct nlmsghdr *nlh = genl_new(out, req, portid, DEVLINK_CMD_INFO_GET,
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

static int devlink(struct nicsim_if *ifs, size_t n_ifs, int idx,
		   const struct nlmsghdr *req, uint32_t portid,
		   struct nicsim_out *out, const char **ret_msg)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(req);
	const struct nlattr *tb[ATTRS_MAX];
	struct nicsim_if *nic = idx >= 0 ? &ifs[idx] : NULL;
	const struct param *p;
	struct nlmsghdr *nlh;
	size_t np;
	int err;

	parse(req, sizeof(*g), tb);
	switch (g->cmd) {
	case DEVLINK_CMD_GET:
		if (is_dump(req)) {
			for (size_t i = 0; i < n_ifs; i++) {
				if (!present(&ifs[i]))
					continue;
				nlh = genl_new(out, req, portid, DEVLINK_CMD_NEW,
					       DEVLINK_GENL_VERSION, NLM_F_MULTI);
				if (!nlh)
					return -ENOMEM;
				put_handle(nlh, &ifs[i]);
				mnl_attr_put_u8(nlh, DEVLINK_ATTR_RELOAD_FAILED, 0);
				nicsim_msg_commit(out, nlh);
			}
			return 0;
		}
		if (!nic)
			return -ENODEV;
		nlh = genl_new(out, req, portid, DEVLINK_CMD_NEW, DEVLINK_GENL_VERSION, 0);
		if (!nlh)
			return -ENOMEM;
		put_handle(nlh, nic);
		mnl_attr_put_u8(nlh, DEVLINK_ATTR_RELOAD_FAILED, 0);
		nicsim_msg_commit(out, nlh);
		return 0;
	case DEVLINK_CMD_PARAM_GET:
		if (is_dump(req)) {
			for (size_t i = 0; i < n_ifs; i++) {
				const struct param *ps;

				if (!present(&ifs[i]))
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
		p = param_find(nic, str_attr(tb[DEVLINK_ATTR_PARAM_NAME]));
		if (!p)
			return -EINVAL;
		return param_msg(out, req, portid, nic, p, 0);
	case DEVLINK_CMD_INFO_GET:
		if (is_dump(req)) {
			for (size_t i = 0; i < n_ifs; i++) {
				if (!present(&ifs[i]))
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
		p = param_find(nic, str_attr(tb[DEVLINK_ATTR_PARAM_NAME]));
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
		return 0;
	default:
		return nic ? -EOPNOTSUPP : -ENODEV;
	}
}

/* ---- ethtool private flags ---- */

static int put_bitset(struct nlmsghdr *nlh, const struct nicsim_if *nic, bool compact)
{
	size_t n;
	const char *const *names = nicsim_priv_flag_names(nic->profile, &n);
	uint32_t mask = (uint32_t)((1ull << n) - 1);
	struct nlattr *set, *bits, *bit;

	set = mnl_attr_nest_start(nlh, ETHTOOL_A_PRIVFLAGS_FLAGS);
	mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_SIZE, (uint32_t)n);
	if (compact) {
		uint32_t value = nic->priv_flags & mask;

		mnl_attr_put(nlh, ETHTOOL_A_BITSET_VALUE, sizeof(value), &value);
		mnl_attr_put(nlh, ETHTOOL_A_BITSET_MASK, sizeof(mask), &mask);
	} else {
		bits = mnl_attr_nest_start(nlh, ETHTOOL_A_BITSET_BITS);
		for (size_t i = 0; i < n; i++) {
			bit = mnl_attr_nest_start(nlh, ETHTOOL_A_BITSET_BITS_BIT);
			mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_BIT_INDEX, (uint32_t)i);
			mnl_attr_put_strz(nlh, ETHTOOL_A_BITSET_BIT_NAME, names[i]);
			if (nic->priv_flags & (1u << i))
				mnl_attr_put(nlh, ETHTOOL_A_BITSET_BIT_VALUE, 0, NULL);
			mnl_attr_nest_end(nlh, bit);
		}
		mnl_attr_nest_end(nlh, bits);
	}
	mnl_attr_nest_end(nlh, set);
	return 0;
}

/* ethnl_update_bitset32 on the profile's flags: *RET the new word. */
static int update_bitset(const struct nicsim_if *nic, const struct nlattr *nest,
			 uint32_t *ret, const char **ret_msg)
{
	const struct nlattr *tb[ATTRS_MAX] = { 0 }, *a;
	size_t n;
	uint32_t all, flags = nic->priv_flags;
	bool nomask;

	(void)nicsim_priv_flag_names(nic->profile, &n);
	all = (uint32_t)((1ull << n) - 1);

	if (mnl_attr_parse_nested(nest, attr_cb, tb) < 0)
		return -EINVAL;
	nomask = tb[ETHTOOL_A_BITSET_NOMASK] != NULL;
	if (tb[ETHTOOL_A_BITSET_BITS]) {
		if (tb[ETHTOOL_A_BITSET_VALUE] || tb[ETHTOOL_A_BITSET_MASK])
			return -EINVAL;
		if (nomask)
			flags = 0;
		mnl_attr_for_each_nested(a, tb[ETHTOOL_A_BITSET_BITS]) {
			const struct nlattr *bt[ATTRS_MAX] = { 0 };
			long idx = -1;

			if (mnl_attr_get_type(a) != ETHTOOL_A_BITSET_BITS_BIT)
				return -EINVAL;
			if (mnl_attr_parse_nested(a, attr_cb, bt) < 0)
				return -EINVAL;
			if (bt[ETHTOOL_A_BITSET_BIT_INDEX]) {
				idx = mnl_attr_get_u32(bt[ETHTOOL_A_BITSET_BIT_INDEX]);
				if ((size_t)idx >= n) {
					*ret_msg = "bit index too high";
					return -EOPNOTSUPP;
				}
			}
			if (bt[ETHTOOL_A_BITSET_BIT_NAME]) {
				const char *name = str_attr(bt[ETHTOOL_A_BITSET_BIT_NAME]);
				int i = name ? nicsim_priv_flag_index(nic->profile, name) : -1;

				if (i < 0) {
					*ret_msg = "cannot find bit name";
					return -EOPNOTSUPP;
				}
				if (idx >= 0 && idx != i) {
					*ret_msg = "bit index and name mismatch";
					return -EINVAL;
				}
				idx = i;
			}
			if (idx < 0) {
				*ret_msg = "neither bit index nor name specified";
				return -EINVAL;
			}
			if (nomask || bt[ETHTOOL_A_BITSET_BIT_VALUE])
				flags |= 1u << idx;
			else
				flags &= ~(1u << idx);
		}
	} else {
		uint32_t value = 0, mask = all;

		if (!tb[ETHTOOL_A_BITSET_VALUE] || !tb[ETHTOOL_A_BITSET_SIZE])
			return -EINVAL;
		if (mnl_attr_get_payload_len(tb[ETHTOOL_A_BITSET_VALUE]) < sizeof(value))
			return -EINVAL;
		memcpy(&value, mnl_attr_get_payload(tb[ETHTOOL_A_BITSET_VALUE]), sizeof(value));
		if (!nomask) {
			if (!tb[ETHTOOL_A_BITSET_MASK] ||
			    mnl_attr_get_payload_len(tb[ETHTOOL_A_BITSET_MASK]) < sizeof(mask))
				return -EINVAL;
			memcpy(&mask, mnl_attr_get_payload(tb[ETHTOOL_A_BITSET_MASK]), sizeof(mask));
		}
		if ((value | mask) & ~all) {
			*ret_msg = "cannot modify bits past kernel bitset size";
			return -EINVAL;
		}
		flags = (flags & ~mask) | (value & mask);
	}
	*ret = flags & all;
	return 0;
}

/* ice_set_priv_flags for fw-lldp-agent (FACTS 3). */
static int set_priv_flags(struct nicsim_if *nic, uint32_t flags, const char **ret_msg)
{
	uint32_t lldp = 1u << NICSIM_E810_FW_LLDP;

	if (nic->profile == NICSIM_E810 && ((flags ^ nic->priv_flags) & lldp)) {
		if (flags & lldp) {
			if (nic->trust_dscp) {
				*ret_msg = "QoS in L3 DSCP mode, FW Agent not allowed to start";
				return -EOPNOTSUPP;
			}
			nic->dcbx = DCB_CAP_DCBX_LLD_MANAGED | DCB_CAP_DCBX_VER_CEE |
				    DCB_CAP_DCBX_VER_IEEE;
		} else {
			/* Software DCBX from the driver's default config
			 * (ice_dcb_sw_dflt_cfg): no PFC, no APP entries. */
			nic->dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
			nic->pfc_en = 0;
			nic->n_app = 0;
			nic->trust_dscp = false;
		}
	}
	nic->priv_flags = flags;
	return 0;
}

static int ethtool(struct nicsim_if *nic, const struct nlmsghdr *req,
		   uint32_t portid, struct nicsim_out *out, const char **ret_msg)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(req);
	const struct nlattr *tb[ATTRS_MAX];
	struct nlmsghdr *nlh;
	struct nlattr *hdr;
	struct eth_hdr h;
	uint32_t flags;
	int err;

	parse(req, sizeof(*g), tb);
	if (!nic)
		return tb[ETHTOOL_A_PRIVFLAGS_HEADER] ? -ENODEV : -EINVAL;
	eth_header(tb[ETHTOOL_A_PRIVFLAGS_HEADER], &h);
	switch (g->cmd) {
	case ETHTOOL_MSG_PRIVFLAGS_GET:
		nic->get[NICSIM_ETHTOOL]++;
		nlh = genl_new(out, req, portid, ETHTOOL_MSG_PRIVFLAGS_GET_REPLY,
			       ETHTOOL_GENL_VERSION, 0);
		if (!nlh)
			return -ENOMEM;
		hdr = mnl_attr_nest_start(nlh, ETHTOOL_A_PRIVFLAGS_HEADER);
		mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_DEV_INDEX, if_nametoindex(nic->name));
		mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, nic->name);
		mnl_attr_nest_end(nlh, hdr);
		put_bitset(nlh, nic, h.flags & ETHTOOL_FLAG_COMPACT_BITSETS);
		nicsim_msg_commit(out, nlh);
		return 0;
	case ETHTOOL_MSG_PRIVFLAGS_SET:
		nic->set[NICSIM_ETHTOOL]++;
		if (!tb[ETHTOOL_A_PRIVFLAGS_FLAGS])
			return -EINVAL;
		err = update_bitset(nic, tb[ETHTOOL_A_PRIVFLAGS_FLAGS], &flags, ret_msg);
		if (err)
			return err;
		if (flags == nic->priv_flags)
			return 0; /* !mod: the driver is not called */
		return set_priv_flags(nic, flags, ret_msg);
	default:
		return -EOPNOTSUPP;
	}
}

int nicsim_genl_handle(struct nicsim_if *ifs, size_t n_ifs, int idx,
		       const struct nicsim_families *fam,
		       const struct nlmsghdr *req, uint32_t portid,
		       struct nicsim_out *out, const char **ret_msg)
{
	if (req->nlmsg_type == GENL_ID_CTRL)
		return getfamily(fam, req, portid, out);
	if (req->nlmsg_type == fam->devlink)
		return devlink(ifs, n_ifs, idx, req, portid, out, ret_msg);
	return ethtool(idx >= 0 ? &ifs[idx] : NULL, req, portid, out, ret_msg);
}
