/* SPDX-License-Identifier: GPL-2.0-or-later */
/* items.h: the link/<name>/... items (private to src/links). */
#pragma once

#include <net/if.h>

#include "config/cidr.h"
#include "engine/plan.h"
#include "netlink/rtnl.h"

enum halo_link_item_kind {
	HALO_LINK_PRESENT,
	HALO_LINK_MTU,
	HALO_LINK_UP,
	HALO_LINK_ADDR,
	HALO_LINK_ADDR_EXTRA,
	HALO_LINK_ROUTE,
	/* link/<name>/present of an entry no link matches yet, while an
	 * earlier phase (modules) still has changes that may bring it. */
	HALO_LINK_AWAITED,
};

/* What one item wants of the link it was matched to at plan time. The
 * ifindex identifies the link for the rest of the run. */
struct halo_link_want {
	enum halo_link_item_kind kind;
	int ifindex;
	char link[IF_NAMESIZE]; /* the kernel's name at plan time */
	char label[IF_NAMESIZE * 2]; /* the config entry's name */
	char how[256];          /* how it was matched: "name x", "mac ..." */
	uint32_t mtu;
	struct halo_cidr addr;  /* ADDR */
	struct halo_cidr *keep; /* ADDR_EXTRA: the listed addresses */
	size_t n_keep;
	struct halo_cidr dst;   /* ROUTE (network form) */
	bool has_gateway;
	struct halo_cidr gateway;
	uint32_t metric;
	bool after_modules;     /* AWAITED: the modules phase has applied */
	bool gone;              /* AWAITED: a check with no module to load: none will come */
	/* Who else configures the link ("systemd-networkd manages eth-a
	 * (...)"), "" nobody known: named when --check finds drift. */
	char cause[320];
};

/* Adds the item KEY for W (copied; W->keep is taken over). */
int halo_link_item_add(struct halo_plan *plan, const char *key,
		       struct halo_link_want *w, struct halo_item **ret_item);

/* "0.0.0.0/0"-style display of a route destination: "default" for /0. */
void halo_route_dst_format(const struct halo_cidr *dst, char *buf, size_t len);

/* ---- shared by the items' files (items.c) ---- */

/* A gateway's address, without its prefix length. */
void halo_link_gateway_format(const struct halo_cidr *c, char *buf, size_t len);
void halo_link_clear_observed(struct halo_item *item);
/* The link of W in the current snapshot. Absent: *RET is NULL, or with
 * MUST_EXIST the item fails (link gone). */
int halo_link_find(struct halo_ctx *ctx, struct halo_item *item,
		   const struct halo_link_want *w, bool must_exist,
		   const struct halo_rtnl_link **ret);
/* Fails ITEM with WHAT and the kernel's extended-ack text, if any. */
int halo_link_nl_fail(struct halo_ctx *ctx, struct halo_item *item, int err, const char *what);

/* ---- the operations of the address and route items ---- */

int halo_link_addr_observe(struct halo_ctx *ctx, struct halo_item *item);   /* items-addr.c */
int halo_link_addr_apply(struct halo_ctx *ctx, struct halo_item *item);
int halo_link_extra_observe(struct halo_ctx *ctx, struct halo_item *item);
int halo_link_extra_apply(struct halo_ctx *ctx, struct halo_item *item);
int halo_link_route_observe(struct halo_ctx *ctx, struct halo_item *item);  /* items-route.c */
int halo_link_route_apply(struct halo_ctx *ctx, struct halo_item *item);
