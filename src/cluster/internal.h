/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h: what the files of --cluster share: the nodes and ports read
 * from the documents (parse.c), the items (items.c), and the map the
 * check draws (check.c, segment.c; printed by output.c and dot.c).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "cluster/cluster.h"
#include "config/cidr.h"

#define CL_UNSET "unset"

/* The RoCE facts compared on a cable or a segment, as the item keys name
 * them (the node member calls the first "enable"). */
#define CL_N_ROCE 6
extern const char *const halo_cl_roce_facts[CL_N_ROCE];

/* A managed interface of a node: an end of a cable or a switch port. */
struct cl_port {
	struct halo_cluster_node *node; /* set once the nodes are sorted */
	char *name;
	char *endpoint;  /* "node:name", set once the nodes are sorted */
	char *mtu;       /* configured (else the live one), "unset" */
	char *live_mtu;  /* the run's last observation; NULL: not in the document */
	struct halo_cidr *addrs;
	char **addr_text;
	size_t n_addrs;
	bool has_roce;
	char *roce[CL_N_ROCE];
	size_t order;    /* by node name, then port name */
	bool dangling;   /* an address whose subnet has no other node's port */
	bool drift;      /* an item about this port is not ok */
};

struct halo_cluster_node {
	char *file;
	char *hostname;  /* NULL: the document gave no facts (already an item) */
	bool audit;      /* a run's --json report (a live audit), not a state file */
	int exit_bits;
	struct cl_port *ports;
	size_t n_ports;
	bool has_boot;
	bool dup;        /* a second document of the same hostname: left out */
	bool stale;      /* its run failed: its facts need not be live */
	size_t order;    /* as given: the first of two same names is kept */
	char *gtt, *params;
};

/* A cable between two ports, or a port's link to a segment's switch. */
struct halo_cluster_link {
	struct cl_port *a, *b; /* b NULL: a's link to segments[seg] */
	size_t seg;
	char *subnet;          /* "192.168.100.0/30" */
	char *mtu;             /* "9000", or "9000/1500" when the ends differ */
	char *differs;         /* the facts that differ ("mtu, pfc"), or NULL */
	bool drift;
};

/* A subnet of more than two ports: a switch. Its values are the most
 * ports' (ties: the first port by name). */
struct halo_cluster_segment {
	char *subnet;          /* "10.0.0.0/16" */
	char *mtu;
	char *prefix;          /* "/16" */
	size_t n_ports, n_nodes, n_drift;
};

/* Adds an item "cluster/KEYNAME/FACT" (A, B the two values or NULL).
 * Failure latches cl->oom: 0 or -ENOMEM. */
int halo_cl_add_item(struct halo_cluster *cl, enum halo_cluster_outcome outcome,
		     const char *subject, const char *keyname, const char *fact,
		     const char *a, const char *b, const char *fmt, ...) _printf_(8, 9);

/* The index of the value most of VALUES[0..N) have, ties to the lowest
 * index (callers order the values by name first); N > 0. SCRATCH: N
 * elements. *RET_TIE (when not NULL): another value is as frequent.
 * O(N log N). */
size_t halo_cl_majority(const char *const *values, size_t n, size_t *scratch, bool *ret_tie);

/* The MTU compared for PORT: the live one when the document has it. */
static inline const char *halo_cl_mtu(const struct cl_port *p)
{
	return p->live_mtu ? p->live_mtu : p->mtu;
}

/* PORT's configured MTU when its live one differs, for messages: ""
 * or " (configured 9000)" in BUF. */
const char *halo_cl_mtu_note(const struct cl_port *p, char *buf, size_t len);

/* Appends a link; DIFFERS NULL or "" when its ends agree. 0 or -ENOMEM
 * (latched in cl->oom). */
int halo_cl_add_link(struct halo_cluster *cl, struct cl_port *a, struct cl_port *b,
		     size_t seg, const char *subnet, const char *mtu, const char *differs);

/* A subnet of more than two ports, MEMBERS (sorted by port order, no
 * port twice), ADDR[i] the address of MEMBERS[i] in it: its items, its
 * segment and links (segment.c). */
void halo_cl_check_segment(struct halo_cluster *cl, struct cl_port *const *members,
			   const struct halo_cidr *const *addr, const char *const *addr_text,
			   size_t n);

/* "cluster: 3 nodes, 2 cables, 21 items, 20 ok, 1 drift" (caller frees;
 * NULL on ENOMEM). */
char *halo_cl_summary(const struct halo_cluster *cl);

/* The inputs that gave no node facts (missing, unreadable, not a
 * document of this tool, or one without facts: each already an item). */
size_t halo_cl_unread(const struct halo_cluster *cl);

/* Frees what parse.c read into a node. */
void halo_cl_node_free(struct halo_cluster_node *n);
