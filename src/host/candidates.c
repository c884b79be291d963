/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * candidates.c: candidate link names per config entry from the root's
 * sysfs. On a real kernel /sys/bus/pci/devices/P and the device entries of
 * /sys/bus/pci/drivers/D are symlinks to the device, whose subtree holds
 * its netdevs: a handful of directories per entry, whatever the number of
 * links on the host. Read through util/rootfs.h, inside the root.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/pci.h"
#include "host/candidates.h"
#include "host/sysfs.h"
#include "util/rootfs.h"
#include "util/strv.h"

/* A driver name that can be one directory's name. */
static bool dir_name_ok(const char *s)
{
	return s[0] && !strchr(s, '/') && strcmp(s, ".") != 0 && strcmp(s, "..") != 0;
}

enum halo_cand_source halo_host_candidate_source(const struct halo_interface *f,
						 char *path, size_t len)
{
	char pci[32];
	int n;

	if (f->match.has_mac)
		return HALO_CAND_NONE;
	if (f->match.has_pci) {
		halo_pci_format(&f->match.pci, pci, sizeof(pci));
		n = snprintf(path, len, "/sys/bus/pci/devices/%s", pci);
		return n > 0 && (size_t)n < len ? HALO_CAND_DEVICE : HALO_CAND_NONE;
	}
	if (f->match_driver) {
		if (!dir_name_ok(f->match_driver))
			return HALO_CAND_NONE;
		n = snprintf(path, len, "/sys/bus/pci/drivers/%s", f->match_driver);
		return n > 0 && (size_t)n < len ? HALO_CAND_DRIVER : HALO_CAND_NONE;
	}
	return HALO_CAND_NAME;
}

/* The netdevs of every PCI device bound to the driver at DIR. */
static int driver_links(const struct halo_ctx *ctx, const char *dir, char ***names)
{
	_cleanup_strv_free_ char **ents = NULL;
	struct halo_pci_addr a;
	char path[PATH_MAX];
	int err = halo_root_list_dir(ctx, dir, &ents);

	for (size_t i = 0; err == 0 && ents[i]; i++) {
		/* bind, unbind, new_id, module: not devices */
		if (halo_pci_parse(ents[i], &a) < 0)
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, ents[i]) >= sizeof(path))
			return -ENAMETOOLONG;
		err = halo_link_sysfs_device_links(ctx, path, names);
	}
	return err;
}

int halo_host_candidates(const struct halo_ctx *ctx, const struct halo_config *cfg,
			 const char *interface, char ***ret_names)
{
	_cleanup_strv_free_ char **names = NULL;
	char path[PATH_MAX];
	int err = 0;

	*ret_names = NULL;
	for (size_t i = 0; i < cfg->n_interfaces && err >= 0; i++) {
		const struct halo_interface *f = &cfg->interfaces[i];

		switch (halo_host_candidate_source(f, path, sizeof(path))) {
		case HALO_CAND_NONE:
			return 0;
		case HALO_CAND_NAME:
			if (!halo_strv_contains(names, f->name))
				err = halo_strv_push(&names, f->name);
			break;
		case HALO_CAND_DEVICE:
			err = halo_link_sysfs_device_links(ctx, path, &names);
			break;
		case HALO_CAND_DRIVER:
			err = driver_links(ctx, path, &names);
			break;
		}
	}
	if (err >= 0 && interface && !halo_strv_contains(names, interface))
		err = halo_strv_push(&names, interface);
	if (err == -ENOMEM)
		return err;
	/* Anything else (a directory missing, unreadable, too large): the
	 * dump decides, as it always did. */
	if (err < 0)
		return 0;
	if (!names && !(names = calloc(1, sizeof(*names))))
		return -ENOMEM;
	*ret_names = TAKE_PTR(names);
	return 1;
}
