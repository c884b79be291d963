/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host.h: the resolved host. One table of the managed interfaces, built
 * once per run after the modules phase (matching: host/match.h), read by
 * every subsystem that needs to know which live link a config entry means
 * (links, RoCE, RDMA, the firewall's trusted interfaces, the env file).
 * Nothing else matches interfaces again.
 *
 * Facts: ifindex, name, MAC, permanent MAC, MTU range and the bond a link
 * is a port of (IFLA_MASTER, and the upper device's IFLA_INFO_KIND) from
 * netlink, in the run's network namespace; driver and PCI address from
 * the root's /sys (a fixture tree under --root; the namespace's own
 * sysfs, mounted in a private mount namespace, in a --netns run on this
 * machine).
 */
#pragma once

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

#include "config/halo-config.h"
#include "config/pci.h"
#include "halo.h"
#include "netlink/rtnl.h"
#include "util/errors.h"

/* When the table was built, which decides what an unmatched entry is. */
enum halo_host_stage {
	/* Nothing will change before the managed links are used: an entry
	 * no link matches is a config error (exit 1, nothing changed); for
	 * --check a failed item, so an audit reports a NIC that is gone in
	 * its textfile like any other failure. */
	HALO_HOST_FINAL,
	/* The modules phase has work to do first, and may bring the device:
	 * an unmatched entry is pending on it (drift, not an error). */
	HALO_HOST_BEFORE_MODULES,
	/* Built again after the modules phase applied: an entry still
	 * unmatched is a failed item (the run has changed the host). */
	HALO_HOST_AFTER_MODULES,
};

struct halo_host_link {
	const struct halo_interface *entry; /* the config entry (not owned) */
	bool selected;  /* this run plans it (all, or those --interface names) */
	bool found;     /* a live link matches it */
	struct halo_rtnl_link link; /* when found: ifindex, name, MACs, MTUs */
	char *driver;   /* device/driver of the link, else its kind ("veth") */
	bool has_pci;
	struct halo_pci_addr pci; /* the PCI function the link is on */
	char bond[IF_NAMESIZE]; /* the bond it is a port of, "" none */
};

struct halo_host {
	enum halo_host_stage stage;
	struct halo_host_link *links; /* one per config entry, config order */
	size_t n;
	/* --interface NAME given and no entry manages it. */
	bool interface_unmanaged;
	/* Built for the readiness items alone (--only ready): they only
	 * report, so an entry no link matches is no error in any stage. */
	bool facts_only;
};

/*
 * Builds ctx->host for CFG (replacing a previous table): matches every
 * entry selected by ctx->interface to the live links. Ambiguities (one
 * entry matching several links, several entries one link) are config
 * errors, added to ERRS (-EINVAL); an entry no link matches is one too
 * when STAGE is HALO_HOST_FINAL (except for --check), else it stays
 * !found. Netlink or sysfs
 * failures: -errno with a line in ERRS. No interfaces configured (or
 * neither links, roce, rdma nor ready selected): an empty table, no
 * netlink; ready alone under --root without --netns (a tree has no
 * links) too.
 */
int halo_host_resolve(struct halo_ctx *ctx, const struct halo_config *cfg,
		      enum halo_host_stage stage, struct halo_errors *errs);

/* The managed link of the entry named NAME, or NULL. */
const struct halo_host_link *halo_host_find(const struct halo_host *host,
					    const char *name);

/* Whether some selected entry is still waiting for its link. */
bool halo_host_has_missing(const struct halo_host *host);

/* " yet" while the modules phase may still bring a missing link (its
 * warnings say "no link yet"), else "": a revert loads no module, and
 * after the modules phase the link is simply not there. */
const char *halo_host_yet(const struct halo_ctx *ctx);

void halo_host_free(struct halo_host *host);
/* Frees ctx->host. */
void halo_host_release(struct halo_ctx *ctx);

/*
 * namespace.c: enters --netns once, when the run context is built, before
 * any socket is opened. Without --root, also gives this process a private
 * mount namespace with the network namespace's own sysfs on /sys (what
 * `ip netns exec` does), keeping configfs mounted under it, so driver, PCI
 * and RDMA facts are the namespace's and not the host's. Must run before
 * ctx->root_fd is opened: a descriptor opened before still sees the old
 * /sys. 0, or -errno with *RET_WHAT naming the step that failed.
 */
int halo_host_enter_netns(const char *netns, bool private_sysfs,
			  const char **ret_what);

/*
 * Opens ROOT as the run's root (ctx->root_fd; ctx->under_root unless it is
 * "/" itself, by inode: only then are host tools spawned) and, for the
 * modes that touch the network, enters ctx->netns, before any socket is
 * opened. On this machine (no --root) the namespace's own sysfs replaces
 * /sys, and the root is opened again so paths under it resolve through
 * the new mount. 0, or -errno with a line in ERRS.
 */
int halo_host_open(struct halo_ctx *ctx, const char *root, struct halo_errors *errs);

/* "name" is a valid --netns argument (a plain file name under /run/netns). */
bool halo_netns_name_valid(const char *name);
