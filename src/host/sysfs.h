/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysfs.h: the facts link matching needs from the root's sysfs (a fixture
 * tree under --root, the namespace's own sysfs in a --netns run), read
 * without following a symlink out of the root.
 */
#pragma once

#include <stdbool.h>

#include "config/pci.h"
#include "halo.h"

/* What sysfs says of a link. */
struct halo_link_facts {
	char *driver;             /* basename of device/driver, NULL none */
	bool has_pci;
	struct halo_pci_addr pci; /* the PCI function the device is, or sits on */
};

/* The facts of IFNAME under <root>/sys/class/net into *RET (caller frees
 * with halo_link_facts_free): the driver, and the PCI function from the
 * /sys/devices path the class entry points to. A symlink on the way that
 * resolves nowhere inside the root is -ELOOP with *RET_WHY naming it
 * (caller frees); RET is untouched on failure. */
int halo_link_sysfs_facts(const struct halo_ctx *ctx, const char *ifname,
			  struct halo_link_facts *ret, char **ret_why);
void halo_link_facts_free(struct halo_link_facts *f);

/* The netdevs of the device directory PATH under the root (e.g.
 * /sys/bus/pci/devices/P, a symlink resolved inside the root): the entries
 * of its "net" directory and of those up to two directories below it (a
 * child device's), symlinks never followed and nested PCI functions left
 * out -- the links whose PCI address, as halo_link_sysfs_facts reads it,
 * is that device. Appended to *NAMES unless already there. -ENOENT when
 * PATH is absent, -E2BIG when the tree is too large to walk, -errno. */
int halo_link_sysfs_device_links(const struct halo_ctx *ctx, const char *path,
				 char ***names);
