/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * devlink.c: DEVLINK_CMD_PARAM_GET / _SET (see devlink.h). The layout is
 * the one net/devlink/param.c reads and fills: the handle (BUS_NAME,
 * DEV_NAME) and PARAM_NAME at the top level; a SET adds PARAM_TYPE,
 * PARAM_VALUE_CMODE and, for a bool, PARAM_VALUE_DATA as a flag present
 * for true. The GET reply nests DEVLINK_ATTR_PARAM { NAME, GENERIC, TYPE,
 * VALUES_LIST { VALUE { CMODE, DATA } ... } }.
 */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/devlink.h>
#include <linux/genetlink.h>
#include <stdlib.h>
#include <string.h>

#include "netlink/transport.h"
#include "roce/attrs.h"
#include "roce/devlink.h"
#include "roce/request.h"

static int req_start(void *buf, size_t size, uint16_t family, uint8_t cmd,
		     const char *bus, const char *dev, const char *name,
		     struct nlmsghdr **ret_nlh)
{
	struct nlmsghdr *nlh;
	int err;

	if (!bus || !*bus || !dev || !*dev || !name || !*name ||
	    strlen(name) >= HALO_DEVLINK_NAME_MAX)
		return -EINVAL;
	err = halo_genl_req_start(buf, size, family, cmd, DEVLINK_GENL_VERSION, &nlh);
	if (err < 0)
		return err;
	if (!mnl_attr_put_strz_check(nlh, size, DEVLINK_ATTR_BUS_NAME, bus) ||
	    !mnl_attr_put_strz_check(nlh, size, DEVLINK_ATTR_DEV_NAME, dev) ||
	    !mnl_attr_put_strz_check(nlh, size, DEVLINK_ATTR_PARAM_NAME, name))
		return -EMSGSIZE;
	*ret_nlh = nlh;
	return 0;
}

int halo_devlink_req_param_get(void *buf, size_t size, uint16_t family,
			       const char *bus, const char *dev, const char *name,
			       struct nlmsghdr **ret_nlh)
{
	return req_start(buf, size, family, DEVLINK_CMD_PARAM_GET, bus, dev,
			 name, ret_nlh);
}

int halo_devlink_req_param_set_bool(void *buf, size_t size, uint16_t family,
				    const char *bus, const char *dev,
				    const char *name, uint8_t cmode, bool value,
				    struct nlmsghdr **ret_nlh)
{
	struct nlmsghdr *nlh;
	int err;

	if (cmode >= HALO_DEVLINK_CMODES)
		return -EINVAL;
	err = req_start(buf, size, family, DEVLINK_CMD_PARAM_SET, bus, dev,
			name, &nlh);
	if (err < 0)
		return err;
	/* The kernel wants the type and checks it against the param's. */
	if (!mnl_attr_put_u8_check(nlh, size, DEVLINK_ATTR_PARAM_TYPE,
				   HALO_DEVLINK_PARAM_TYPE_BOOL) ||
	    !mnl_attr_put_u8_check(nlh, size, DEVLINK_ATTR_PARAM_VALUE_CMODE, cmode))
		return -EMSGSIZE;
	/* A bool is the presence of DATA: false is its absence. */
	if (value && !mnl_attr_put_check(nlh, size, DEVLINK_ATTR_PARAM_VALUE_DATA,
					 0, ""))
		return -EMSGSIZE;
	*ret_nlh = nlh;
	return 0;
}

/* ---- parsing ---- */

struct value {
	int cmode;      /* -1 until seen */
	bool data;      /* DATA present */
	bool data_flag; /* ... and empty, as a bool's is */
};

static int value_cb(const struct nlattr *a, void *userdata)
{
	struct value *v = userdata;
	uint8_t cmode;
	int err;

	switch (mnl_attr_get_type(a)) {
	case DEVLINK_ATTR_PARAM_VALUE_CMODE:
		err = halo_attr_u8(a, &cmode);
		if (err == 0)
			v->cmode = cmode;
		return err;
	case DEVLINK_ATTR_PARAM_VALUE_DATA:
		v->data = true;
		v->data_flag = mnl_attr_get_payload_len(a) == 0;
		return 0;
	default:
		return 0;
	}
}

struct param_seen {
	struct halo_devlink_param *p;
	bool name, type;
	/* DATA with a payload, per cmode: wrong for a bool; known only once
	 * the type is, which may come after the values. */
	bool payload[HALO_DEVLINK_CMODES];
};

static int values_cb(const struct nlattr *a, void *userdata)
{
	struct param_seen *s = userdata;
	struct value v = { .cmode = -1 };
	int err;

	if (mnl_attr_get_type(a) != DEVLINK_ATTR_PARAM_VALUE)
		return 0;
	err = halo_attr_walk_nested(a, value_cb, &v);
	if (err < 0)
		return err;
	if (v.cmode < 0)
		return -EBADMSG;
	if (v.cmode >= HALO_DEVLINK_CMODES)
		return 0; /* a cmode newer than this program */
	s->p->has[v.cmode] = true;
	s->p->value[v.cmode] = v.data;
	s->payload[v.cmode] = v.data && !v.data_flag;
	return 0;
}

static int param_cb(const struct nlattr *a, void *userdata)
{
	struct param_seen *s = userdata;
	struct halo_devlink_param *p = s->p;

	switch (mnl_attr_get_type(a)) {
	case DEVLINK_ATTR_PARAM_NAME:
		s->name = true;
		return halo_attr_str(a, p->name, sizeof(p->name));
	case DEVLINK_ATTR_PARAM_GENERIC:
		p->generic = true;
		return halo_attr_flag(a);
	case DEVLINK_ATTR_PARAM_TYPE:
		s->type = true;
		return halo_attr_u8(a, &p->type);
	case DEVLINK_ATTR_PARAM_VALUES_LIST:
		return halo_attr_walk_nested(a, values_cb, s);
	default:
		return 0;
	}
}

static int top_cb(const struct nlattr *a, void *userdata)
{
	if (mnl_attr_get_type(a) != DEVLINK_ATTR_PARAM)
		return 0;
	return halo_attr_walk_nested(a, param_cb, userdata);
}

int halo_devlink_parse_param(const void *nlh, size_t len,
			     struct halo_devlink_param *ret)
{
	struct halo_devlink_param p = { 0 };
	struct param_seen s = { .p = &p };
	int err = halo_attr_genl(nlh, len, DEVLINK_CMD_PARAM_GET, DEVLINK_CMD_PARAM_NEW,
				 top_cb, &s);

	if (err < 0)
		return err;
	if (!s.name || !s.type)
		return -EBADMSG;
	for (int c = 0; c < HALO_DEVLINK_CMODES; c++) {
		if (p.type != HALO_DEVLINK_PARAM_TYPE_BOOL)
			p.value[c] = false; /* other types' values are not read */
		else if (s.payload[c])
			return -EBADMSG;
	}
	*ret = p;
	return 0;
}

/* ---- requests ---- */

#define REQ_SIZE 512

static int parse_param(const void *nlh, size_t len, void *ret)
{
	return halo_devlink_parse_param(nlh, len, ret);
}

int halo_devlink_param_get_bool(struct halo_nlt *t, const char *bus,
				const char *dev, const char *name,
				uint8_t cmode, bool *ret_value)
{
	char buf[REQ_SIZE] __attribute__((aligned(4)));
	struct halo_devlink_param p;
	struct nlmsghdr *nlh;
	uint16_t family;
	int err;

	if (cmode >= HALO_DEVLINK_CMODES)
		return -EINVAL;
	err = halo_nlt_family(t, DEVLINK_GENL_NAME, &family);
	if (err < 0)
		return err;
	err = halo_devlink_req_param_get(buf, sizeof(buf), family, bus, dev,
					 name, &nlh);
	if (err < 0)
		return err;
	err = halo_req_one(t, HALO_NLT_GENERIC, nlh, parse_param, sizeof(p), &p);
	if (err < 0)
		return err;
	if (strcmp(p.name, name) != 0)
		return -EBADMSG; /* about another param */
	if (p.type != HALO_DEVLINK_PARAM_TYPE_BOOL)
		return -EPROTOTYPE;
	if (!p.has[cmode])
		return -ENODATA;
	*ret_value = p.value[cmode];
	return 0;
}

int halo_devlink_param_set_bool(struct halo_nlt *t, const char *bus,
				const char *dev, const char *name,
				uint8_t cmode, bool value)
{
	char buf[REQ_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	uint16_t family;
	int err = halo_nlt_family(t, DEVLINK_GENL_NAME, &family);

	if (err < 0)
		return err;
	err = halo_devlink_req_param_set_bool(buf, sizeof(buf), family, bus, dev,
					      name, cmode, value, &nlh);
	if (err < 0)
		return err;
	return halo_nlt_request(t, HALO_NLT_GENERIC, nlh, NULL, NULL, NULL);
}
