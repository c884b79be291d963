/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcbnl.c: IEEE DCB requests and replies (see dcbnl.h). Mirrors what the
 * kernel's net/dcb/dcbnl.c reads and writes: a struct dcbmsg after the
 * netlink header, DCB_ATTR_IFNAME first, the IEEE objects nested in
 * DCB_ATTR_IEEE, APP entries nested once more in DCB_ATTR_IEEE_APP_TABLE.
 */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "netlink/transport.h"
#include "netlink/attrs.h"
#include "netlink/dcbnl.h"
#include "netlink/request.h"

/* Linux 6.3 uapi, newer than some build hosts' headers: the APP table's
 * child for non-IEEE selectors (enum ieee_attrs_app, not testable with
 * #ifdef), and the PCP selector that uses it. */
#define ATTR_DCB_APP 2
#ifndef DCB_APP_SEL_PCP
#define DCB_APP_SEL_PCP 255
#endif

/* The SET replies' status attribute, after the 4-byte struct dcbmsg. */
static const struct halo_nlt_verdict ieee_verdict = {
	.hdrlen = sizeof(struct dcbmsg), .attr = DCB_ATTR_IEEE,
};
static const struct halo_nlt_verdict dcbx_verdict = {
	.hdrlen = sizeof(struct dcbmsg), .attr = DCB_ATTR_DCBX,
};

/* Header, dcbmsg and DCB_ATTR_IFNAME: what every dcbnl request starts
 * with (the kernel answers EINVAL without the name). */
static int req_start(void *buf, size_t size, uint16_t type, uint8_t cmd,
		     const char *ifname, struct nlmsghdr **ret_nlh)
{
	struct nlmsghdr *nlh;
	struct dcbmsg *d;
	void *hdr;
	int err;

	if (!ifname || !*ifname || strlen(ifname) >= IF_NAMESIZE)
		return -EINVAL;
	err = halo_req_start(buf, size, type, sizeof(*d), &nlh, &hdr);
	if (err < 0)
		return err;
	d = hdr;
	d->dcb_family = AF_UNSPEC;
	d->cmd = cmd;
	if (!mnl_attr_put_strz_check(nlh, size, DCB_ATTR_IFNAME, ifname))
		return -EMSGSIZE;
	*ret_nlh = nlh;
	return 0;
}

int halo_dcbnl_req_ieee_get(void *buf, size_t size, const char *ifname,
			    struct nlmsghdr **ret_nlh)
{
	return req_start(buf, size, RTM_GETDCB, DCB_CMD_IEEE_GET, ifname, ret_nlh);
}

int halo_dcbnl_req_gdcbx(void *buf, size_t size, const char *ifname,
			 struct nlmsghdr **ret_nlh)
{
	return req_start(buf, size, RTM_GETDCB, DCB_CMD_GDCBX, ifname, ret_nlh);
}

int halo_dcbnl_req_sdcbx(void *buf, size_t size, const char *ifname,
			 uint8_t mode, struct nlmsghdr **ret_nlh)
{
	struct nlmsghdr *nlh;
	int err = req_start(buf, size, RTM_SETDCB, DCB_CMD_SDCBX, ifname, &nlh);

	if (err < 0)
		return err;
	if (!mnl_attr_put_u8_check(nlh, size, DCB_ATTR_DCBX, mode))
		return -EMSGSIZE;
	*ret_nlh = nlh;
	return 0;
}

int halo_dcbnl_req_pfc_set(void *buf, size_t size, const char *ifname,
			   const struct ieee_pfc *pfc, struct nlmsghdr **ret_nlh)
{
	struct nlmsghdr *nlh;
	struct nlattr *ieee;
	int err = req_start(buf, size, RTM_SETDCB, DCB_CMD_IEEE_SET, ifname, &nlh);

	if (err < 0)
		return err;
	ieee = mnl_attr_nest_start_check(nlh, size, DCB_ATTR_IEEE);
	if (!ieee || !mnl_attr_put_check(nlh, size, DCB_ATTR_IEEE_PFC,
					 sizeof(*pfc), pfc))
		return -EMSGSIZE;
	mnl_attr_nest_end(nlh, ieee);
	*ret_nlh = nlh;
	return 0;
}

int halo_dcbnl_req_app(void *buf, size_t size, const char *ifname, bool add,
		       const struct dcb_app *app, size_t n,
		       struct nlmsghdr **ret_nlh)
{
	struct nlmsghdr *nlh;
	struct nlattr *ieee, *table;
	int err;

	if (n == 0)
		return -EINVAL;
	err = req_start(buf, size, RTM_SETDCB,
			add ? DCB_CMD_IEEE_SET : DCB_CMD_IEEE_DEL, ifname, &nlh);
	if (err < 0)
		return err;
	ieee = mnl_attr_nest_start_check(nlh, size, DCB_ATTR_IEEE);
	if (!ieee)
		return -EMSGSIZE;
	table = mnl_attr_nest_start_check(nlh, size, DCB_ATTR_IEEE_APP_TABLE);
	if (!table)
		return -EMSGSIZE;
	for (size_t i = 0; i < n; i++) {
		/* PCP entries are CEE-style (dcbnl_app_attr_type_get). */
		uint16_t type = app[i].selector == DCB_APP_SEL_PCP ?
			ATTR_DCB_APP : DCB_ATTR_IEEE_APP;

		if (!mnl_attr_put_check(nlh, size, type, sizeof(app[i]), &app[i]))
			return -EMSGSIZE;
	}
	mnl_attr_nest_end(nlh, table);
	mnl_attr_nest_end(nlh, ieee);
	*ret_nlh = nlh;
	return 0;
}

/* ---- parsing ---- */

/* The dcbmsg of a reply: type and cmd must be the ones asked for. */
static int reply_attrs(const void *nlh, size_t len, uint8_t cmd,
		       const void **ret_attrs, size_t *ret_len)
{
	const struct nlmsghdr *h = nlh;
	const struct dcbmsg *d;
	int err = halo_attr_msg(nlh, len, sizeof(*d), ret_attrs, ret_len);

	if (err < 0)
		return err;
	d = mnl_nlmsg_get_payload(h);
	if (h->nlmsg_type != RTM_GETDCB || d->cmd != cmd)
		return -EBADMSG;
	return 0;
}

static int app_cb(const struct nlattr *a, void *userdata)
{
	struct halo_dcbnl_ieee *r = userdata;
	uint16_t type = mnl_attr_get_type(a);

	if (type != DCB_ATTR_IEEE_APP && type != ATTR_DCB_APP)
		return 0;
	if (mnl_attr_get_payload_len(a) != sizeof(struct dcb_app) ||
	    r->n_app >= HALO_DCBNL_APP_MAX)
		return -EBADMSG;
	memcpy(&r->app[r->n_app++], mnl_attr_get_payload(a), sizeof(struct dcb_app));
	return 0;
}

static int ieee_cb(const struct nlattr *a, void *userdata)
{
	struct halo_dcbnl_ieee *r = userdata;

	switch (mnl_attr_get_type(a)) {
	case DCB_ATTR_IEEE_PFC:
		if (mnl_attr_get_payload_len(a) != sizeof(r->pfc))
			return -EBADMSG;
		memcpy(&r->pfc, mnl_attr_get_payload(a), sizeof(r->pfc));
		r->has_pfc = true;
		return 0;
	case DCB_ATTR_IEEE_APP_TABLE:
		r->has_app = true;
		return halo_attr_walk_nested(a, app_cb, r);
	default:
		return 0; /* ETS, MAXRATE, peer data: not ours */
	}
}

static int top_cb(const struct nlattr *a, void *userdata)
{
	struct halo_dcbnl_ieee *r = userdata;

	switch (mnl_attr_get_type(a)) {
	case DCB_ATTR_IEEE:
		return halo_attr_walk_nested(a, ieee_cb, r);
	case DCB_ATTR_DCBX:
		r->has_dcbx = true;
		return halo_attr_u8(a, &r->dcbx);
	default:
		return 0;
	}
}

int halo_dcbnl_parse_ieee(const void *nlh, size_t len, struct halo_dcbnl_ieee *ret)
{
	/* Large: parsed aside, so RET is untouched on failure. */
	struct halo_dcbnl_ieee *r = calloc(1, sizeof(*r));
	const void *attrs;
	size_t alen;
	int err;

	if (!r)
		return -ENOMEM;
	err = reply_attrs(nlh, len, DCB_CMD_IEEE_GET, &attrs, &alen);
	if (err == 0)
		err = halo_attr_walk(attrs, alen, top_cb, r);
	if (err == 0)
		*ret = *r;
	free(r);
	return err;
}

static int dcbx_cb(const struct nlattr *a, void *userdata)
{
	int *mode = userdata;
	uint8_t v;
	int err;

	if (mnl_attr_get_type(a) != DCB_ATTR_DCBX)
		return 0;
	err = halo_attr_u8(a, &v);
	if (err == 0)
		*mode = v;
	return err;
}

int halo_dcbnl_parse_dcbx(const void *nlh, size_t len, uint8_t *ret_mode)
{
	const void *attrs;
	size_t alen;
	int mode = -1;
	int err = reply_attrs(nlh, len, DCB_CMD_GDCBX, &attrs, &alen);

	if (err == 0)
		err = halo_attr_walk(attrs, alen, dcbx_cb, &mode);
	if (err == 0 && mode < 0)
		err = -EBADMSG; /* the one thing this reply is for */
	if (err == 0)
		*ret_mode = (uint8_t)mode;
	return err;
}

/* ---- requests ---- */

static int parse_ieee(const void *nlh, size_t len, void *ret)
{
	return halo_dcbnl_parse_ieee(nlh, len, ret);
}

int halo_dcbnl_ieee_get(struct halo_nlt *t, const char *ifname,
			struct halo_dcbnl_ieee *ret)
{
	char buf[HALO_DCBNL_REQ_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	int err = halo_dcbnl_req_ieee_get(buf, sizeof(buf), ifname, &nlh);

	if (err < 0)
		return err;
	return halo_req_one(t, HALO_NLT_DCB, nlh, parse_ieee, sizeof(*ret), ret);
}

static int parse_dcbx(const void *nlh, size_t len, void *ret)
{
	return halo_dcbnl_parse_dcbx(nlh, len, ret);
}

int halo_dcbnl_get_dcbx(struct halo_nlt *t, const char *ifname, uint8_t *ret_mode)
{
	char buf[256] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	int err = halo_dcbnl_req_gdcbx(buf, sizeof(buf), ifname, &nlh);

	if (err < 0)
		return err;
	return halo_req_one(t, HALO_NLT_DCB, nlh, parse_dcbx, sizeof(*ret_mode), ret_mode);
}

int halo_dcbnl_set_dcbx(struct halo_nlt *t, const char *ifname, uint8_t mode)
{
	char buf[256] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	int err = halo_dcbnl_req_sdcbx(buf, sizeof(buf), ifname, mode, &nlh);

	if (err < 0)
		return err;
	return halo_nlt_request(t, HALO_NLT_DCB, nlh, NULL, NULL, &dcbx_verdict);
}

int halo_dcbnl_set_pfc(struct halo_nlt *t, const char *ifname,
		       const struct ieee_pfc *pfc)
{
	char buf[512] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	int err = halo_dcbnl_req_pfc_set(buf, sizeof(buf), ifname, pfc, &nlh);

	if (err < 0)
		return err;
	return halo_nlt_request(t, HALO_NLT_DCB, nlh, NULL, NULL, &ieee_verdict);
}

static int app_change(struct halo_nlt *t, const char *ifname, bool add,
		      const struct dcb_app *app, size_t n)
{
	char buf[HALO_DCBNL_REQ_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	int err = halo_dcbnl_req_app(buf, sizeof(buf), ifname, add, app, n, &nlh);

	if (err < 0)
		return err;
	return halo_nlt_request(t, HALO_NLT_DCB, nlh, NULL, NULL, &ieee_verdict);
}

int halo_dcbnl_app_add(struct halo_nlt *t, const char *ifname,
		       const struct dcb_app *app, size_t n)
{
	return app_change(t, ifname, true, app, n);
}

int halo_dcbnl_app_del(struct halo_nlt *t, const char *ifname,
		       const struct dcb_app *app, size_t n)
{
	return app_change(t, ifname, false, app, n);
}
