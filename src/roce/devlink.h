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

/* ---- encoders: into BUF (SIZE bytes); FAMILY is devlink's genl id ---- */

int halo_devlink_req_param_get(void *buf, size_t size, uint16_t family,
			       const char *bus, const char *dev, const char *name,
			       struct nlmsghdr **ret_nlh);
int halo_devlink_req_param_set_bool(void *buf, size_t size, uint16_t family,
				    const char *bus, const char *dev,
				    const char *name, uint8_t cmode, bool value,
				    struct nlmsghdr **ret_nlh);

/* ---- parser: one PARAM_GET reply of LEN readable bytes; 0 or -EBADMSG ---- */

int halo_devlink_parse_param(const void *nlh, size_t len,
			     struct halo_devlink_param *ret);

/* ---- requests ---- */

/* The bool NAME at CMODE. -EPROTOTYPE: the param is not a bool;
 * -ENODATA: the reply has no value for CMODE. */
int halo_devlink_param_get_bool(struct halo_nlt *t, const char *bus,
				const char *dev, const char *name,
				uint8_t cmode, bool *ret_value);
int halo_devlink_param_set_bool(struct halo_nlt *t, const char *bus,
				const char *dev, const char *name,
				uint8_t cmode, bool value);
