/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check.c: state files → nodes → cables → items (cluster.h says what is
 * compared and why). Facts are kept as display strings ("9000", "[3]",
 * "dscp"; "unset" for null), so comparing is strcmp and the messages show
 * what the files hold.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <json-c/json.h>

#include "cluster/cluster.h"
#include "util/strv.h"

#define UNSET "unset"

/* The RoCE facts compared on a cable, as the node member names them and
 * as the item keys do. */
static const char *const roce_facts[] = { "roce", "pfc", "dscp", "tos", "trust", "ecn" };
static const char *const roce_members[] = { "enable", "pfc", "dscp", "tos", "trust", "ecn" };
#define N_ROCE ARRAY_SIZE(roce_facts)

struct cl_iface {
	char *name;
	char *mtu;
	struct halo_cidr *addrs;
	char **addr_text;
	size_t n_addrs;
	bool has_roce;
	char *roce[N_ROCE];
};

struct halo_cluster_node {
	char *file;
	char *hostname; /* NULL: the file gave no facts (already an item) */
	int exit_bits;
	struct cl_iface *ifs;
	size_t n_ifs;
	bool has_boot;
	bool dup; /* a second file of the same hostname: left out */
	size_t order; /* as given: the first of two same names is kept */
	char *gtt, *params;
};

const char *halo_cluster_node_file(const struct halo_cluster *cl, size_t i)
{
	return cl->nodes[i].file;
}

const char *halo_cluster_node_name(const struct halo_cluster *cl, size_t i)
{
	return cl->nodes[i].hostname;
}

/* A JSON value for display and comparison: strings bare, null "unset". */
static char *value_text(struct json_object *v)
{
	if (!v)
		return strdup(UNSET);
	if (json_object_is_type(v, json_type_string))
		return strdup(json_object_get_string(v));
	if (json_object_is_type(v, json_type_array) && json_object_array_length(v) == 0)
		return strdup("none");
	return strdup(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN |
						     JSON_C_TO_STRING_NOSLASHESCAPE));
}

static struct json_object *member(struct json_object *o, const char *name)
{
	struct json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object))
		return NULL;
	return json_object_object_get_ex(o, name, &v) ? v : NULL;
}

static int add_item(struct halo_cluster *cl, enum halo_cluster_outcome outcome,
		    const char *subject, const char *keyname, const char *fact,
		    const char *a, const char *b, const char *fmt, ...) _printf_(8, 9);

static int add_item(struct halo_cluster *cl, enum halo_cluster_outcome outcome,
		    const char *subject, const char *keyname, const char *fact,
		    const char *a, const char *b, const char *fmt, ...)
{
	struct halo_cluster_item *items, *it;
	va_list ap;
	int r;

	items = realloc(cl->items, (cl->n_items + 1) * sizeof(*items));
	if (!items) {
		cl->oom = true;
		return -ENOMEM;
	}
	cl->items = items;
	it = &items[cl->n_items];
	*it = (struct halo_cluster_item){ .outcome = outcome };
	it->key = halo_strdup_printf("cluster/%s/%s", keyname, fact);
	it->subject = strdup(subject);
	it->fact = strdup(fact);
	it->value_a = a ? strdup(a) : NULL;
	it->value_b = b ? strdup(b) : NULL;
	va_start(ap, fmt);
	r = vasprintf(&it->message, fmt, ap);
	va_end(ap);
	if (r < 0)
		it->message = NULL;
	cl->n_items++;
	if (!it->key || !it->subject || !it->fact || !it->message ||
	    (a && !it->value_a) || (b && !it->value_b)) {
		cl->oom = true;
		return -ENOMEM;
	}
	return 0;
}

static void iface_free(struct cl_iface *f)
{
	free(f->name);
	free(f->mtu);
	free(f->addrs);
	halo_strv_free(f->addr_text);
	for (size_t i = 0; i < N_ROCE; i++)
		free(f->roce[i]);
}

static void node_free(struct halo_cluster_node *n)
{
	free(n->file);
	free(n->hostname);
	for (size_t i = 0; i < n->n_ifs; i++)
		iface_free(&n->ifs[i]);
	free(n->ifs);
	free(n->gtt);
	free(n->params);
}

/* One interface of the node member; a malformed one: -EINVAL. */
static int parse_iface(struct json_object *o, struct cl_iface *f)
{
	struct json_object *name = member(o, "name"), *addrs = member(o, "addresses"),
			   *roce = member(o, "roce");

	if (!name || !json_object_is_type(name, json_type_string) || !addrs ||
	    !json_object_is_type(addrs, json_type_array))
		return -EINVAL;
	f->name = strdup(json_object_get_string(name));
	f->mtu = value_text(member(o, "mtu"));
	if (!f->name || !f->mtu)
		return -ENOMEM;
	f->addrs = calloc(json_object_array_length(addrs) + 1, sizeof(*f->addrs));
	if (!f->addrs)
		return -ENOMEM;
	for (size_t i = 0; i < json_object_array_length(addrs); i++) {
		struct json_object *v = json_object_array_get_idx(addrs, i);

		if (!json_object_is_type(v, json_type_string) ||
		    halo_cidr_parse(json_object_get_string(v), true, &f->addrs[f->n_addrs]) < 0)
			return -EINVAL;
		if (halo_strv_push(&f->addr_text, json_object_get_string(v)) < 0)
			return -ENOMEM;
		f->n_addrs++;
	}
	f->has_roce = roce && json_object_is_type(roce, json_type_object);
	for (size_t i = 0; f->has_roce && i < N_ROCE; i++) {
		f->roce[i] = value_text(member(roce, roce_members[i]));
		if (!f->roce[i])
			return -ENOMEM;
	}
	return 0;
}

/* The node member of DOC into N: 0, -EINVAL (why in *WHY), -ENOMEM. */
static int parse_node(struct json_object *doc, struct halo_cluster_node *n, const char **why)
{
	struct json_object *node, *host, *ifs, *boot, *v;
	int r;

	*why = "not a halo-provision state file";
	v = member(doc, "schema_version");
	if (!member(doc, "items") || !v || json_object_get_int(v) != 1)
		return -EINVAL;
	*why = "no node facts (written by a version before --cluster, or no full apply yet): run a full apply on it";
	node = member(doc, "node");
	host = member(node, "hostname");
	ifs = member(node, "interfaces");
	if (!host || !json_object_is_type(host, json_type_string) ||
	    !json_object_get_string_len(host) || !ifs || !json_object_is_type(ifs, json_type_array))
		return -EINVAL;
	v = member(doc, "exit_bits");
	n->exit_bits = v ? json_object_get_int(v) : 0;
	*why = "malformed node facts";
	n->ifs = calloc(json_object_array_length(ifs) + 1, sizeof(*n->ifs));
	if (!n->ifs)
		return -ENOMEM;
	for (size_t i = 0; i < json_object_array_length(ifs); i++) {
		r = parse_iface(json_object_array_get_idx(ifs, i), &n->ifs[n->n_ifs++]);
		if (r < 0)
			return r;
	}
	boot = member(node, "boot");
	if (boot && json_object_is_type(boot, json_type_object)) {
		n->has_boot = true;
		n->gtt = value_text(member(boot, "gtt_mib"));
		n->params = value_text(member(boot, "params"));
		if (!n->gtt || !n->params)
			return -ENOMEM;
	}
	n->hostname = strdup(json_object_get_string(host));
	return n->hostname ? 0 : -ENOMEM;
}

int halo_cluster_add(struct halo_cluster *cl, const char *file, const char *text, int read_err)
{
	struct halo_cluster_node *nodes, *n;
	struct json_object *doc = NULL;
	const char *why = NULL;
	int r;

	nodes = realloc(cl->nodes, (cl->n_nodes + 1) * sizeof(*nodes));
	if (!nodes)
		return -ENOMEM;
	cl->nodes = nodes;
	n = &nodes[cl->n_nodes++];
	*n = (struct halo_cluster_node){ .file = strdup(file), .order = cl->n_nodes - 1 };
	if (!n->file)
		return -ENOMEM;
	if (!text)
		return add_item(cl, HALO_CL_FAILED, file, file, "state", NULL, NULL,
				"%s: %s", read_err == -ENOENT ? "missing state file" : "cannot read state file",
				strerror(-read_err));
	doc = json_tokener_parse(text);
	r = doc ? parse_node(doc, n, &why) : -EINVAL;
	json_object_put(doc);
	if (r == -EINVAL && !doc)
		why = "not JSON";
	if (r == -EINVAL) {
		/* Whatever was parsed stays out of the comparisons. */
		free(n->hostname);
		n->hostname = NULL;
		return add_item(cl, HALO_CL_FAILED, file, file, "state", NULL, NULL, "%s", why);
	}
	return r;
}

/* Whether the shorter prefix of A and B covers both addresses. */
static bool same_subnet(const struct halo_cidr *a, const struct halo_cidr *b)
{
	unsigned p = a->prefixlen < b->prefixlen ? a->prefixlen : b->prefixlen;
	size_t bytes = p / 8;

	if (a->family != b->family || halo_cidr_is_link_local(a) || halo_cidr_is_link_local(b))
		return false;
	if (memcmp(a->addr, b->addr, bytes) != 0)
		return false;
	if (p % 8) {
		uint8_t mask = (uint8_t)(0xff << (8 - p % 8));

		return (a->addr[bytes] & mask) == (b->addr[bytes] & mask);
	}
	return true;
}

/* The first address pair of X and Y in one subnet: indexes, or false. */
static bool find_pair(const struct cl_iface *x, const struct cl_iface *y, size_t *ix, size_t *iy)
{
	for (size_t i = 0; i < x->n_addrs; i++)
		for (size_t j = 0; j < y->n_addrs; j++)
			if (same_subnet(&x->addrs[i], &y->addrs[j])) {
				*ix = i;
				*iy = j;
				return true;
			}
	return false;
}

static void compare(struct halo_cluster *cl, const char *subject, const char *keyname,
		    const char *fact, const char *ea, const char *a, const char *eb, const char *b)
{
	if (strcmp(a, b) == 0)
		(void)add_item(cl, HALO_CL_OK, subject, keyname, fact, a, b, "%s %s on both ends",
			       fact, a);
	else
		(void)add_item(cl, HALO_CL_DRIFT, subject, keyname, fact, a, b,
			       "%s differs: %s on %s, %s on %s", fact, a, ea, b, eb);
}

static void check_cable(struct halo_cluster *cl, const struct halo_cluster_node *na,
			const struct cl_iface *fa, size_t ia, const struct halo_cluster_node *nb,
			const struct cl_iface *fb, size_t ib)
{
	_cleanup_free_ char *ea = halo_strdup_printf("%s:%s", na->hostname, fa->name);
	_cleanup_free_ char *eb = halo_strdup_printf("%s:%s", nb->hostname, fb->name);
	_cleanup_free_ char *subject = NULL, *keyname = NULL;
	const struct halo_cidr *ca = &fa->addrs[ia], *cb = &fb->addrs[ib];
	char pa[8], pb[8];

	if (!ea || !eb)
		goto oom;
	subject = halo_strdup_printf("%s <-> %s", ea, eb);
	keyname = halo_strdup_printf("%s~%s", ea, eb);
	if (!subject || !keyname)
		goto oom;
	cl->n_cables++;
	compare(cl, subject, keyname, "mtu", ea, fa->mtu, eb, fb->mtu);
	snprintf(pa, sizeof(pa), "/%u", ca->prefixlen);
	snprintf(pb, sizeof(pb), "/%u", cb->prefixlen);
	compare(cl, subject, keyname, "subnet", ea, pa, eb, pb);
	if (halo_cidr_same_addr(ca, cb))
		(void)add_item(cl, HALO_CL_DRIFT, subject, keyname, "address", fa->addr_text[ia],
			       fb->addr_text[ib], "address %s on both ends", fa->addr_text[ia]);
	else
		(void)add_item(cl, HALO_CL_OK, subject, keyname, "address", fa->addr_text[ia],
			       fb->addr_text[ib], "addresses %s and %s", fa->addr_text[ia],
			       fb->addr_text[ib]);
	if (!fa->has_roce && !fb->has_roce)
		return;
	for (size_t i = 0; i < N_ROCE; i++)
		compare(cl, subject, keyname, roce_facts[i], ea,
			fa->has_roce ? fa->roce[i] : UNSET, eb, fb->has_roce ? fb->roce[i] : UNSET);
	return;
oom:
	cl->oom = true;
}

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

/* "name:ifname" order inside a cable, so a key does not depend on the
 * order the files were given in. */
static int end_cmp(const struct halo_cluster_node *na, const struct cl_iface *fa,
		   const struct halo_cluster_node *nb, const struct cl_iface *fb)
{
	int c = strcmp(na->hostname, nb->hostname);

	return c ? c : strcmp(fa->name, fb->name);
}

static void check_cables(struct halo_cluster *cl)
{
	for (size_t i = 0; i < cl->n_nodes; i++)
		for (size_t j = i + 1; j < cl->n_nodes; j++) {
			const struct halo_cluster_node *x = &cl->nodes[i], *y = &cl->nodes[j];

			if (!x->hostname || !y->hostname || x->dup || y->dup)
				continue;
			for (size_t a = 0; a < x->n_ifs; a++)
				for (size_t b = 0; b < y->n_ifs; b++) {
					size_t ia, ib;

					if (!find_pair(&x->ifs[a], &y->ifs[b], &ia, &ib))
						continue;
					if (end_cmp(x, &x->ifs[a], y, &y->ifs[b]) <= 0)
						check_cable(cl, x, &x->ifs[a], ia, y, &y->ifs[b], ib);
					else
						check_cable(cl, y, &y->ifs[b], ib, x, &x->ifs[a], ia);
				}
		}
}

/* The value most nodes with boot facts have for FIELD (offset of a char *
 * in the node), ties to the first node by name; NULL: none has it. */
static const char *majority(const struct halo_cluster *cl, size_t field, const char **owner)
{
	const char *best = NULL;
	size_t best_n = 0;

	for (size_t i = 0; i < cl->n_nodes; i++) {
		const struct halo_cluster_node *x = &cl->nodes[i];
		const char *v = x->hostname && x->has_boot && !x->dup ?
					*(char **)((char *)x + field) : NULL;
		size_t n = 0;

		if (!v)
			continue;
		for (size_t j = 0; j < cl->n_nodes; j++) {
			const struct halo_cluster_node *y = &cl->nodes[j];

			if (y->hostname && y->has_boot && !y->dup && strcmp(*(char **)((char *)y + field), v) == 0)
				n++;
		}
		if (n > best_n) {
			best = v;
			best_n = n;
			*owner = x->hostname;
		}
	}
	return best;
}

static void check_node_fact(struct halo_cluster *cl, const char *fact, size_t field)
{
	const char *owner = NULL, *want = majority(cl, field, &owner);

	for (size_t i = 0; want && i < cl->n_nodes; i++) {
		const struct halo_cluster_node *x = &cl->nodes[i];
		const char *v;

		if (!x->hostname || !x->has_boot || x->dup)
			continue;
		v = *(char **)((char *)x + field);
		if (strcmp(v, want) == 0)
			(void)add_item(cl, HALO_CL_OK, x->hostname, x->hostname, fact, v, want,
				       "%s %s", fact, v);
		else
			(void)add_item(cl, HALO_CL_DRIFT, x->hostname, x->hostname, fact, v, want,
				       "%s differs: %s here, %s on %s (the most nodes' value)",
				       fact, v, want, owner);
	}
}

int halo_cluster_check(struct halo_cluster *cl)
{
	int bits = 0;

	qsort(cl->nodes, cl->n_nodes, sizeof(*cl->nodes), node_cmp);
	for (size_t i = 0; i < cl->n_nodes; i++) {
		struct halo_cluster_node *x = &cl->nodes[i];

		if (!x->hostname)
			continue;
		if (i > 0 && cl->nodes[i - 1].hostname &&
		    strcmp(cl->nodes[i - 1].hostname, x->hostname) == 0) {
			(void)add_item(cl, HALO_CL_FAILED, x->hostname, x->hostname, "hostname",
				       NULL, NULL, "%s and %s both name node %s",
				       cl->nodes[i - 1].file, x->file, x->hostname);
			x->dup = true;
			continue;
		}
		if (x->exit_bits & HALO_EXIT_FAILED)
			(void)add_item(cl, HALO_CL_DRIFT, x->hostname, x->hostname, "stale", NULL,
				       NULL, "its last apply failed (%s): its facts need not be live; run halo-provision on it",
				       x->file);
	}
	check_cables(cl);
	check_node_fact(cl, "gtt_mib", offsetof(struct halo_cluster_node, gtt));
	check_node_fact(cl, "kernel_params", offsetof(struct halo_cluster_node, params));
	for (size_t i = 0; i < cl->n_items; i++)
		bits |= cl->items[i].outcome == HALO_CL_FAILED ? HALO_EXIT_FAILED :
			cl->items[i].outcome == HALO_CL_DRIFT ? HALO_EXIT_CHANGED : 0;
	return cl->oom ? bits | HALO_EXIT_FAILED : bits;
}

void halo_cluster_free(struct halo_cluster *cl)
{
	for (size_t i = 0; i < cl->n_nodes; i++)
		node_free(&cl->nodes[i]);
	free(cl->nodes);
	for (size_t i = 0; i < cl->n_items; i++) {
		struct halo_cluster_item *it = &cl->items[i];

		free(it->key);
		free(it->subject);
		free(it->fact);
		free(it->value_a);
		free(it->value_b);
		free(it->message);
	}
	free(cl->items);
	*cl = (struct halo_cluster){ 0 };
}
