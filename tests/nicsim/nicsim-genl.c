/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nicsim-genl.c: generic netlink for the simulated interfaces: the family
 * lookups, which interface a request is about, and ethtool private flags
 * (devlink itself is nicsim-devlink.c).
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

#define ATTRS_MAX NICSIM_GENL_ATTRS

static int attr_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	uint16_t type = mnl_attr_get_type(a);

	if (type < ATTRS_MAX)
		tb[type] = a;
	return MNL_CB_OK;
}

int nicsim_genl_parse(const struct nlmsghdr *req, size_t hdr, const struct nlattr **tb)
{
	memset(tb, 0, ATTRS_MAX * sizeof(*tb));
	if (req->nlmsg_len < NLMSG_HDRLEN + hdr)
		return -EINVAL;
	return mnl_attr_parse(req, hdr, attr_cb, tb) < 0 ? -EINVAL : 0;
}

const char *nicsim_str_attr(const struct nlattr *a)
{
	if (!a || mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0)
		return NULL;
	return mnl_attr_get_str(a);
}

bool nicsim_present(const struct nicsim_if *nic)
{
	return nicsim_ifindex(nic->name) != 0;
}

bool nicsim_is_dump(const struct nlmsghdr *req)
{
	return (req->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
}

/* ---- routing ---- */

static int devlink_idx(const struct nicsim_if *ifs, size_t n, const struct nlattr **tb)
{
	const char *bus = nicsim_str_attr(tb[DEVLINK_ATTR_BUS_NAME]);
	const char *dev = nicsim_str_attr(tb[DEVLINK_ATTR_DEV_NAME]);

	if (!bus || !dev || strcmp(bus, "pci"))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (strcmp(ifs[i].pci, dev) == 0 && nicsim_present(&ifs[i]))
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
		h->name = nicsim_str_attr(tb[ETHTOOL_A_HEADER_DEV_NAME]);
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
		unsigned idx = nicsim_ifindex(ifs[i].name);

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
	if (nicsim_genl_parse(req, sizeof(*g), tb) < 0)
		return NICSIM_PASS;
	if (req->nlmsg_type == GENL_ID_CTRL) {
		if (g->cmd != CTRL_CMD_GETFAMILY || nicsim_is_dump(req))
			return NICSIM_PASS;
		name = nicsim_str_attr(tb[CTRL_ATTR_FAMILY_NAME]);
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

struct nlmsghdr *nicsim_genl_new(struct nicsim_out *out, const struct nlmsghdr *req,
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

	nicsim_genl_parse(req, sizeof(struct genlmsghdr), tb);
	name = nicsim_str_attr(tb[CTRL_ATTR_FAMILY_NAME]);
	if (name)
		devlink = strcmp(name, DEVLINK_GENL_NAME) == 0;
	else
		devlink = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]) == fam->devlink;
	id = devlink ? fam->devlink : fam->ethtool;
	nlh = nicsim_genl_new(out, req, portid, CTRL_CMD_NEWFAMILY, 2, 0);
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
				const char *name = nicsim_str_attr(bt[ETHTOOL_A_BITSET_BIT_NAME]);
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

/* ice_set_priv_flags for fw-lldp-agent (docs/hardware.md "E810: firmware
 * LLDP agent"). */
static int set_priv_flags(struct nicsim_if *nic, uint32_t flags, const char **ret_msg)
{
	uint32_t lldp = 1u << NICSIM_E810_FW_LLDP;

	if (nic->profile == NICSIM_E810 && ((flags ^ nic->priv_flags) & lldp)) {
		if (flags & lldp) {
			if (nic->trust_dscp) {
				*ret_msg = "QoS in L3 DSCP mode, FW Agent not allowed to start";
				return -EOPNOTSUPP;
			}
			nic->dcbx = nicsim_ice_dcbx_mode(true);
		} else {
			/* Software DCBX from the driver's default config
			 * (ice_dcb_sw_dflt_cfg): no PFC, one TC, no APP
			 * entries, L2. */
			nic->dcbx = nicsim_ice_dcbx_mode(false);
			nicsim_ice_sw_default(nic);
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

	nicsim_genl_parse(req, sizeof(*g), tb);
	if (!nic)
		return tb[ETHTOOL_A_PRIVFLAGS_HEADER] ? -ENODEV : -EINVAL;
	eth_header(tb[ETHTOOL_A_PRIVFLAGS_HEADER], &h);
	switch (g->cmd) {
	case ETHTOOL_MSG_PRIVFLAGS_GET:
		nic->get[NICSIM_ETHTOOL]++;
		nlh = nicsim_genl_new(out, req, portid, ETHTOOL_MSG_PRIVFLAGS_GET_REPLY,
			       ETHTOOL_GENL_VERSION, 0);
		if (!nlh)
			return -ENOMEM;
		hdr = mnl_attr_nest_start(nlh, ETHTOOL_A_PRIVFLAGS_HEADER);
		mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_DEV_INDEX, nicsim_ifindex(nic->name));
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
		return nicsim_devlink_handle(ifs, n_ifs, idx, req, portid, out, ret_msg);
	return ethtool(idx >= 0 ? &ifs[idx] : NULL, req, portid, out, ret_msg);
}
