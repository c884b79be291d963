/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * segment.c: a subnet of more than two ports is a switched segment. Its
 * ports are not compared pairwise (n²/2 "cables" for one switch): each is
 * compared with the segment, whose MTU, prefix and RoCE values are those
 * most of its ports have, and with the others' addresses (sorted, so a
 * duplicate is a neighbour). One item per port, one per segment.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "cluster/internal.h"
#include "util/strv.h"

/* The facts compared, as columns: 0 the MTU compared (live where known),
 * 1 the configured one, 2 the prefix, then the RoCE facts. */
enum { COL_MTU, COL_CONF_MTU, COL_PREFIX, COL_ROCE, N_COLS = COL_ROCE + CL_N_ROCE };

struct segment {
	size_t n;
	struct cl_port *const *ports;
	const struct halo_cidr *const *addr;
	const char *const *text;
	const char **col[N_COLS];
	char (*prefix)[8];
	size_t want[N_COLS];     /* the index of the majority's value */
	bool tie[N_COLS];        /* another value has as many ports */
	size_t *dup;             /* another port of the same address, or n */
	bool roce;
};

static int addr_index_cmp(const void *x, const void *y, void *arg)
{
	const struct segment *s = arg;
	const struct halo_cidr *a = s->addr[*(const size_t *)x], *b = s->addr[*(const size_t *)y];
	size_t len = a->family == AF_INET ? 4 : 16;

	if (a->family != b->family)
		return a->family < b->family ? -1 : 1;
	return memcmp(a->addr, b->addr, len);
}

/* s->dup[i]: a port with the same address as port I (the next one in
 * address order, the last of a run pointing back), else s->n. */
static void find_duplicates(struct segment *s, size_t *scratch)
{
	for (size_t i = 0; i < s->n; i++) {
		scratch[i] = i;
		s->dup[i] = s->n;
	}
	qsort_r(scratch, s->n, sizeof(*scratch), addr_index_cmp, s);
	for (size_t i = 1; i < s->n; i++)
		if (addr_index_cmp(&scratch[i - 1], &scratch[i], s) == 0) {
			s->dup[scratch[i - 1]] = scratch[i];
			s->dup[scratch[i]] = scratch[i - 1];
		}
}

/* The facts of port I that differ from the segment's: "; "-separated
 * sentences in B, their names in NAMES, and its value and the segment's
 * of the first. */
static void port_differences(const struct segment *s, size_t i, struct halo_buf *b,
			     struct halo_buf *names, const char **ret_a, const char **ret_b)
{
	static const char *const col_names[COL_ROCE] = { "mtu", "mtu", "subnet" };
	size_t n = 0;
	char note[48];

	for (size_t c = 0; c < N_COLS; c++) {
		const char *mine, *want;

		if (c >= COL_ROCE && !s->roce)
			break;
		mine = s->col[c][i];
		want = s->col[c][s->want[c]];
		if (strcmp(mine, want) == 0)
			continue;
		/* The configured MTU counts where the live ones agree. */
		if (c == COL_CONF_MTU && strcmp(s->col[COL_MTU][i], s->col[COL_MTU][s->want[COL_MTU]]) != 0)
			continue;
		if (n++ == 0) {
			*ret_a = mine;
			*ret_b = want;
		}
		if (n > 1)
			halo_buf_puts(b, "; ");
		halo_buf_printf(names, "%s%s", names->len ? ", " : "",
				c < COL_ROCE ? col_names[c] : halo_cl_roce_facts[c - COL_ROCE]);
		if (c == COL_MTU)
			halo_buf_printf(b, "mtu %s%s, the segment's %s", mine,
					halo_cl_mtu_note(s->ports[i], note, sizeof(note)), want);
		else if (c == COL_CONF_MTU)
			halo_buf_printf(b, "configured mtu %s, the segment's %s (%s now)", mine, want,
					s->col[COL_MTU][i]);
		else if (c == COL_PREFIX)
			halo_buf_printf(b, "prefix %s, the segment's %s", mine, want);
		else
			halo_buf_printf(b, "%s %s, the segment's %s", halo_cl_roce_facts[c - COL_ROCE],
					mine, want);
	}
	if (s->dup[i] < s->n) {
		if (n++ == 0) {
			*ret_a = s->text[i];
			*ret_b = s->text[s->dup[i]];
		}
		halo_buf_printf(b, "%saddress %s also on %s", n > 1 ? "; " : "", s->text[i],
				s->ports[s->dup[i]]->endpoint);
		halo_buf_printf(names, "%saddress", names->len ? ", " : "");
	}
	halo_buf_puts(b, "");
	halo_buf_puts(names, "");
}

static void check_port(struct halo_cluster *cl, const struct segment *s, size_t i,
		       const char *subnet, size_t seg)
{
	struct cl_port *p = s->ports[i];
	_cleanup_free_ char *subject = halo_strdup_printf("%s <-> switch %s", p->endpoint, subnet);
	_cleanup_free_ char *keyname = halo_strdup_printf("%s~%s", p->endpoint, subnet);
	_cleanup_free_ char *diff = NULL, *differs = NULL;
	struct halo_buf b = { 0 }, names = { 0 };
	const char *va = s->col[COL_MTU][i], *vb = s->col[COL_MTU][s->want[COL_MTU]];
	char note[48];

	port_differences(s, i, &b, &names, &va, &vb);
	diff = halo_buf_steal(&b);
	differs = halo_buf_steal(&names);
	if (!subject || !keyname || !diff || !differs) {
		cl->oom = true;
		return;
	}
	if (diff[0])
		(void)halo_cl_add_item(cl, HALO_CL_DRIFT, subject, keyname, "port", va, vb,
				       "%s", diff);
	else
		(void)halo_cl_add_item(cl, HALO_CL_OK, subject, keyname, "port", va, vb,
				       "mtu %s%s, prefix %s, as the segment", va,
				       halo_cl_mtu_note(p, note, sizeof(note)), s->col[COL_PREFIX][i]);
	p->drift |= diff[0] != '\0';
	(void)halo_cl_add_link(cl, p, NULL, seg, subnet, s->col[COL_MTU][i], differs);
}

static int add_segment(struct halo_cluster *cl, const struct segment *s, char *subnet,
		       size_t *ret)
{
	struct halo_cluster_segment *v, *g;
	size_t nodes = 0;

	v = reallocarray(cl->segments, cl->n_segments + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	cl->segments = v;
	g = &v[cl->n_segments];
	*g = (struct halo_cluster_segment){ .subnet = subnet, .n_ports = s->n };
	g->mtu = strdup(s->col[COL_MTU][s->want[COL_MTU]]);
	g->prefix = strdup(s->col[COL_PREFIX][s->want[COL_PREFIX]]);
	if (!g->mtu || !g->prefix) {
		free(g->mtu);
		free(g->prefix);
		return -ENOMEM;
	}
	/* The ports sort by node: a node's are adjacent. */
	for (size_t i = 0; i < s->n; i++)
		nodes += i == 0 || s->ports[i]->node != s->ports[i - 1]->node;
	g->n_nodes = nodes;
	*ret = cl->n_segments++;
	return 0;
}

static void check(struct halo_cluster *cl, struct segment *s, size_t *scratch)
{
	struct halo_cidr net;
	char subnet[64];
	char *owned;
	size_t seg, first = cl->n_items;

	for (size_t c = 0; c < N_COLS; c++)
		s->want[c] = c < COL_ROCE || s->roce ?
				     halo_cl_majority(s->col[c], s->n, scratch, &s->tie[c]) : 0;
	find_duplicates(s, scratch);
	/* Named by the network of a port with the segment's prefix. */
	halo_cidr_network(s->addr[s->want[COL_PREFIX]], &net);
	halo_cidr_format(&net, subnet, sizeof(subnet));
	owned = strdup(subnet);
	if (!owned || add_segment(cl, s, owned, &seg) < 0) {
		free(owned);
		cl->oom = true;
		return;
	}
	for (size_t i = 0; i < s->n; i++)
		check_port(cl, s, i, subnet, seg);
	for (size_t i = first; i < cl->n_items; i++)
		cl->segments[seg].n_drift += cl->items[i].outcome != HALO_CL_OK;
	{
		_cleanup_free_ char *subject = halo_strdup_printf("switch %s", subnet);
		struct halo_cluster_segment *g = &cl->segments[seg];
		struct halo_buf b = { 0 };
		_cleanup_free_ char *values = NULL;

		for (size_t c = COL_ROCE; s->roce && c < N_COLS; c++)
			halo_buf_printf(&b, ", %s %s", halo_cl_roce_facts[c - COL_ROCE],
					s->col[c][s->want[c]]);
		halo_buf_puts(&b, " (the most ports' values");
		/* No value has most ports: which one the ports are held to
		 * is only the first port's by name. */
		for (size_t c = 0, k = 0; c < N_COLS; c++) {
			static const char *const names[] = { "mtu", "configured mtu", "prefix" };

			if (!s->tie[c] || (c >= COL_ROCE && !s->roce))
				continue;
			halo_buf_printf(&b, "%s%s", k++ ? ", " : "; a tie in ",
					c < COL_ROCE ? names[c] : halo_cl_roce_facts[c - COL_ROCE]);
		}
		halo_buf_puts(&b, ")");
		values = halo_buf_steal(&b);
		if (!subject || !values) {
			cl->oom = true;
			return;
		}
		(void)halo_cl_add_item(cl, HALO_CL_OK, subject, subnet, "segment", g->mtu, g->prefix,
				       "a switched segment: %zu ports of %zu nodes, mtu %s, prefix %s%s; %zu port%s differ%s",
				       g->n_ports, g->n_nodes, g->mtu, g->prefix, values,
				       g->n_drift, g->n_drift == 1 ? "" : "s", g->n_drift == 1 ? "s" : "");
	}
}

void halo_cl_check_segment(struct halo_cluster *cl, struct cl_port *const *ports,
			   const struct halo_cidr *const *addr, const char *const *text, size_t n)
{
	struct segment s = { .n = n, .ports = ports, .addr = addr, .text = text };
	size_t *scratch = calloc(n, sizeof(*scratch));
	bool ok = scratch != NULL;

	s.dup = calloc(n, sizeof(*s.dup));
	s.prefix = calloc(n, sizeof(*s.prefix));
	ok = ok && s.dup && s.prefix;
	for (size_t c = 0; ok && c < N_COLS; c++)
		ok = (s.col[c] = calloc(n, sizeof(*s.col[c]))) != NULL;
	for (size_t i = 0; ok && i < n; i++) {
		snprintf(s.prefix[i], sizeof(s.prefix[i]), "/%u", addr[i]->prefixlen);
		s.col[COL_MTU][i] = halo_cl_mtu(ports[i]);
		s.col[COL_CONF_MTU][i] = ports[i]->mtu;
		s.col[COL_PREFIX][i] = s.prefix[i];
		for (size_t r = 0; r < CL_N_ROCE; r++)
			s.col[COL_ROCE + r][i] = ports[i]->has_roce ? ports[i]->roce[r] : CL_UNSET;
		s.roce |= ports[i]->has_roce;
	}
	if (ok)
		check(cl, &s, scratch);
	else
		cl->oom = true;
	for (size_t c = 0; c < N_COLS; c++)
		free(s.col[c]);
	free(s.prefix);
	free(s.dup);
	free(scratch);
}
