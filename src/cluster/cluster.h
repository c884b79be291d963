/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cluster.h: `halo-provision --cluster FILE...` (pinned: halo-provision(8)):
 * do the nodes agree on every cable and every switched segment?
 *
 * The inputs are each node's state file, or the document a full run of
 * `halo-provision --check --json` (or --dry-run, or apply) printed on it:
 * its live audit. Both carry the `node` facts (node.c), written by every
 * full run (no --only, no --interface; a partial apply keeps the state
 * file's previous ones). Derived from the config, the host table and the
 * run's last observation, never the clock, so a no-op apply still leaves
 * the state file byte-identical:
 *   hostname    the root's /etc/hostname (first line), else uname's
 *   interfaces  per managed entry: name (the live name, else the entry's),
 *               mtu (configured, else the live one, else null), live_mtu
 *               (what the run last observed, null when the link is
 *               missing), addresses (the configured CIDRs, canonical), and
 *               when the entry has a roce section: roce { enable, pfc,
 *               dscp, tos, trust, ecn }, each null when not configured
 *   boot        when the config has a boot section: gtt_mib (a number,
 *               "auto" or null) and params (the wanted value of every
 *               boot/param/ item, sorted)
 *
 * Ports are grouped by subnet (family and address; IPv6 link-local
 * excluded): two ports are in one subnet when the shorter prefix of the
 * two covers both addresses, and the groups are closed under that. The
 * addresses are sorted and each prefix is a range of them, so grouping is
 * O(n log n) whatever the fabric. A group of
 *   one port, or ports of one node only: each is a dangling port,
 *       cluster/<a>/peer (drift): no other node's port in its subnet
 *       among the inputs;
 *   two ports of two nodes: a cable, items
 *       cluster/<a>~<b>/mtu      equal MTUs: the live ones where the
 *                                documents have them (a live audit), and
 *                                equal configured ones
 *       cluster/<a>~<b>/subnet   equal prefix lengths (one subnet)
 *       cluster/<a>~<b>/address  the two addresses differ
 *       cluster/<a>~<b>/roce|pfc|dscp|tos|trust|ecn
 *                                equal, compared when either end configures
 *                                a roce section (unsupported RoCE hardware
 *                                does not matter: the configured value
 *                                counts)
 *   more than two ports: a segment (a switch), segment.c: one item per
 *       port, cluster/<a>~<subnet>/port, each port against the segment's
 *       MTU, prefix and RoCE values (those most of its ports have) and
 *       against the other ports' addresses; and one item per segment,
 *       cluster/<subnet>/segment (ok: what the switch carries).
 * <a> and <b> are "node:interface", a < b. Per node:
 *   cluster/<node>/state     failed: the file is missing, unreadable, too
 *                            large, not a state file or a run's report,
 *                            or has no node facts (an older version, a
 *                            partial run, no full apply yet); <node> is
 *                            then the path as given
 *   cluster/<node>/hostname  failed: two files name the same node
 *   cluster/<node>/stale     drift: its last apply (or the audit given)
 *                            failed (exit bit 4), so what it recorded need
 *                            not be live. Config digests differ between
 *                            nodes by design (each has its own addresses)
 *                            and are not compared.
 *   cluster/<node>/gtt_mib, cluster/<node>/kernel_params
 *                            drift: differs from the value most nodes
 *                            with a boot section have (a tie: the first
 *                            node by name wins); nodes without boot facts
 *                            are left out
 * Exit bits as for --check: 0 clean, 2 drift, 4 failed (also a missing
 * node), 1 usage (fewer than two files: cli.c). Nothing is written, no
 * lock taken, no config or root read. --dot draws the same map as a
 * Graphviz graph (dot.c).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config/halo-config.h"
#include "engine/plan.h"
#include "halo.h"

struct json_object;

/* The state file's `node` member for this run (NULL on ENOMEM). */
struct json_object *halo_cluster_node_json(const struct halo_ctx *ctx,
					   const struct halo_config *cfg,
					   const struct halo_plan *plan);

enum halo_cluster_outcome { HALO_CL_OK, HALO_CL_DRIFT, HALO_CL_FAILED };

struct halo_cluster_item {
	char *key;
	enum halo_cluster_outcome outcome;
	char *subject; /* "n1:eth0 <-> n2:eth0", "n1", or a file path */
	char *fact;    /* "mtu", "state"... */
	char *value_a, *value_b; /* the two ends' values (cables), or NULL */
	char *message; /* one line */
};

struct halo_cluster_node; /* internal.h */
struct halo_cluster_link;
struct halo_cluster_segment;
struct halo_cluster;
/* Node I's file as given, and its hostname (NULL: no facts). */
const char *halo_cluster_node_file(const struct halo_cluster *cl, size_t i);
const char *halo_cluster_node_name(const struct halo_cluster *cl, size_t i);

struct halo_cluster {
	struct halo_cluster_node *nodes;
	size_t n_nodes, cap_nodes;
	struct halo_cluster_item *items;
	size_t n_items, cap_items;
	size_t n_cables;
	/* The map: cables and the links of switch ports (check.c). */
	struct halo_cluster_link *links;
	size_t n_links, cap_links;
	struct halo_cluster_segment *segments;
	size_t n_segments;
	size_t n_dangling; /* ports with a subnet of no other node */
	bool oom;
};

/* The largest input read: a state file or a report is a few KiB per
 * interface; anything bigger is not one. */
#define HALO_CLUSTER_INPUT_MAX (16u << 20)

/* Adds the node whose file FILE (a state file or a --json report) has
 * TEXT; TEXT NULL: it was not read, UNREAD says why (one line). 0 or
 * -ENOMEM. */
int halo_cluster_add(struct halo_cluster *cl, const char *file, const char *text,
		     const char *unread);
/* Pairs the cables and compares: fills cl->items, returns the exit bits. */
int halo_cluster_check(struct halo_cluster *cl);
void halo_cluster_free(struct halo_cluster *cl);

/* Text: one line per item not ok (every item with VERBOSITY > 0, only
 * failed ones with < 0), then the summary line. */
void halo_cluster_print_text(FILE *out, const struct halo_cluster *cl, int bits,
			     int verbosity);
int halo_cluster_print_json(FILE *out, const struct halo_cluster *cl, int bits);
/* The same document for a --cluster command line that is wrong (exit 1):
 * no nodes or items, ERRS as "errors" (the first also as "msg"). */
struct halo_errors;
int halo_cluster_print_json_error(FILE *out, const struct halo_errors *errs);
/* The map as a Graphviz graph (dot.c). 0 or -ENOMEM. */
int halo_cluster_print_dot(FILE *out, const struct halo_cluster *cl, int bits);

enum halo_cluster_format { HALO_CLUSTER_TEXT, HALO_CLUSTER_JSON, HALO_CLUSTER_DOT };

/* The whole --cluster run over FILES (paths as given): the exit bits. */
int halo_cluster_main(char *const *files, size_t n, enum halo_cluster_format format,
		      int verbosity);
