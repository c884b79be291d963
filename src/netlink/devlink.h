/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * devlink.h: devlink device parameters over generic netlink, for the
 * driver-generic bool params that select the RDMA protocol (enable_roce,
 * enable_iwarp; ice exposes both with cmode runtime). The device is named
 * by its handle: bus "pci", dev "0000:c2:00.0".
 *
 * Errors keep their sources apart: -ENOENT when the kernel has no devlink
 * family, the kernel's own errno otherwise (-ENODEV: no such devlink
 * instance; -EINVAL: no such param on it; -EOPNOTSUPP: the param lacks
 * that cmode or cannot be set).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct halo_nlt;
struct nlmsghdr;

/* DEVLINK_PARAM_TYPE_BOOL: the kernel's NLA_FLAG, 6 (uapi names it
 * DEVLINK_VAR_ATTR_TYPE_FLAG only since Linux 6.16). */
#define HALO_DEVLINK_PARAM_TYPE_BOOL 6
#define HALO_DEVLINK_CMODES 3 /* runtime, driverinit, permanent */
#define HALO_DEVLINK_NAME_MAX 64

/* One parameter as DEVLINK_CMD_PARAM_GET reports it. */
struct halo_devlink_param {
	char name[HALO_DEVLINK_NAME_MAX];
	bool generic;
	uint8_t type;        /* DEVLINK_PARAM_TYPE_* (the NLA_* numbers) */
	/* Per cmode (DEVLINK_PARAM_CMODE_*): reported, and its bool value
	 * (DEVLINK_ATTR_PARAM_VALUE_DATA present) for a bool param. */
	bool has[HALO_DEVLINK_CMODES];
	bool value[HALO_DEVLINK_CMODES];
};

/* One DEVLINK_CMD_INFO_GET answer: the driver, the serial number and the
 * running versions (DEVLINK_ATTR_INFO_VERSION_RUNNING), in the driver's
 * order. Fixed and stored versions are walked but not kept; running
 * versions past HALO_DEVLINK_VERSIONS_MAX, or whose name or value does not
 * fit, are left out (none that this program reads is that long). */
#define HALO_DEVLINK_VERSIONS_MAX 32
#define HALO_DEVLINK_VALUE_MAX 128 /* ice formats into a 128-byte buffer */
struct halo_devlink_version {
	char name[HALO_DEVLINK_NAME_MAX];
	char value[HALO_DEVLINK_VALUE_MAX];
};
struct halo_devlink_info {
	char bus[16], dev[HALO_DEVLINK_NAME_MAX]; /* the handle answered */
	char driver[HALO_DEVLINK_NAME_MAX];       /* "" when not reported */
	char serial[HALO_DEVLINK_VALUE_MAX];      /* "" when not reported */
	size_t n_running;
	struct halo_devlink_version running[HALO_DEVLINK_VERSIONS_MAX];
};

/* ---- encoders: into BUF (SIZE bytes); FAMILY is devlink's genl id ---- */

/* DEVLINK_CMD_GET of BUS/DEV (the instance, with its statistics). */
int halo_devlink_req_get(void *buf, size_t size, uint16_t family, const char *bus,
			 const char *dev, struct nlmsghdr **ret_nlh);
int halo_devlink_req_param_get(void *buf, size_t size, uint16_t family,
			       const char *bus, const char *dev, const char *name,
			       struct nlmsghdr **ret_nlh);
int halo_devlink_req_param_set_bool(void *buf, size_t size, uint16_t family,
				    const char *bus, const char *dev,
				    const char *name, uint8_t cmode, bool value,
				    struct nlmsghdr **ret_nlh);

/* DEVLINK_CMD_INFO_GET for one device: the handle only. */
int halo_devlink_req_info_get(void *buf, size_t size, uint16_t family,
			      const char *bus, const char *dev,
			      struct nlmsghdr **ret_nlh);

/* ---- parsers: one reply of LEN readable bytes; 0 or -EBADMSG (the info
 * parser also -ENOMEM) ---- */

int halo_devlink_parse_param(const void *nlh, size_t len,
			     struct halo_devlink_param *ret);
/* An INFO_GET reply: the handle, then any of DRIVER_NAME, SERIAL_NUMBER,
 * BOARD_SERIAL_NUMBER and VERSION_{FIXED,RUNNING,STORED} nests of
 * { VERSION_NAME, VERSION_VALUE } (both required in each nest). */
int halo_devlink_parse_info(const void *nlh, size_t len,
			    struct halo_devlink_info *ret);

/* The running version NAME of INFO, or NULL. */
const char *halo_devlink_info_running(const struct halo_devlink_info *info,
				      const char *name);

/* ---- requests ---- */

/* The bool NAME at CMODE. -EPROTOTYPE: the param is not a bool;
 * -ENODATA: the reply has no value for CMODE. */
int halo_devlink_param_get_bool(struct halo_nlt *t, const char *bus,
				const char *dev, const char *name,
				uint8_t cmode, bool *ret_value);
int halo_devlink_param_set_bool(struct halo_nlt *t, const char *bus,
				const char *dev, const char *name,
				uint8_t cmode, bool value);
/* The device's info. -EBADMSG when the answer is about another handle. */
int halo_devlink_info_get(struct halo_nlt *t, const char *bus, const char *dev,
			  struct halo_devlink_info *ret);

/* devlink-reload.c: how many driver_reinit reloads (local and remote,
 * every limit) the instance reports in the reply NLH to DEVLINK_CMD_GET:
 * a driverinit value takes effect at one. -EOPNOTSUPP when the reply has
 * no reload statistics (a kernel before 5.12), -EBADMSG. Pure. */
int halo_devlink_parse_reloads(const void *nlh, size_t len, uint64_t *ret);
/* The same, asked of the kernel. */
int halo_devlink_reload_count(struct halo_nlt *t, const char *bus, const char *dev,
			      uint64_t *ret);
