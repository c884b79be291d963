/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dot.c: `--cluster --dot`, the map as a Graphviz graph (render it with
 * `dot -Tsvg`): a box per node holding its ports, a cable per edge
 * labelled with its subnet and MTU, a switched segment as a switch node
 * with an edge to each of its ports. What is wrong is drawn in red (a
 * cable or switch port whose ends disagree, a stale node, a file that gave
 * no node) or orange (a dangling port), and each element carries an id
 * and a class ("cable drift", "port dangling", "node stale", ...) that
 * the SVG keeps, so a script can find it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cluster/internal.h"
#include "util/strv.h"

#define BAD "#d7301f"
#define BAD_FILL "#fde0dd"
#define LONELY "#e6850e"

/* S inside a DOT quoted string: '"' and '\' escaped (a backslash starts
 * an escape sequence in labels), control characters shown as '?'. */
static void put_escaped(struct halo_buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			halo_buf_printf(b, "\\%c", *s);
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			halo_buf_puts(b, "?");
		else
			halo_buf_append(b, s, 1);
	}
}

/* S as a DOT quoted string. */
static void q(struct halo_buf *b, const char *s)
{
	halo_buf_puts(b, "\"");
	put_escaped(b, s);
	halo_buf_puts(b, "\"");
}

/* The message of the failed item about FILE (a node without facts). */
static const char *file_problem(const struct halo_cluster *cl, const char *file)
{
	for (size_t i = 0; i < cl->n_items; i++)
		if (strcmp(cl->items[i].fact, "state") == 0 && strcmp(cl->items[i].subject, file) == 0)
			return cl->items[i].message;
	return "no node facts";
}

static void draw_port(struct halo_buf *b, const struct cl_port *p)
{
	halo_buf_puts(b, "\t\t");
	q(b, p->endpoint);
	halo_buf_puts(b, " [label=\"");
	put_escaped(b, p->name);
	for (size_t a = 0; a < p->n_addrs; a++) {
		halo_buf_puts(b, "\\n");
		put_escaped(b, p->addr_text[a]);
	}
	halo_buf_puts(b, "\\nmtu ");
	put_escaped(b, halo_cl_mtu(p));
	if (p->dangling)
		halo_buf_printf(b, "\\nno peer\", class=\"port dangling\", color=\"%s\", "
				"fontcolor=\"%s\", style=\"dashed,bold\", penwidth=2", LONELY, LONELY);
	else
		halo_buf_puts(b, "\", class=\"port\"");
	halo_buf_puts(b, ", id=");
	q(b, p->endpoint);
	halo_buf_puts(b, "];\n");
}

static void draw_node(struct halo_buf *b, const struct halo_cluster *cl,
		      const struct halo_cluster_node *n, size_t i)
{
	if (!n->hostname || n->dup) {
		/* A file that gave no node: a box of its own, in red. */
		halo_buf_printf(b, "\t\"file%zu\" [shape=note, style=\"filled,dashed\", color=\"%s\", "
				"fillcolor=\"%s\", class=\"host missing\", id=\"file:", i, BAD, BAD_FILL);
		put_escaped(b, n->file);
		halo_buf_puts(b, "\", label=\"");
		put_escaped(b, n->file);
		halo_buf_puts(b, "\\n");
		put_escaped(b, n->dup ? "a second file of this node: left out" :
					file_problem(cl, n->file));
		halo_buf_puts(b, "\"];\n");
		return;
	}
	halo_buf_printf(b, "\tsubgraph \"cluster_%zu\" {\n\t\tlabel=\"", i);
	put_escaped(b, n->hostname);
	if (n->stale)
		halo_buf_printf(b, " (stale: its %s failed)\";\n\t\tclass=\"host stale\"; "
				"style=filled; color=\"%s\"; fillcolor=\"%s\"; penwidth=2;\n",
				n->audit ? "audit" : "last apply", BAD, BAD_FILL);
	else
		halo_buf_puts(b, "\";\n\t\tclass=\"host\";\n");
	halo_buf_puts(b, "\t\tid=");
	q(b, n->hostname);
	halo_buf_puts(b, ";\n");
	for (size_t p = 0; p < n->n_ports; p++)
		draw_port(b, &n->ports[p]);
	if (n->n_ports == 0)
		halo_buf_printf(b, "\t\t\"empty%zu\" [label=\"no managed interface\", shape=plaintext];\n", i);
	halo_buf_puts(b, "\t}\n");
}

static void draw_segment(struct halo_buf *b, const struct halo_cluster_segment *g, size_t i)
{
	halo_buf_printf(b, "\t\"segment%zu\" [shape=box3d, style=filled, fillcolor=\"#e0e0e0\", "
			"class=\"segment\", id=", i);
	q(b, g->subnet);
	halo_buf_puts(b, ", label=\"switch ");
	put_escaped(b, g->subnet);
	halo_buf_puts(b, "\\nmtu ");
	put_escaped(b, g->mtu);
	halo_buf_printf(b, ", %zu ports of %zu nodes", g->n_ports, g->n_nodes);
	if (g->n_drift)
		halo_buf_printf(b, "\\n%zu differ%s", g->n_drift, g->n_drift == 1 ? "s" : "");
	halo_buf_puts(b, "\"];\n");
}

static void draw_link(struct halo_buf *b, const struct halo_cluster *cl,
		      const struct halo_cluster_link *l)
{
	halo_buf_puts(b, "\t");
	q(b, l->a->endpoint);
	halo_buf_puts(b, " -- ");
	if (l->b)
		q(b, l->b->endpoint);
	else
		halo_buf_printf(b, "\"segment%zu\"", l->seg);
	halo_buf_puts(b, " [id=\"");
	put_escaped(b, l->a->endpoint);
	halo_buf_puts(b, "~");
	put_escaped(b, l->b ? l->b->endpoint : cl->segments[l->seg].subnet);
	halo_buf_puts(b, "\", label=\"");
	/* A switch port's subnet is the switch's. */
	if (l->b) {
		put_escaped(b, l->subnet);
		halo_buf_puts(b, "\\n");
	}
	halo_buf_puts(b, "mtu ");
	put_escaped(b, l->mtu);
	if (l->drift) {
		halo_buf_puts(b, "\\ndiffers: ");
		put_escaped(b, l->differs);
		halo_buf_printf(b, "\", class=\"%s drift\", color=\"%s\", fontcolor=\"%s\", "
				"penwidth=3, style=bold];\n", l->b ? "cable" : "switchport", BAD, BAD);
	} else {
		halo_buf_printf(b, "\", class=\"%s\"];\n", l->b ? "cable" : "switchport");
	}
}

int halo_cluster_print_dot(FILE *out, const struct halo_cluster *cl, int bits)
{
	struct halo_buf b = { 0 };
	_cleanup_free_ char *text = NULL, *sum = halo_cl_summary(cl);

	halo_buf_printf(&b, "graph \"halo-cluster\" {\n"
			"\tgraph [rankdir=LR, labelloc=t, fontname=\"sans-serif\", label=\"");
	put_escaped(&b, sum ? sum : "cluster");
	halo_buf_printf(&b, " (exit %d)\"];\n"
			"\tnode [shape=box, fontname=\"sans-serif\", fontsize=10];\n"
			"\tedge [fontname=\"sans-serif\", fontsize=9];\n", bits);
	for (size_t i = 0; i < cl->n_nodes; i++)
		draw_node(&b, cl, &cl->nodes[i], i);
	for (size_t i = 0; i < cl->n_segments; i++)
		draw_segment(&b, &cl->segments[i], i);
	for (size_t i = 0; i < cl->n_links; i++)
		draw_link(&b, cl, &cl->links[i]);
	halo_buf_puts(&b, "}\n");
	text = halo_buf_steal(&b);
	if (!text)
		return -ENOMEM;
	return fputs(text, out) < 0 ? -EIO : 0;
}
