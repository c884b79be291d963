/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtnl.h: rtnetlink (links, addresses, routes) over the run's transport,
 * built and read with libmnl and the strict attribute reader
 * (netlink/attrs.h), like every other family this program speaks. No
 * library type appears here.
 *
 * One concern per file:
 *   rtnl-parse.c     the reply parsers: pure, fuzzed (tests/fuzz)
 *   rtnl-snapshot.c  snapshots of links, addresses and routes, what they
 *                    cover (scoping), and the lookups
 *   rtnl-change.c    the change requests (pure builders) and their sending
 *
 * What a run costs does not grow with the host: links named in the config
 * are fetched with one RTM_GETLINK each, a dump only when matching needs
 * one; every link request carries IFLA_EXT_MASK with
 * RTEXT_FILTER_SKIP_STATS, sparing the kernel the statistics nobody reads.
 * Once matched, links and addresses are fetched per managed ifindex, the
 * address dumps filtered by the kernel (ifa_index under
 * NETLINK_GET_STRICT_CHK). Every request is counted in
 * ctx->netlink_requests; a failure is the kernel's own -errno, its
 * extended-ACK text kept (halo_netlink_extack).
 */
#pragma once

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/cidr.h"
#include "halo.h"

struct nlmsghdr;

#define HALO_RTNL_HWADDR_MAX 32
#define HALO_RTNL_ALTNAMES 4

struct halo_rtnl_link {
	int ifindex;
	char name[IF_NAMESIZE];
	unsigned flags;           /* IFF_* from ifinfomsg */
	uint32_t mtu;
	uint32_t min_mtu, max_mtu; /* 0 with has_* false: the kernel did not say */
	bool has_min_mtu, has_max_mtu;
	int carrier;              /* 1, 0, or -1 unknown */
	/* IFLA_CARRIER_DOWN_COUNT (4.16+): carrier losses since the link
	 * was made; a flap between two reads still counts. */
	uint32_t carrier_down_count;
	bool has_carrier_down_count;
	uint8_t mac[HALO_RTNL_HWADDR_MAX];
	size_t mac_len;
	uint8_t perm_mac[HALO_RTNL_HWADDR_MAX]; /* IFLA_PERM_ADDRESS (5.6+) */
	size_t perm_mac_len;
	/* IFLA_INFO_KIND ("veth", "bridge", "bond"...), "" when the link has
	 * none (a physical NIC's) or one too long to keep. */
	char kind[32];
	int master;               /* IFLA_MASTER: the upper device, 0 none */
	/* Alternative names (IFLA_PROP_LIST: `ip link property add ...
	 * altname`, udev's predictable names), the first few that fit;
	 * systemd-networkd's Name= matches them too. */
	char altnames[HALO_RTNL_ALTNAMES][64];
	size_t n_altnames;
	/* The link's own net.ipv4.conf.<link>.promote_secondaries (IFLA_INET_CONF):
	 * 1, 0, or -1 unknown. */
	int promote_secondaries;
};

struct halo_rtnl_addr {
	int ifindex;
	struct halo_cidr cidr; /* IFA_LOCAL (IFA_ADDRESS when absent) */
	uint8_t scope;
	uint32_t flags; /* IFA_F_*: IFA_FLAGS, or ifa_flags without it */
	/* IFA_ADDRESS when it is not the local address: an IPv4
	 * point-to-point peer (`ip addr add A peer P`). */
	bool has_peer;
	uint8_t peer[4];
};

struct halo_rtnl_route {
	struct halo_cidr dst; /* prefixlen 0: default */
	bool has_gateway;
	struct halo_cidr gateway; /* full-length prefix */
	int oif;                  /* 0: none */
	uint32_t priority;        /* RTA_PRIORITY, 0 absent */
	uint32_t table;
	uint8_t type;
};

/* ---- parsers (rtnl-parse.c) ----
 * One netlink message (header included) of LEN readable bytes. 1: parsed,
 * 0: not of interest (another type, family or table), -EBADMSG:
 * malformed; RET is untouched unless 1. */
int halo_rtnl_parse_link(const void *nlh, size_t len, struct halo_rtnl_link *ret);
int halo_rtnl_parse_addr(const void *nlh, size_t len, struct halo_rtnl_addr *ret);
/* Main table, unicast routes only. */
int halo_rtnl_parse_route(const void *nlh, size_t len, struct halo_rtnl_route *ret);
/* A local route (RTN_LOCAL, the answer to an RTM_F_FIB_MATCH lookup of a
 * host's address) through one device: its ifindex. */
int halo_rtnl_parse_local(const void *nlh, size_t len, int *ret_ifindex);

/* ---- snapshots and scoping (rtnl-snapshot.c) ---- */

/* The current snapshot of each kind; fetched (one request, or one per
 * scoped link) when not yet loaded or stale. The arrays stay valid until
 * the next call for the same kind after a change, or until the run's
 * netlink is released. */
int halo_rtnl_links(struct halo_ctx *ctx, const struct halo_rtnl_link **ret,
		    size_t *ret_n);
/* The link snapshot becomes the links of these NAMES, one RTM_GETLINK
 * each (absent ones are left out), instead of a dump of every link. */
int halo_rtnl_scope_names(struct halo_ctx *ctx, const char *const *names, size_t n);
/* From now on the link and address snapshots cover these managed links
 * only: one request per link and kind. */
int halo_rtnl_scope_ifindexes(struct halo_ctx *ctx, const int *ifindexes, size_t n);
/* Forgets the scope and every snapshot (the host changed under an earlier
 * phase: links are matched again); the transport and its sockets stay. */
void halo_rtnl_unscope(struct halo_ctx *ctx);

/* The link IFINDEX now: one RTM_GETLINK, whatever the snapshot holds (a
 * carrier that just changed). -ENODEV when there is none. */
int halo_rtnl_link_fetch(struct halo_ctx *ctx, int ifindex,
			 struct halo_rtnl_link *ret);
/* The link IFINDEX: from the link snapshot, else fetched. */
int halo_rtnl_link_lookup(struct halo_ctx *ctx, int ifindex,
			  struct halo_rtnl_link *ret);
/* The name of IFINDEX (halo_rtnl_link_lookup). */
int halo_rtnl_link_name(struct halo_ctx *ctx, int ifindex, char name[IF_NAMESIZE]);

/* The link holding address C (its local route, one FIB-match lookup:
 * RTM_GETROUTE with RTM_F_FIB_MATCH), 0 in *RET_IFINDEX when none. An
 * IPv6 address still tentative (DAD, or on a link that is down) has no
 * local route yet and is not seen. */
int halo_rtnl_addr_holder(struct halo_ctx *ctx, const struct halo_cidr *c,
			  int *ret_ifindex);

/* The address snapshot as last dumped, even if a change made since has
 * marked it stale: what apply acts on is what observe saw, so applying N
 * addresses costs no extra dump (the verify pass dumps once). */
int halo_rtnl_addrs_observed(struct halo_ctx *ctx,
			     const struct halo_rtnl_addr **ret, size_t *ret_n);
int halo_rtnl_addrs(struct halo_ctx *ctx, const struct halo_rtnl_addr **ret,
		    size_t *ret_n);
/* Main table only, unicast routes of both families. */
int halo_rtnl_routes(struct halo_ctx *ctx, const struct halo_rtnl_route **ret,
		     size_t *ret_n);

/* ---- changes (rtnl-change.c) ---- */

/* Room for any request built here. */
#define HALO_RTNL_REQ_SIZE 256

/* Builders: the request in BUF (SIZE bytes, zeroed first), 0, -EINVAL
 * (a bad ifindex or address family) or -EMSGSIZE. NLM_F_REQUEST and
 * NLM_F_ACK are set; the transport sets the sequence number and port. */
/* RTM_NEWLINK: IFLA_MTU of IFINDEX. */
int halo_rtnl_req_mtu(void *buf, size_t size, int ifindex, uint32_t mtu,
		      struct nlmsghdr **ret_nlh);
/* RTM_NEWLINK: IFF_UP set in ifi_flags and ifi_change. */
int halo_rtnl_req_up(void *buf, size_t size, int ifindex,
		     struct nlmsghdr **ret_nlh);
/* RTM_NEWADDR with NLM_F_CREATE | NLM_F_EXCL (ADD) or RTM_DELADDR of C on
 * IFINDEX, scope universe: IFA_LOCAL and IFA_ADDRESS both C's address;
 * an IPv4 add also IFA_BROADCAST (none on /31 and /32). */
int halo_rtnl_req_addr(void *buf, size_t size, bool add, int ifindex,
		       const struct halo_cidr *c, struct nlmsghdr **ret_nlh);
/* RTM_NEWROUTE with NLM_F_CREATE | NLM_F_REPLACE: the main-table unicast
 * route to DST (no RTA_DST for a default route) through IFINDEX,
 * protocol static; through GATEWAY (may be NULL: scope link) with
 * PRIORITY (0: none). */
int halo_rtnl_req_route(void *buf, size_t size, int ifindex,
			const struct halo_cidr *dst,
			const struct halo_cidr *gateway, uint32_t priority,
			struct nlmsghdr **ret_nlh);
/* RTM_DELADDR of the address A as a dump showed it: IFA_ADDRESS its peer
 * when it has one (net/ipv4/devinet.c inet_rtm_deladdr matches an IPv4
 * address by IFA_ADDRESS within its prefix, and a peer address holds the
 * peer there). */
int halo_rtnl_req_addr_del(void *buf, size_t size, const struct halo_rtnl_addr *a,
			   struct nlmsghdr **ret_nlh);
/* RTM_DELROUTE of the main-table route R as a dump showed it: its
 * destination, metric, gateway and link, any scope. */
int halo_rtnl_req_route_del(void *buf, size_t size, const struct halo_rtnl_route *r,
			    struct nlmsghdr **ret_nlh);

/* Each sends one request, acknowledged, and marks the matching snapshot
 * stale. 0 or the kernel's -errno (address add: -EEXIST is returned as
 * is, callers decide). */
int halo_rtnl_set_mtu(struct halo_ctx *ctx, int ifindex, uint32_t mtu);
int halo_rtnl_set_up(struct halo_ctx *ctx, int ifindex);
int halo_rtnl_addr_add(struct halo_ctx *ctx, int ifindex, const struct halo_cidr *c);
/* Removes the address A as a dump showed it (by its peer, if it has one). */
int halo_rtnl_addr_del(struct halo_ctx *ctx, const struct halo_rtnl_addr *a);
/* Creates or replaces the main-table route to DST (GATEWAY optional). */
int halo_rtnl_route_replace(struct halo_ctx *ctx, int ifindex,
			    const struct halo_cidr *dst,
			    const struct halo_cidr *gateway, uint32_t priority);
int halo_rtnl_route_del(struct halo_ctx *ctx, const struct halo_rtnl_route *r);
