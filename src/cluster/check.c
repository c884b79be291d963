/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check.c: nodes → subnets → cables, segments and dangling ports → items
 * (cluster.h says what is compared and why). Every step sorts: the
 * addresses once, each prefix a range of them found by binary search, the
 * ranges grouped into subnets in one sweep, so a fabric of n ports costs
 * O(n log n) whether it is a daisy chain or one switch.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "cluster/internal.h"
#include "util/strv.h"

/* One address of a port. */
struct cl_addr {
	struct cl_port *port;
	size_t ia;       /* in port->addrs */
	size_t lo, hi;   /* the sorted addresses its prefix covers */
};

/* A cable found in a subnet of two ports (a < b by name). */
struct cl_cable {
	struct cl_port *a, *b;
	size_t ia, ib;
};

static int node_cmp(const void *a, const void *b)
{
	const struct halo_cluster_node *x = a, *y = b;
	int c;

	if (!x->hostname || !y->hostname)
		c = !x->hostname - !y->hostname;
	else
		c = strcmp(x->hostname, y->hostname);
	return c ? c : x->order < y->order ? -1 : x->order > y->order;
}

static bool node_counts(const struct halo_cluster_node *n)
{
	return n->hostname && !n->dup;
}

static int port_name_cmp(const void *a, const void *b)
{
	const struct cl_port *x = *(struct cl_port *const *)a, *y = *(struct cl_port *const *)b;
	int c = strcmp(x->node->hostname, y->node->hostname);

	return c ? c : strcmp(x->name, y->name);
}

static size_t addr_bytes(int family)
{
	return family == AF_INET ? 4 : 16;
}

/* Address order: family, then the address bytes. */
static int raw_cmp(int fa, const uint8_t *a, int fb, const uint8_t *b)
{
	if (fa != fb)
		return fa < fb ? -1 : 1;
	return memcmp(a, b, addr_bytes(fa));
}

static int addr_cmp(const void *x, const void *y)
{
	const struct cl_addr *a = x, *b = y;
	const struct halo_cidr *ca = &a->port->addrs[a->ia], *cb = &b->port->addrs[b->ia];
	int c = raw_cmp(ca->family, ca->addr, cb->family, cb->addr);

	if (c)
		return c;
	if (a->port->order != b->port->order)
		return a->port->order < b->port->order ? -1 : 1;
	return a->ia < b->ia ? -1 : a->ia > b->ia;
}

/* The first index of ADDRS[0..N) not below (FAMILY, BYTES); with
 * AFTER, the first above it. */
static size_t bound(const struct cl_addr *addrs, size_t n, int family, const uint8_t *bytes,
		    bool after)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct halo_cidr *c = &addrs[mid].port->addrs[addrs[mid].ia];
		int cmp = raw_cmp(c->family, c->addr, family, bytes);

		if (cmp < 0 || (after && cmp == 0))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The range of ADDRS that the prefix of ADDRS[I] covers. */
static void prefix_range(struct cl_addr *addrs, size_t n, size_t i)
{
	const struct halo_cidr *c = &addrs[i].port->addrs[addrs[i].ia];
	struct halo_cidr net, last;
	size_t bits = addr_bytes(c->family) * 8;

	halo_cidr_network(c, &net);
	last = net;
	for (size_t b = c->prefixlen; b < bits; b++)
		last.addr[b / 8] |= (uint8_t)(0x80u >> (b % 8));
	addrs[i].lo = bound(addrs, n, net.family, net.addr, false);
	addrs[i].hi = bound(addrs, n, last.family, last.addr, true) - 1;
}

/* A prefix range, [lo, hi] of the sorted addresses. */
struct cl_range {
	size_t lo, hi;
	const struct halo_cluster_node *claimed; /* a node whose own prefix it is */
	bool shared;     /* the own prefix of two nodes' ports */
};

/* Outer before inner: by lo, then the wider first. */
static int span_cmp(const void *x, const void *y)
{
	const struct cl_range *a = x, *b = y;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->hi > b->hi ? -1 : a->hi < b->hi;
}

static size_t dsu_find(size_t *up, size_t i)
{
	while (up[i] != i)
		i = up[i] = up[up[i]];
	return i;
}

static void dsu_union(size_t *up, size_t a, size_t b)
{
	a = dsu_find(up, a);
	b = dsu_find(up, b);
	if (a != b)
		up[a > b ? a : b] = a < b ? a : b;
}

/* The index in R (N_R distinct ranges, span_cmp order) of [LO, HI]. */
static size_t range_index(const struct cl_range *r, size_t n_r, size_t lo, size_t hi)
{
	size_t a = 0, b = n_r;
	struct cl_range key = { .lo = lo, .hi = hi };

	while (a < b) {
		size_t mid = a + (b - a) / 2;

		if (span_cmp(&r[mid], &key) < 0)
			a = mid + 1;
		else
			b = mid;
	}
	return a;
}

/*
 * The subnets: GROUP[i] for each of the N sorted addresses, numbered in
 * the order of their first address. A prefix typed wider on one end of a
 * cable (a /16 for a /24) must not take every subnet it covers into one
 * phantom switch, so an address belongs to the narrowest prefix range,
 * among the ports' own, that holds it and an address of another node (its
 * own when none does). A range that two nodes' ports have as their own
 * prefix is a subnet with everything in it (a switch, where one port's
 * narrower prefix stays inside); one that only one node's prefix makes
 * joins only the addresses that belong to it. Prefix ranges are nested or
 * disjoint, so the narrowest range holding an address is found in one
 * sweep, the next wider ones by their parents.
 */
static int group_subnets(struct cl_addr *addrs, size_t n, size_t *group)
{
	_cleanup_free_ size_t *other = calloc(n + 1, sizeof(*other));
	_cleanup_free_ struct cl_range *r = calloc(n + 1, sizeof(*r));
	_cleanup_free_ ssize_t *parent = calloc(n + 1, sizeof(*parent));
	_cleanup_free_ size_t *stack = calloc(n + 1, sizeof(*stack));
	_cleanup_free_ size_t *in = calloc(n + 1, sizeof(*in));
	_cleanup_free_ size_t *up = calloc(n + 1, sizeof(*up));
	_cleanup_free_ ssize_t *first = calloc(n + 1, sizeof(*first));
	_cleanup_free_ long *cover = calloc(n + 1, sizeof(*cover));
	size_t n_r = 0, depth = 0, next = 0, n_groups = 0;
	long c = 0;

	if (!other || !r || !parent || !stack || !in || !up || !first || !cover)
		return -ENOMEM;
	if (n == 0)
		return 0;
	/* OTHER[k]: the first address after k of another node than k's, so
	 * a range [lo, hi] holds two nodes when OTHER[lo] <= hi. */
	other[n - 1] = n;
	for (size_t k = n - 1; k-- > 0;)
		other[k] = addrs[k + 1].port->node != addrs[k].port->node ? k + 1 : other[k + 1];
	for (size_t i = 0; i < n; i++)
		r[i] = (struct cl_range){ .lo = addrs[i].lo, .hi = addrs[i].hi };
	qsort(r, n, sizeof(*r), span_cmp);
	for (size_t i = 0; i < n; i++)
		if (n_r == 0 || r[i].lo != r[n_r - 1].lo || r[i].hi != r[n_r - 1].hi)
			r[n_r++] = r[i];
	for (size_t i = 0; i < n; i++) {
		struct cl_range *own = &r[range_index(r, n_r, addrs[i].lo, addrs[i].hi)];

		if (!own->claimed)
			own->claimed = addrs[i].port->node;
		else if (own->claimed != addrs[i].port->node)
			own->shared = true;
	}
	for (size_t i = 0; i < n; i++) {
		ssize_t k;

		/* Open every range that starts here (its parent: the
		 * innermost open one still holding it), close those done. */
		while (next < n_r && r[next].lo <= i) {
			while (depth && r[stack[depth - 1]].hi < r[next].lo)
				depth--;
			parent[next] = depth ? (ssize_t)stack[depth - 1] : -1;
			stack[depth++] = next++;
		}
		while (depth && r[stack[depth - 1]].hi < i)
			depth--;
		k = depth ? (ssize_t)stack[depth - 1] : -1;
		while (k >= 0 && other[r[k].lo] > r[k].hi)
			k = parent[k];
		in[i] = k >= 0 ? (size_t)k : range_index(r, n_r, addrs[i].lo, addrs[i].hi);
	}
	for (size_t i = 0; i < n; i++)
		up[i] = i;
	for (size_t k = 0; k < n_r; k++)
		first[k] = -1;
	for (size_t i = 0; i < n; i++) {
		const struct cl_range *g = &r[in[i]];

		if (g->shared) {
			/* Every neighbouring pair in it: counted, joined below. */
			cover[g->lo]++;
			cover[g->hi]--;
		} else if (first[in[i]] < 0) {
			first[in[i]] = (ssize_t)i;
		} else {
			dsu_union(up, (size_t)first[in[i]], i);
		}
	}
	for (size_t k = 0; k + 1 < n; k++) {
		c += cover[k];
		if (c > 0)
			dsu_union(up, k, k + 1);
	}
	/* Numbered by their first address: FIRST is reused, by root. */
	for (size_t i = 0; i < n; i++)
		first[i] = -1;
	for (size_t i = 0; i < n; i++) {
		size_t root = dsu_find(up, i);

		if (first[root] < 0)
			first[root] = (ssize_t)n_groups++;
		group[i] = (size_t)first[root];
	}
	return (int)n_groups;
}

/* "192.168.100.0/30": the network of C at prefix PREFIXLEN. */
static char *subnet_text(const struct halo_cidr *c, unsigned prefixlen)
{
	struct halo_cidr net = *c;
	char buf[64];

	net.prefixlen = (uint8_t)prefixlen;
	halo_cidr_network(&net, &net);
	halo_cidr_format(&net, buf, sizeof(buf));
	return strdup(buf);
}

static void compare(struct halo_cluster *cl, const char *subject, const char *keyname,
		    const char *fact, const char *ea, const char *a, const char *eb, const char *b)
{
	if (strcmp(a, b) == 0)
		(void)halo_cl_add_item(cl, HALO_CL_OK, subject, keyname, fact, a, b,
				       "%s %s on both ends", fact, a);
	else
		(void)halo_cl_add_item(cl, HALO_CL_DRIFT, subject, keyname, fact, a, b,
				       "%s differs: %s on %s, %s on %s", fact, a, ea, b, eb);
}

/* The MTU of a cable: the live values where the documents have them,
 * and the configured ones (a live audit shows both a drift the next apply
 * undoes and a config that would break the cable). */
static void compare_mtu(struct halo_cluster *cl, const char *subject, const char *keyname,
			const struct cl_port *pa, const struct cl_port *pb)
{
	const char *la = halo_cl_mtu(pa), *lb = halo_cl_mtu(pb);
	char na[48], nb[48];

	if (strcmp(la, lb) != 0)
		(void)halo_cl_add_item(cl, HALO_CL_DRIFT, subject, keyname, "mtu", la, lb,
				       "mtu differs: %s on %s%s, %s on %s%s", la, pa->endpoint,
				       halo_cl_mtu_note(pa, na, sizeof(na)), lb, pb->endpoint,
				       halo_cl_mtu_note(pb, nb, sizeof(nb)));
	else if (strcmp(pa->mtu, pb->mtu) != 0)
		(void)halo_cl_add_item(cl, HALO_CL_DRIFT, subject, keyname, "mtu", pa->mtu, pb->mtu,
				       "mtu differs in the configs: %s on %s, %s on %s (%s on both now)",
				       pa->mtu, pa->endpoint, pb->mtu, pb->endpoint, la);
	else
		(void)halo_cl_add_item(cl, HALO_CL_OK, subject, keyname, "mtu", la, lb,
				       "mtu %s on both ends", la);
}

static void check_cable(struct halo_cluster *cl, const struct cl_cable *c)
{
	const struct cl_port *pa = c->a, *pb = c->b;
	const struct halo_cidr *ca = &pa->addrs[c->ia], *cb = &pb->addrs[c->ib];
	_cleanup_free_ char *subject = halo_strdup_printf("%s <-> %s", pa->endpoint, pb->endpoint);
	_cleanup_free_ char *keyname = halo_strdup_printf("%s~%s", pa->endpoint, pb->endpoint);
	_cleanup_free_ char *subnet = subnet_text(ca, ca->prefixlen < cb->prefixlen ?
						      ca->prefixlen : cb->prefixlen);
	_cleanup_free_ char *mtu = NULL, *differs = NULL;
	struct halo_buf b = { 0 };
	size_t first = cl->n_items;
	char xa[8], xb[8];

	if (!subject || !keyname || !subnet) {
		cl->oom = true;
		return;
	}
	cl->n_cables++;
	compare_mtu(cl, subject, keyname, pa, pb);
	snprintf(xa, sizeof(xa), "/%u", ca->prefixlen);
	snprintf(xb, sizeof(xb), "/%u", cb->prefixlen);
	compare(cl, subject, keyname, "subnet", pa->endpoint, xa, pb->endpoint, xb);
	if (halo_cidr_same_addr(ca, cb))
		(void)halo_cl_add_item(cl, HALO_CL_DRIFT, subject, keyname, "address",
				       pa->addr_text[c->ia], pb->addr_text[c->ib],
				       "address %s on both ends", pa->addr_text[c->ia]);
	else
		(void)halo_cl_add_item(cl, HALO_CL_OK, subject, keyname, "address",
				       pa->addr_text[c->ia], pb->addr_text[c->ib],
				       "addresses %s and %s", pa->addr_text[c->ia],
				       pb->addr_text[c->ib]);
	for (size_t i = 0; (pa->has_roce || pb->has_roce) && i < CL_N_ROCE; i++)
		compare(cl, subject, keyname, halo_cl_roce_facts[i], pa->endpoint,
			pa->has_roce ? pa->roce[i] : CL_UNSET, pb->endpoint,
			pb->has_roce ? pb->roce[i] : CL_UNSET);
	for (size_t i = first; i < cl->n_items; i++)
		if (cl->items[i].outcome != HALO_CL_OK)
			halo_buf_printf(&b, "%s%s", b.len ? ", " : "", cl->items[i].fact);
	halo_buf_puts(&b, "");
	differs = halo_buf_steal(&b);
	mtu = strcmp(halo_cl_mtu(pa), halo_cl_mtu(pb)) == 0 ? strdup(halo_cl_mtu(pa)) :
		halo_strdup_printf("%s/%s", halo_cl_mtu(pa), halo_cl_mtu(pb));
	if (!mtu || !differs) {
		cl->oom = true;
		return;
	}
	(void)halo_cl_add_link(cl, c->a, c->b, 0, subnet, mtu, differs);
}

static int cable_cmp(const void *x, const void *y)
{
	const struct cl_cable *a = x, *b = y;

	if (a->a->order != b->a->order)
		return a->a->order < b->a->order ? -1 : 1;
	if (a->b->order != b->b->order)
		return a->b->order < b->b->order ? -1 : 1;
	if (a->ia != b->ia)
		return a->ia < b->ia ? -1 : 1;
	return a->ib < b->ib ? -1 : a->ib > b->ib;
}

static int member_cmp(const void *x, const void *y)
{
	const struct cl_addr *a = *(struct cl_addr *const *)x, *b = *(struct cl_addr *const *)y;

	if (a->port->order != b->port->order)
		return a->port->order < b->port->order ? -1 : 1;
	return a->ia < b->ia ? -1 : a->ia > b->ia;
}

/* Marks the address of M as one whose subnet has no other node's port. */
static int mark_dangling(struct halo_cluster *cl, const struct cl_addr *m, bool **lonely)
{
	bool *l = lonely[m->port->order];

	if (!l) {
		l = calloc(m->port->n_addrs, sizeof(*l));
		if (!l)
			return -ENOMEM;
		lonely[m->port->order] = l;
		cl->n_dangling++;
	}
	l[m->ia] = true;
	m->port->dangling = true;
	return 0;
}

/* One subnet: MEMBERS, N addresses sorted by port. */
static int check_subnet(struct halo_cluster *cl, struct cl_addr **members, size_t n,
			struct cl_cable **cables, size_t *n_cables, bool **lonely)
{
	size_t n_ports = 0, n_nodes = 0, k = 0;
	struct cl_port **ports;
	const struct halo_cidr **addr;
	const char **text;
	int r = 0;

	qsort(members, n, sizeof(*members), member_cmp);
	/* A port with two addresses in the subnet counts once, with its
	 * first. Ports sort by node, so a node's ports are adjacent. */
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && members[i]->port == members[i - 1]->port)
			continue;
		n_ports++;
		if (i == 0 || members[i]->port->node != members[i - 1]->port->node)
			n_nodes++;
		members[k++] = members[i];
	}
	if (n_nodes < 2) {
		for (size_t i = 0; i < n_ports && r == 0; i++)
			r = mark_dangling(cl, members[i], lonely);
		return r;
	}
	if (n_ports == 2) {
		(*cables)[(*n_cables)++] = (struct cl_cable){ .a = members[0]->port, .ia = members[0]->ia,
							      .b = members[1]->port, .ib = members[1]->ia };
		return 0;
	}
	ports = calloc(n_ports, sizeof(*ports));
	addr = calloc(n_ports, sizeof(*addr));
	text = calloc(n_ports, sizeof(*text));
	if (!ports || !addr || !text) {
		r = -ENOMEM;
	} else {
		for (size_t i = 0; i < n_ports; i++) {
			ports[i] = members[i]->port;
			addr[i] = &members[i]->port->addrs[members[i]->ia];
			text[i] = members[i]->port->addr_text[members[i]->ia];
		}
		halo_cl_check_segment(cl, ports, addr, text, n_ports);
	}
	free(ports);
	free(addr);
	free(text);
	return r;
}

/* cluster/<port>/peer for every port with an address no other node's
 * port shares a subnet with. */
static void report_dangling(struct halo_cluster *cl, struct cl_port *const *ports, size_t n,
			    bool *const *lonely)
{
	size_t unread = halo_cl_unread(cl);
	char why[96] = "";

	/* Its peer may be in a file that could not be read. */
	if (unread)
		snprintf(why, sizeof(why), " (%zu without node facts: its peer may be in %s)",
			 unread, unread == 1 ? "it" : "one");
	for (size_t i = 0; i < n; i++) {
		struct halo_buf b = { 0 };
		_cleanup_free_ char *list = NULL;
		size_t k = 0;

		if (!lonely[i])
			continue;
		for (size_t a = 0; a < ports[i]->n_addrs; a++)
			if (lonely[i][a])
				halo_buf_printf(&b, "%s%s", k++ ? ", " : "", ports[i]->addr_text[a]);
		list = halo_buf_steal(&b);
		if (!list) {
			cl->oom = true;
			continue;
		}
		(void)halo_cl_add_item(cl, HALO_CL_DRIFT, ports[i]->endpoint, ports[i]->endpoint,
				       "peer", list, NULL,
				       "dangling port: no other node's port in the subnet of %s among the inputs%s",
				       list, why);
	}
}

/* Groups the ports' addresses into subnets and checks each. */
static int check_subnets(struct halo_cluster *cl, struct cl_port **ports, size_t n_ports)
{
	_cleanup_free_ struct cl_addr *addrs = NULL;
	_cleanup_free_ struct cl_addr **members = NULL;
	_cleanup_free_ size_t *group = NULL, *start = NULL, *fill = NULL;
	_cleanup_free_ struct cl_cable *cables = NULL;
	_cleanup_free_ bool **lonely = calloc(n_ports + 1, sizeof(*lonely));
	size_t n = 0, n_cables = 0, total = 0;
	int r = 0;

	for (size_t i = 0; i < n_ports; i++)
		total += ports[i]->n_addrs;
	addrs = calloc(total + 1, sizeof(*addrs));
	members = calloc(total + 1, sizeof(*members));
	group = calloc(total + 1, sizeof(*group));
	start = calloc(total + 2, sizeof(*start));
	fill = calloc(total + 1, sizeof(*fill));
	cables = calloc(total / 2 + 1, sizeof(*cables));
	if (!addrs || !members || !group || !start || !fill || !cables || !lonely)
		return -ENOMEM;
	for (size_t i = 0; i < n_ports; i++)
		for (size_t a = 0; a < ports[i]->n_addrs; a++)
			if (!halo_cidr_is_link_local(&ports[i]->addrs[a]))
				addrs[n++] = (struct cl_addr){ .port = ports[i], .ia = a };
	qsort(addrs, n, sizeof(*addrs), addr_cmp);
	for (size_t i = 0; i < n; i++)
		prefix_range(addrs, n, i);
	r = group_subnets(addrs, n, group);
	/* Each subnet's addresses, grouped: MEMBERS in group order. */
	for (size_t i = 0; r > 0 && i < n; i++)
		start[group[i] + 1]++;
	for (size_t g = 0; r > 0 && g < (size_t)r; g++)
		start[g + 1] += start[g];
	for (size_t i = 0; r > 0 && i < n; i++)
		members[start[group[i]] + fill[group[i]]++] = &addrs[i];
	for (size_t g = 0, n_groups = r > 0 ? (size_t)r : 0; g < n_groups && r >= 0; g++)
		r = check_subnet(cl, members + start[g], start[g + 1] - start[g], &cables, &n_cables,
				 lonely);
	/* A pair of ports in two subnets is one cable, by its first
	 * addresses. */
	qsort(cables, n_cables, sizeof(*cables), cable_cmp);
	for (size_t i = 0; i < n_cables && r == 0; i++)
		if (i == 0 || cables[i].a != cables[i - 1].a || cables[i].b != cables[i - 1].b)
			check_cable(cl, &cables[i]);
	report_dangling(cl, ports, n_ports, lonely);
	for (size_t i = 0; i < n_ports; i++)
		free(lonely[i]);
	return r;
}

/* The boot fact at FIELD (offset of a char * in the node) of every node
 * with boot facts against the value most of them have. */
static int check_node_fact(struct halo_cluster *cl, const char *fact, size_t field)
{
	_cleanup_free_ const char **values = calloc(cl->n_nodes + 1, sizeof(*values));
	_cleanup_free_ struct halo_cluster_node **with = calloc(cl->n_nodes + 1, sizeof(*with));
	_cleanup_free_ size_t *scratch = calloc(cl->n_nodes + 1, sizeof(*scratch));
	size_t n = 0, m;
	const char *want, *owner;
	bool tie;

	if (!values || !with || !scratch)
		return -ENOMEM;
	for (size_t i = 0; i < cl->n_nodes; i++)
		if (node_counts(&cl->nodes[i]) && cl->nodes[i].has_boot) {
			with[n] = &cl->nodes[i];
			values[n++] = *(char **)((char *)&cl->nodes[i] + field);
		}
	if (n == 0)
		return 0;
	/* The nodes are in name order: a tie goes to the first by name. */
	m = halo_cl_majority(values, n, scratch, &tie);
	owner = with[m]->hostname;
	want = values[m];
	for (size_t i = 0; i < n; i++) {
		if (strcmp(values[i], want) == 0)
			(void)halo_cl_add_item(cl, HALO_CL_OK, with[i]->hostname, with[i]->hostname,
					       fact, values[i], want, "%s %s", fact, values[i]);
		else
			(void)halo_cl_add_item(cl, HALO_CL_DRIFT, with[i]->hostname, with[i]->hostname,
					       fact, values[i], want,
					       "%s differs: %s here, %s on %s (%s)", fact, values[i], want,
					       owner, tie ? "no value has most nodes: a tie, the first "
							    "node by name's taken" :
							  "the most nodes' value");
	}
	return 0;
}

/* Sorts the nodes by name, reports duplicate and stale ones, names the
 * ports; the ports of the nodes that count, by name, in *RET. */
static int check_nodes(struct halo_cluster *cl, struct cl_port ***ret, size_t *ret_n)
{
	struct cl_port **ports;
	size_t n = 0, total = 0;

	qsort(cl->nodes, cl->n_nodes, sizeof(*cl->nodes), node_cmp);
	for (size_t i = 0; i < cl->n_nodes; i++) {
		struct halo_cluster_node *x = &cl->nodes[i];

		if (!x->hostname)
			continue;
		if (i > 0 && cl->nodes[i - 1].hostname &&
		    strcmp(cl->nodes[i - 1].hostname, x->hostname) == 0) {
			(void)halo_cl_add_item(cl, HALO_CL_FAILED, x->hostname, x->hostname, "hostname",
					       NULL, NULL, "%s and %s both name node %s",
					       cl->nodes[i - 1].file, x->file, x->hostname);
			x->dup = true;
			continue;
		}
		total += x->n_ports;
		if (!(x->exit_bits & HALO_EXIT_FAILED))
			continue;
		x->stale = true;
		(void)halo_cl_add_item(cl, HALO_CL_DRIFT, x->hostname, x->hostname, "stale", NULL, NULL,
				       x->audit ? "its audit found failed items (%s): its facts need not be live; see its report" :
						  "its last apply failed (%s): its facts need not be live; run halo-provision on it",
				       x->file);
	}
	ports = calloc(total + 1, sizeof(*ports));
	if (!ports)
		return -ENOMEM;
	for (size_t i = 0; i < cl->n_nodes; i++) {
		struct halo_cluster_node *x = &cl->nodes[i];

		for (size_t p = 0; node_counts(x) && p < x->n_ports; p++) {
			x->ports[p].node = x;
			x->ports[p].endpoint = halo_strdup_printf("%s:%s", x->hostname, x->ports[p].name);
			if (!x->ports[p].endpoint) {
				free(ports);
				return -ENOMEM;
			}
			ports[n++] = &x->ports[p];
		}
	}
	qsort(ports, n, sizeof(*ports), port_name_cmp);
	for (size_t i = 0; i < n; i++)
		ports[i]->order = i;
	*ret = ports;
	*ret_n = n;
	return 0;
}

int halo_cluster_check(struct halo_cluster *cl)
{
	_cleanup_free_ struct cl_port **ports = NULL;
	size_t n_ports = 0;
	int bits = 0, r;

	r = check_nodes(cl, &ports, &n_ports);
	if (r >= 0)
		r = check_subnets(cl, ports, n_ports);
	if (r >= 0)
		r = check_node_fact(cl, "gtt_mib", offsetof(struct halo_cluster_node, gtt));
	if (r >= 0)
		r = check_node_fact(cl, "kernel_params", offsetof(struct halo_cluster_node, params));
	if (r < 0)
		cl->oom = true;
	for (size_t i = 0; i < cl->n_items; i++)
		bits |= cl->items[i].outcome == HALO_CL_FAILED ? HALO_EXIT_FAILED :
			cl->items[i].outcome == HALO_CL_DRIFT ? HALO_EXIT_CHANGED : 0;
	return cl->oom ? bits | HALO_EXIT_FAILED : bits;
}
