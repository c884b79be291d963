/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * devlink.c: DEVLINK_CMD_PARAM_GET / _SET (see devlink.h). The layout is
 * the one net/devlink/param.c reads and fills: the handle (BUS_NAME,
 * DEV_NAME) and PARAM_NAME at the top level; a SET adds PARAM_TYPE,
 * PARAM_VALUE_CMODE and, for a bool, PARAM_VALUE_DATA as a flag present
 * for true. The GET reply nests DEVLINK_ATTR_PARAM { NAME, GENERIC, TYPE,
 * VALUES_LIST { VALUE { CMODE, DATA } ... } }.
 *
 * DEVLINK_CMD_INFO_GET (net/devlink/dev.c, devlink_nl_info_fill): the
 * request is the handle alone; the reply (command INFO_GET) carries the
 * handle, what the driver's info_get puts (ice: SERIAL_NUMBER, then its
 * versions table; mlx5: fixed fw.psid, running and stored fw.version),
 * and DRIVER_NAME last, put by the core. Each version is a nest
 * { INFO_VERSION_NAME, INFO_VERSION_VALUE } of strings.
 */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/devlink.h>
#include <linux/genetlink.h>
#include <stdlib.h>
#include <string.h>

#include "netlink/transport.h"
#include "netlink/attrs.h"
#include "netlink/devlink.h"
#include "netlink/request.h"

/* The request's start: the genl header and the handle. */
static int handle_start(void *buf, size_t size, uint16_t family, uint8_t cmd,
			const char *bus, const char *dev, struct nlmsghdr **ret_nlh)
{
	struct nlmsghdr *nlh;
	int err;

	if (!bus || !*bus || !dev || !*dev)
		return -EINVAL;
	err = halo_genl_req_start(buf, size, family, cmd, DEVLINK_GENL_VERSION, &nlh);
	if (err < 0)
		return err;
	if (!mnl_attr_put_strz_check(nlh, size, DEVLINK_ATTR_BUS_NAME, bus) ||
	    !mnl_attr_put_strz_check(nlh, size, DEVLINK_ATTR_DEV_NAME, dev))
		return -EMSGSIZE;
	*ret_nlh = nlh;
	return 0;
}

static int req_start(void *buf, size_t size, uint16_t family, uint8_t cmd,
		     const char *bus, const char *dev, const char *name,
		     struct nlmsghdr **ret_nlh)
{
	struct nlmsghdr *nlh;
	int err;

	if (!name || !*name || strlen(name) >= HALO_DEVLINK_NAME_MAX)
		return -EINVAL;
	err = handle_start(buf, size, family, cmd, bus, dev, &nlh);
	if (err < 0)
		return err;
	if (!mnl_attr_put_strz_check(nlh, size, DEVLINK_ATTR_PARAM_NAME, name))
		return -EMSGSIZE;
	*ret_nlh = nlh;
	return 0;
}

int halo_devlink_req_info_get(void *buf, size_t size, uint16_t family,
			      const char *bus, const char *dev,
			      struct nlmsghdr **ret_nlh)
{
	return handle_start(buf, size, family, DEVLINK_CMD_INFO_GET, bus, dev, ret_nlh);
}

int halo_devlink_req_get(void *buf, size_t size, uint16_t family, const char *bus,
			 const char *dev, struct nlmsghdr **ret_nlh)
{
	return handle_start(buf, size, family, DEVLINK_CMD_GET, bus, dev, ret_nlh);
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

/* ---- parsing INFO_GET ---- */

/* A NUL-terminated string attribute: *RET points into it. */
static int str_of(const struct nlattr *a, const char **ret)
{
	const char *s = mnl_attr_get_payload(a);
	size_t len = mnl_attr_get_payload_len(a);

	if (len == 0 || !memchr(s, '\0', len))
		return -EBADMSG;
	*ret = s;
	return 0;
}

/* Copies S into BUF when it fits; a longer one is left out. */
static bool keep(char *buf, size_t size, const char *s)
{
	size_t n = strlen(s);

	if (n >= size)
		return false;
	memcpy(buf, s, n + 1);
	return true;
}

struct version_seen {
	const char *name, *value;
};

static int version_cb(const struct nlattr *a, void *userdata)
{
	struct version_seen *v = userdata;

	switch (mnl_attr_get_type(a)) {
	case DEVLINK_ATTR_INFO_VERSION_NAME:
		return str_of(a, &v->name);
	case DEVLINK_ATTR_INFO_VERSION_VALUE:
		return str_of(a, &v->value);
	default:
		return 0;
	}
}

struct info_seen {
	struct halo_devlink_info *i;
	bool bus, dev;
};

static int info_cb(const struct nlattr *a, void *userdata)
{
	struct info_seen *s = userdata;
	struct halo_devlink_info *i = s->i;
	struct version_seen v = { 0 };
	uint16_t type = mnl_attr_get_type(a);
	const char *str;
	int err;

	switch (type) {
	case DEVLINK_ATTR_BUS_NAME:
		s->bus = true;
		return halo_attr_str(a, i->bus, sizeof(i->bus));
	case DEVLINK_ATTR_DEV_NAME:
		s->dev = true;
		return halo_attr_str(a, i->dev, sizeof(i->dev));
	case DEVLINK_ATTR_INFO_DRIVER_NAME:
	case DEVLINK_ATTR_INFO_SERIAL_NUMBER:
	case DEVLINK_ATTR_INFO_BOARD_SERIAL_NUMBER:
		err = str_of(a, &str);
		if (err < 0)
			return err;
		if (type == DEVLINK_ATTR_INFO_DRIVER_NAME)
			keep(i->driver, sizeof(i->driver), str);
		else if (type == DEVLINK_ATTR_INFO_SERIAL_NUMBER)
			keep(i->serial, sizeof(i->serial), str);
		return 0;
	case DEVLINK_ATTR_INFO_VERSION_FIXED:
	case DEVLINK_ATTR_INFO_VERSION_RUNNING:
	case DEVLINK_ATTR_INFO_VERSION_STORED:
		err = halo_attr_walk_nested(a, version_cb, &v);
		if (err < 0)
			return err;
		if (!v.name || !v.value)
			return -EBADMSG; /* devlink_info_version_put puts both */
		if (type != DEVLINK_ATTR_INFO_VERSION_RUNNING ||
		    i->n_running == HALO_DEVLINK_VERSIONS_MAX)
			return 0;
		if (keep(i->running[i->n_running].name, HALO_DEVLINK_NAME_MAX, v.name) &&
		    keep(i->running[i->n_running].value, HALO_DEVLINK_VALUE_MAX, v.value))
			i->n_running++;
		return 0;
	default:
		return 0;
	}
}

int halo_devlink_parse_info(const void *nlh, size_t len,
			    struct halo_devlink_info *ret)
{
	struct halo_devlink_info *i = calloc(1, sizeof(*i));
	struct info_seen s = { .i = i };
	int err;

	if (!i)
		return -ENOMEM;
	err = halo_attr_genl(nlh, len, DEVLINK_CMD_INFO_GET, DEVLINK_CMD_INFO_GET,
			     info_cb, &s);
	if (err == 0 && (!s.bus || !s.dev))
		err = -EBADMSG;
	if (err == 0)
		*ret = *i;
	free(i);
	return err;
}

const char *halo_devlink_info_running(const struct halo_devlink_info *info,
				      const char *name)
{
	for (size_t k = 0; k < info->n_running; k++)
		if (strcmp(info->running[k].name, name) == 0)
			return info->running[k].value;
	return NULL;
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

static int parse_info(const void *nlh, size_t len, void *ret)
{
	return halo_devlink_parse_info(nlh, len, ret);
}

int halo_devlink_info_get(struct halo_nlt *t, const char *bus, const char *dev,
			  struct halo_devlink_info *ret)
{
	char buf[REQ_SIZE] __attribute__((aligned(4)));
	struct halo_devlink_info *i;
	struct nlmsghdr *nlh;
	uint16_t family;
	int err = halo_nlt_family(t, DEVLINK_GENL_NAME, &family);

	if (err < 0)
		return err;
	err = halo_devlink_req_info_get(buf, sizeof(buf), family, bus, dev, &nlh);
	if (err < 0)
		return err;
	/* On the heap: 32 versions are some 6 KiB. */
	i = malloc(sizeof(*i));
	if (!i)
		return -ENOMEM;
	err = halo_req_one(t, HALO_NLT_GENERIC, nlh, parse_info, sizeof(*i), i);
	if (err == 0 && (strcmp(i->bus, bus) != 0 || strcmp(i->dev, dev) != 0))
		err = -EBADMSG; /* about another device */
	if (err == 0)
		*ret = *i;
	free(i);
	return err;
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
