/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcbnl.h: the IEEE 802.1Qaz side of dcbnl (RTM_GETDCB / RTM_SETDCB) over
 * the run's netlink transport: PFC, the APP table (DSCP trust) and the
 * DCBX mode. Layouts are the kernel's own (struct ieee_pfc, struct
 * dcb_app from <linux/dcbnl.h>); requests name the interface by
 * DCB_ATTR_IFNAME.
 *
 * The SET commands answer with ACK 0 even when the driver refused: the
 * refusal is a u8 attribute of the reply (DCB_ATTR_IEEE for IEEE_SET and
 * IEEE_DEL, DCB_ATTR_DCBX for SDCBX). It is read by the transport's
 * verdict support, so a nonzero verdict is a failure here: the driver's
 * errno when the u8 holds one (-EINVAL from ice with its agent on), else
 * -EIO.
 *
 * Encoders and parsers are pure and exported for the unit tests and the
 * fuzz target; the request functions send and read through halo_nlt.
 */
#pragma once

#include <linux/dcbnl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct halo_nlt;
struct nlmsghdr;

/* APP entries kept from one IEEE_GET reply; a longer table is -EBADMSG. */
#define HALO_DCBNL_APP_MAX 256

/* Buffer size that fits any request built here (a full APP table too). */
#define HALO_DCBNL_REQ_SIZE 4096

/* What IEEE_GET reports. Absent parts are marked by their has_ flag. An APP
 * entry of a non-IEEE selector (PCP, 255) travels as DCB_ATTR_DCB_APP (2). */
struct halo_dcbnl_ieee {
	bool has_pfc;
	struct ieee_pfc pfc;    /* whole, for read-modify-write */
	bool has_app;
	size_t n_app;
	struct dcb_app app[HALO_DCBNL_APP_MAX]; /* IEEE and CEE (PCP) entries */
	bool has_dcbx;
	uint8_t dcbx;           /* DCB_CAP_DCBX_* bits */
};

/* ---- encoders: build a request in BUF (SIZE bytes), 0 or -EMSGSIZE ---- */

int halo_dcbnl_req_ieee_get(void *buf, size_t size, const char *ifname,
			    struct nlmsghdr **ret_nlh);
int halo_dcbnl_req_gdcbx(void *buf, size_t size, const char *ifname,
			 struct nlmsghdr **ret_nlh);
int halo_dcbnl_req_sdcbx(void *buf, size_t size, const char *ifname,
			 uint8_t mode, struct nlmsghdr **ret_nlh);
int halo_dcbnl_req_pfc_set(void *buf, size_t size, const char *ifname,
			   const struct ieee_pfc *pfc, struct nlmsghdr **ret_nlh);
/* IEEE_SET (ADD true) or IEEE_DEL of N APP entries (N >= 1). */
int halo_dcbnl_req_app(void *buf, size_t size, const char *ifname, bool add,
		       const struct dcb_app *app, size_t n,
		       struct nlmsghdr **ret_nlh);

/* ---- parsers: one reply message of LEN readable bytes; 0 or -EBADMSG ---- */

/* RTM_GETDCB / DCB_CMD_IEEE_GET. */
int halo_dcbnl_parse_ieee(const void *nlh, size_t len, struct halo_dcbnl_ieee *ret);
/* RTM_GETDCB / DCB_CMD_GDCBX. */
int halo_dcbnl_parse_dcbx(const void *nlh, size_t len, uint8_t *ret_mode);

/* ---- requests ---- */

/* IEEE_GET: PFC, APP table, and the DCBX mode the reply carries. */
int halo_dcbnl_ieee_get(struct halo_nlt *t, const char *ifname,
			struct halo_dcbnl_ieee *ret);
/* GDCBX: the DCBX mode alone. */
int halo_dcbnl_get_dcbx(struct halo_nlt *t, const char *ifname, uint8_t *ret_mode);
/* SDCBX: MODE is an OR of DCB_CAP_DCBX_*; -EIO when the driver refused.
 * ice answers a mode it already has with a nonzero "no change" too
 * (ICE_DCB_NO_HW_CHG), so read the mode first and set only a change. */
int halo_dcbnl_set_dcbx(struct halo_nlt *t, const char *ifname, uint8_t mode);
/* IEEE_SET of the whole PFC struct (callers read, modify, write). */
int halo_dcbnl_set_pfc(struct halo_nlt *t, const char *ifname,
		       const struct ieee_pfc *pfc);
/* IEEE_SET (add) / IEEE_DEL (delete) of APP entries. */
int halo_dcbnl_app_add(struct halo_nlt *t, const char *ifname,
		       const struct dcb_app *app, size_t n);
int halo_dcbnl_app_del(struct halo_nlt *t, const char *ifname,
		       const struct dcb_app *app, size_t n);
