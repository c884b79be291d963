/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * candidates.h: the links the config's entries can mean, named from the
 * root's sysfs as the kernel lays it out, so they can be fetched by name
 * instead of dumping every link of the host. Only a shortcut:
 * resolve.c matches them with the same code and falls back to the dump
 * whenever the answer could differ.
 */
#pragma once

#include <stddef.h>

#include "config/halo-config.h"
#include "halo.h"

enum halo_cand_source {
	HALO_CAND_NONE,   /* only a dump can tell: mac, an impossible driver name */
	HALO_CAND_NAME,   /* no match keys: the link of the entry's name */
	HALO_CAND_DEVICE, /* pci: the netdevs of /sys/bus/pci/devices/P */
	HALO_CAND_DRIVER, /* driver alone: those of each device of /sys/bus/pci/drivers/D */
};

/* Where entry F's links can be listed; PATH (LEN bytes) gets the
 * directory for DEVICE and DRIVER. Pure. */
enum halo_cand_source halo_host_candidate_source(const struct halo_interface *f,
						 char *path, size_t len);

/* 1 and *RET_NAMES (NULL-terminated, de-duplicated; halo_strv_free) when
 * every entry's links can be listed, INTERFACE (--interface, may be NULL)
 * added; 0 when some entry needs the dump (a source NONE, a directory
 * missing or too large to walk); -ENOMEM. */
int halo_host_candidates(const struct halo_ctx *ctx, const struct halo_config *cfg,
			 const char *interface, char ***ret_names);
