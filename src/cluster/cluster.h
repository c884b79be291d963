/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cluster.h: `halo-provision --cluster STATE_FILE...` (pinned: halo-provision(8)):
 * do the nodes agree on every cable?
 *
 * The facts. Every full apply (no --only, no --interface) writes a `node`
 * member into the state file (node.c; a partial apply keeps the previous
 * one). It is derived from the config and the host table, holds no
 * timestamp, so a no-op apply still leaves the file byte-identical:
 *   hostname    the root's /etc/hostname (first line), else uname's
 *   interfaces  per managed entry: name (the live name, else the entry's),
 *               mtu (configured, else the live one, else null),
 *               addresses (the configured CIDRs, canonical), and when the
 *               entry has a roce section: roce { enable, pfc, dscp, tos,
 *               trust, ecn }, each null when not configured
 *   boot        when the config has a boot section: gtt_mib (a number,
 *               "auto" or null) and params (the wanted value of every
 *               boot/param/ item, sorted)
 *
 * A cable is two interfaces on different nodes with addresses of one
 * family (IPv6 link-local excluded) where the shorter prefix of the two
 * covers both addresses. For each cable, items with an outcome:
 *   cluster/<a>~<b>/mtu      equal MTUs
 *   cluster/<a>~<b>/subnet   equal prefix lengths (one subnet)
 *   cluster/<a>~<b>/address  the two addresses differ
 *   cluster/<a>~<b>/roce|pfc|dscp|tos|trust|ecn
 *                            equal, compared when either end configures
 *                            a roce section (unsupported RoCE hardware
 *                            does not matter: the configured value counts)
 * with <a> and <b> as "node:interface", a < b. Per node:
 *   cluster/<node>/state     failed: the file is missing, unreadable, not a
 *                            state file, or has no node facts (written by
 *                            an older version, or no full apply yet);
 *                            <node> is then the path as given
 *   cluster/<node>/hostname  failed: two files name the same node
 *   cluster/<node>/stale     drift: its last apply failed (exit bit 4),
 *                            so what it recorded need not be live. Config
 *                            digests differ between nodes by design (each
 *                            has its own addresses) and are not compared.
 *   cluster/<node>/gtt_mib, cluster/<node>/kernel_params
 *                            drift: differs from the value most nodes
 *                            with a boot section have (a tie: the first
 *                            node by name wins); nodes without boot facts
 *                            are left out
 * Exit bits as for --check: 0 clean, 2 drift, 4 failed (also a missing
 * node), 1 usage (fewer than two files: cli.c). Nothing is written, no
 * lock taken, no config or root read.
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

struct halo_cluster_node; /* check.c */
struct halo_cluster;
/* Node I's file as given, and its hostname (NULL: no facts). */
const char *halo_cluster_node_file(const struct halo_cluster *cl, size_t i);
const char *halo_cluster_node_name(const struct halo_cluster *cl, size_t i);

struct halo_cluster {
	struct halo_cluster_node *nodes;
	size_t n_nodes;
	struct halo_cluster_item *items;
	size_t n_items;
	size_t n_cables;
	bool oom;
};

/* Adds the node whose state file FILE has TEXT (NULL: it could not be
 * read, READ_ERR its -errno). 0 or -ENOMEM. */
int halo_cluster_add(struct halo_cluster *cl, const char *file, const char *text, int read_err);
/* Pairs the cables and compares: fills cl->items, returns the exit bits. */
int halo_cluster_check(struct halo_cluster *cl);
void halo_cluster_free(struct halo_cluster *cl);

/* Text: one line per item not ok (every item with VERBOSITY > 0, only
 * failed ones with < 0), then the summary line. */
void halo_cluster_print_text(FILE *out, const struct halo_cluster *cl, int bits,
			     int verbosity);
int halo_cluster_print_json(FILE *out, const struct halo_cluster *cl, int bits);

/* The whole --cluster run over FILES (paths as given): the exit bits. */
int halo_cluster_main(char *const *files, size_t n, bool json, int verbosity);
