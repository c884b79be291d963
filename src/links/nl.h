/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nl.h: route netlink for the links subsystem, without libnl types.
 *
 * Of src/links, nl.c alone includes libnl headers. It keeps one socket
 * (opened inside --netns) and a snapshot of links, addresses and routes,
 * reused until a change of that kind marks it stale. What a run costs
 * does not grow with the host (issue 8, part 4): links named in the
 * config are fetched with one RTM_GETLINK each (a dump, without stats,
 * only when an entry matches by MAC, driver or PCI); once matched, links
 * and addresses are fetched per managed ifindex, the address dumps
 * filtered by the kernel (NETLINK_GET_STRICT_CHK). Every request sent is
 * counted in ctx->netlink_requests.
 * Kernel errors come back as the kernel's own -errno; the kernel's
 * extended-ack text of the last failure is kept for item messages.
 *
 * libnl-route does the rtnetlink work: replies are decoded by its own
 * parsers into rtnl_link, rtnl_addr and rtnl_route objects, and changes
 * are built by rtnl_link_build_change_request,
 * rtnl_addr_build_add/delete_request and rtnl_route_build_add_request,
 * then sent through the run's transport (netlink/transport.h), never by
 * libnl itself. Still by hand, and why: IFLA_MIN_MTU, IFLA_MAX_MTU and
 * IFLA_PERM_ADDRESS (libnl-route 3.7 has no getters for them); checks
 * before libnl sees a message it mishandles (a zero-length or overlong
 * RTA_MULTIPATH next hop, an RTA_VIA shorter than its family; a kind's
 * own IFLA_INFO_DATA and the VF list are hidden from it, unread); and the
 * GET and dump requests, which carry the kernel-side filters libnl's
 * builders do not (IFLA_EXT_MASK without stats, ifa_index under strict
 * checking, RTM_F_FIB_MATCH).
 */
#pragma once

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/cidr.h"
#include "halo.h"

struct halo_nlt;

#define HALO_NL_HWADDR_MAX 32

struct halo_nl_link {
	int ifindex;
	char name[IF_NAMESIZE];
	unsigned flags;           /* IFF_* from ifinfomsg */
	uint32_t mtu;
	uint32_t min_mtu, max_mtu; /* 0 with has_* false: the kernel did not say */
	bool has_min_mtu, has_max_mtu;
	int carrier;              /* 1, 0, or -1 unknown */
	uint8_t mac[HALO_NL_HWADDR_MAX];
	size_t mac_len;
	uint8_t perm_mac[HALO_NL_HWADDR_MAX]; /* IFLA_PERM_ADDRESS (5.6+) */
	size_t perm_mac_len;
	/* IFLA_INFO_KIND ("veth", "vlan", "bond"...), "" when the link has
	 * none (a physical NIC's) or one too long to keep. */
	char kind[32];
};

struct halo_nl_addr {
	int ifindex;
	struct halo_cidr cidr; /* IFA_LOCAL (IFA_ADDRESS when absent) */
	uint8_t scope;
};

struct halo_nl_route {
	struct halo_cidr dst; /* prefixlen 0: default */
	bool has_gateway;
	struct halo_cidr gateway; /* full-length prefix */
	int oif;                  /* 0: none */
	uint32_t priority;        /* RTA_PRIORITY, 0 absent */
	uint32_t table;
	uint8_t type;
};

/* Makes the snapshot state over the run's transport (netlink/context.h);
 * no-op when already done. */
int halo_nl_open(struct halo_ctx *ctx);
/* Frees the snapshots; the transport is the run's, released by main. */
void halo_nl_close(struct halo_ctx *ctx);

/* The current snapshot of each kind; dumps (one request) when not yet
 * loaded or stale. The arrays stay valid until the next call for the same
 * kind after a change, or until close. */
int halo_nl_links(struct halo_ctx *ctx, const struct halo_nl_link **ret,
		  size_t *ret_n);
/* The link snapshot becomes the links of these NAMES, one RTM_GETLINK
 * each (absent ones are left out), instead of a dump of every link. */
int halo_nl_scope_names(struct halo_ctx *ctx, const char *const *names, size_t n);
/* From now on the link and address snapshots cover these managed links
 * only: one request per link and kind. */
int halo_nl_scope_ifindexes(struct halo_ctx *ctx, const int *ifindexes, size_t n);
/* Forgets the scope and every snapshot (the host changed under an earlier
 * phase: links are matched again); the transport and its sockets stay. */
void halo_nl_unscope(struct halo_ctx *ctx);
/* The name of IFINDEX: from the link snapshot, else one RTM_GETLINK. */
int halo_nl_link_name(struct halo_ctx *ctx, int ifindex, char name[IF_NAMESIZE]);
/* The link holding address C (its local route, one FIB-match lookup:
 * RTM_GETROUTE with RTM_F_FIB_MATCH), 0 in *RET_IFINDEX when none. An
 * IPv6 address still tentative (DAD, or on a link that is down) has no
 * local route yet and is not seen. */
int halo_nl_addr_holder(struct halo_ctx *ctx, const struct halo_cidr *c,
			int *ret_ifindex);

/* The address snapshot as last dumped, even if a change made since has
 * marked it stale: what apply acts on is what observe saw, so applying N
 * addresses costs no extra dump (the verify pass dumps once). */
int halo_nl_addrs_observed(struct halo_ctx *ctx, const struct halo_nl_addr **ret,
			   size_t *ret_n);
int halo_nl_addrs(struct halo_ctx *ctx, const struct halo_nl_addr **ret,
		  size_t *ret_n);
/* Main table only, unicast routes of both families. */
int halo_nl_routes(struct halo_ctx *ctx, const struct halo_nl_route **ret,
		   size_t *ret_n);

/* Changes: one request each, acknowledged, the matching snapshot marked
 * stale. 0 or the kernel's -errno (address add: -EEXIST is returned as is,
 * callers decide). */
int halo_nl_set_mtu(struct halo_ctx *ctx, int ifindex, uint32_t mtu);
int halo_nl_set_up(struct halo_ctx *ctx, int ifindex);
int halo_nl_addr_add(struct halo_ctx *ctx, int ifindex, const struct halo_cidr *c);
int halo_nl_addr_del(struct halo_ctx *ctx, int ifindex, const struct halo_cidr *c);
/* Creates or replaces the main-table route to DST (gateway optional). */
int halo_nl_route_replace(struct halo_ctx *ctx, int ifindex,
			  const struct halo_cidr *dst,
			  const struct halo_cidr *gateway, uint32_t priority);

/* Message parsers (pure; exported for unit tests and fuzzing). They take one
 * netlink message (header included) of LEN bytes. 1: parsed, 0: not of
 * interest (other type/family/table), -EBADMSG: malformed, -ENOMEM. Each is
 * decoded by libnl-route (see the top of this file for what is not). */
int halo_nl_parse_link(const void *nlh, size_t len, struct halo_nl_link *ret);
int halo_nl_parse_addr(const void *nlh, size_t len, struct halo_nl_addr *ret);
int halo_nl_parse_route(const void *nlh, size_t len, struct halo_nl_route *ret);

