/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * firewall.h: the firewall part of the files subsystem. The
 * managed interfaces (live names from the host table) go into a firewalld
 * zone of their own or an nftables table of their own; nothing else of
 * the host's firewall is touched.
 *
 *   firewall.c       the plan: backend, names, RoCE port warning
 *   firewalld.c      the zone file and the zones already binding a name
 *   nftables.c       the table file
 *   firewall-item.c  the file item that reloads/loads after a write
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/plan.h"
#include "halo.h"

#define HALO_FW_ZONE "halo-rdma"
#define HALO_FW_ZONE_DIR "/etc/firewalld/zones"
/* firewalld reads zone names of at most 17 characters (file name). */
#define HALO_FW_ZONE_PATH HALO_FW_ZONE_DIR "/" HALO_FW_ZONE ".xml"
#define HALO_FW_NFT_TABLE "halo_provision"
#define HALO_FW_NFT_PATH "/etc/nftables.d/halo-provision.nft"
/* ROCE_V2_UDP_DPORT, include/rdma/ib_verbs.h */
#define HALO_FW_ROCE_V2_PORT 4791

/* What goes into the zone or table. Port lists may repeat a port (the
 * renderers drop the repeats). */
struct halo_fw_rules {
	const char *const *ifnames; /* live names, config order */
	size_t n_ifnames;
	bool trusted;               /* accept everything from them */
	const uint16_t *udp;
	size_t n_udp;
	const uint16_t *tcp;
	size_t n_tcp;
};

/* A name both an XML attribute and an nft string hold verbatim, and no
 * firewall reads as a wildcard ('+' for firewalld, '*' for nft): 1..15
 * of [A-Za-z0-9._-], not "." or "..". */
bool halo_fw_ifname_safe(const char *name);

/* The zone file (templates/halo-rdma.xml) and the table file
 * (templates/halo-provision.nft). -EINVAL for no interfaces or an unsafe
 * name, -ENOMEM. */
int halo_fw_render_zone(const struct halo_fw_rules *r, char **ret);
int halo_fw_render_nft(const struct halo_fw_rules *r, char **ret);

/* Whether the zone file XML binds IFNAME (<interface name="IFNAME"/>
 * outside comments). */
bool halo_fw_zone_binds(const char *xml, const char *ifname);

/* The first zone file of the root's /etc/firewalld/zones, other than
 * ours, that binds IFNAME: 1 with *RET_ZONE ("trusted"), 0 none, -errno. */
int halo_fw_zone_owner(const struct halo_ctx *ctx, const char *ifname, char **ret_zone);

enum halo_fw_kind {
	HALO_FW_KIND_FIREWALLD,
	HALO_FW_KIND_NFTABLES,
};

/* The file item (key file<PATH>) that, once written, has firewalld
 * reload it or nft load it, never under --root. */
int halo_fw_item_add(struct halo_plan *plan, enum halo_fw_kind kind, const char *path,
		     const char *content);

/* firewall-cmd / nft argv of the activation after a write (tests). */
const char *const *halo_fw_activate_argv(enum halo_fw_kind kind);
