/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * devlink-reload.c: how often a devlink instance has re-initialised its
 * driver, from DEVLINK_CMD_GET (devlink.h). The reply (command
 * DEVLINK_CMD_NEW, net/devlink/dev.c: devlink_nl_fill) carries, since
 * Linux 5.12, DEVLINK_ATTR_DEV_STATS { RELOAD_STATS, REMOTE_RELOAD_STATS },
 * each a list of RELOAD_ACTION_INFO { RELOAD_ACTION u8, RELOAD_ACTION_STATS
 * { RELOAD_STATS_ENTRY { RELOAD_STATS_LIMIT u8, RELOAD_STATS_VALUE u32 }
 * ... } } (devlink_reload_stats_put). A driverinit parameter's value takes
 * effect at a driver_reinit reload, local or caused by another instance
 * (docs/hardware.md "devlink parameters").
 */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/devlink.h>
#include <string.h>

#include "netlink/attrs.h"
#include "netlink/devlink.h"
#include "netlink/request.h"

struct reloads {
	uint64_t count;
	bool has_stats;
	uint8_t action; /* of the RELOAD_ACTION_INFO being read */
	bool have_action;
};

static int entry_cb(const struct nlattr *a, void *userdata)
{
	uint32_t *value = userdata;

	if (mnl_attr_get_type(a) == DEVLINK_ATTR_RELOAD_STATS_VALUE)
		return halo_attr_u32(a, value);
	return 0;
}

static int action_stats_cb(const struct nlattr *a, void *userdata)
{
	struct reloads *r = userdata;
	uint32_t value = 0;
	int err;

	if (mnl_attr_get_type(a) != DEVLINK_ATTR_RELOAD_STATS_ENTRY)
		return 0;
	err = halo_attr_walk_nested(a, entry_cb, &value);
	if (err == 0 && r->action == DEVLINK_RELOAD_ACTION_DRIVER_REINIT)
		r->count += value;
	return err;
}

/* The action comes before its stats (devlink_reload_action_stats_put). */
static int action_info_cb(const struct nlattr *a, void *userdata)
{
	struct reloads *r = userdata;

	switch (mnl_attr_get_type(a)) {
	case DEVLINK_ATTR_RELOAD_ACTION:
		r->have_action = true;
		return halo_attr_u8(a, &r->action);
	case DEVLINK_ATTR_RELOAD_ACTION_STATS:
		if (!r->have_action)
			return -EBADMSG;
		return halo_attr_walk_nested(a, action_stats_cb, r);
	default:
		return 0;
	}
}

static int stats_cb(const struct nlattr *a, void *userdata)
{
	struct reloads *r = userdata;

	if (mnl_attr_get_type(a) != DEVLINK_ATTR_RELOAD_ACTION_INFO)
		return 0;
	r->have_action = false;
	return halo_attr_walk_nested(a, action_info_cb, r);
}

static int dev_stats_cb(const struct nlattr *a, void *userdata)
{
	struct reloads *r = userdata;
	int type = mnl_attr_get_type(a);

	if (type != DEVLINK_ATTR_RELOAD_STATS && type != DEVLINK_ATTR_REMOTE_RELOAD_STATS)
		return 0;
	r->has_stats = true;
	return halo_attr_walk_nested(a, stats_cb, r);
}

static int top_cb(const struct nlattr *a, void *userdata)
{
	if (mnl_attr_get_type(a) == DEVLINK_ATTR_DEV_STATS)
		return halo_attr_walk_nested(a, dev_stats_cb, userdata);
	return 0;
}

int halo_devlink_parse_reloads(const void *nlh, size_t len, uint64_t *ret)
{
	struct reloads r = { 0 };
	int err = halo_attr_genl(nlh, len, DEVLINK_CMD_NEW, DEVLINK_CMD_GET, top_cb, &r);

	if (err < 0)
		return err;
	if (!r.has_stats)
		return -EOPNOTSUPP;
	*ret = r.count;
	return 0;
}

static int parse_reloads(const void *nlh, size_t len, void *ret)
{
	return halo_devlink_parse_reloads(nlh, len, ret);
}

int halo_devlink_reload_count(struct halo_nlt *t, const char *bus, const char *dev,
			      uint64_t *ret)
{
	char buf[512] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	uint16_t family;
	int err = halo_nlt_family(t, DEVLINK_GENL_NAME, &family);

	if (err < 0)
		return err;
	err = halo_devlink_req_get(buf, sizeof(buf), family, bus, dev, &nlh);
	if (err < 0)
		return err;
	return halo_req_one(t, HALO_NLT_GENERIC, nlh, parse_reloads, sizeof(*ret), ret);
}
