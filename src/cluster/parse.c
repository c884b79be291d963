/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse.c: a node's document (its state file, or the --json report of a
 * full run on it) → a node and its ports (internal.h). Facts are kept as
 * display strings ("9000", "[3]", "dscp"; "unset" for null), so comparing
 * is strcmp and the messages show what the documents hold.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cluster/internal.h"
#include "config/check.h"
#include "util/strv.h"

const char *const halo_cl_roce_facts[CL_N_ROCE] = { "roce", "pfc", "dscp", "tos", "trust", "ecn" };
/* The same facts as the node member names them. */
static const char *const roce_members[CL_N_ROCE] = { "enable", "pfc", "dscp", "tos", "trust", "ecn" };

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
		return strdup(CL_UNSET);
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

static void port_free(struct cl_port *p)
{
	free(p->name);
	free(p->endpoint);
	free(p->mtu);
	free(p->live_mtu);
	free(p->addrs);
	halo_strv_free(p->addr_text);
	for (size_t i = 0; i < CL_N_ROCE; i++)
		free(p->roce[i]);
}

void halo_cl_node_free(struct halo_cluster_node *n)
{
	free(n->file);
	free(n->hostname);
	for (size_t i = 0; i < n->n_ports; i++)
		port_free(&n->ports[i]);
	free(n->ports);
	free(n->gtt);
	free(n->params);
}

/* One interface of the node member; a malformed one: -EINVAL. */
static int parse_port(struct json_object *o, struct cl_port *p)
{
	struct json_object *name = member(o, "name"), *addrs = member(o, "addresses"),
			   *roce = member(o, "roce"), *live = member(o, "live_mtu");

	/* A port is HOST:NAME in reports and the cable map: a name as the
	 * config allows it (no ':') keeps that unambiguous. */
	if (!name || !json_object_is_type(name, json_type_string) ||
	    halo_check_ifname(json_object_get_string(name)) || !addrs ||
	    !json_object_is_type(addrs, json_type_array))
		return -EINVAL;
	p->name = strdup(json_object_get_string(name));
	p->mtu = value_text(member(o, "mtu"));
	/* null: the link was missing, so nothing was seen; the configured
	 * value is compared. */
	p->live_mtu = live ? value_text(live) : NULL;
	if (!p->name || !p->mtu || (live && !p->live_mtu))
		return -ENOMEM;
	p->addrs = calloc(json_object_array_length(addrs) + 1, sizeof(*p->addrs));
	if (!p->addrs)
		return -ENOMEM;
	for (size_t i = 0; i < json_object_array_length(addrs); i++) {
		struct json_object *v = json_object_array_get_idx(addrs, i);

		if (!json_object_is_type(v, json_type_string) ||
		    halo_cidr_parse(json_object_get_string(v), true, &p->addrs[p->n_addrs]) < 0)
			return -EINVAL;
		if (halo_strv_push(&p->addr_text, json_object_get_string(v)) < 0)
			return -ENOMEM;
		p->n_addrs++;
	}
	p->has_roce = roce && json_object_is_type(roce, json_type_object);
	for (size_t i = 0; p->has_roce && i < CL_N_ROCE; i++) {
		p->roce[i] = value_text(member(roce, roce_members[i]));
		if (!p->roce[i])
			return -ENOMEM;
	}
	return 0;
}

/* Which document DOC is: a state file (no "mode"), or a run's report
 * (apply, check, dry-run). 0, or -EINVAL with *WHY. */
static int document_kind(struct json_object *doc, struct halo_cluster_node *n, const char **why)
{
	struct json_object *v = member(doc, "schema_version"), *mode = member(doc, "mode");
	const char *m;

	*why = "not a halo-provision state file or --json report";
	if (!member(doc, "items") || !v || json_object_get_int(v) != 1)
		return -EINVAL;
	if (!mode) {
		v = member(doc, "exit_bits");
		n->exit_bits = v ? json_object_get_int(v) : 0;
		return 0;
	}
	m = json_object_get_string(mode);
	if (strcmp(m, "cluster") == 0) {
		*why = "a --cluster report, not a node's";
		return -EINVAL;
	}
	if (member(doc, "errors")) {
		*why = "a run that stopped before its audit (exit 1): it has no facts";
		return -EINVAL;
	}
	if (strcmp(m, "apply") != 0 && strcmp(m, "check") != 0 && strcmp(m, "dry-run") != 0)
		return -EINVAL;
	n->audit = true;
	v = member(doc, "exit_code");
	n->exit_bits = v ? json_object_get_int(v) : 0;
	return 0;
}

/* The node member of DOC into N: 0, -EINVAL (why in *WHY), -ENOMEM. */
static int parse_node(struct json_object *doc, struct halo_cluster_node *n, const char **why)
{
	struct json_object *node, *host, *ifs, *boot;
	int r = document_kind(doc, n, why);

	if (r < 0)
		return r;
	*why = n->audit ? "no node facts (a run with --only or --interface, or a version before --cluster): audit it with a full --check --json" :
			  "no node facts (written by a version before --cluster, or no full apply yet): run a full apply on it";
	node = member(doc, "node");
	host = member(node, "hostname");
	ifs = member(node, "interfaces");
	if (!host || !json_object_is_type(host, json_type_string) ||
	    !json_object_get_string_len(host) || !ifs || !json_object_is_type(ifs, json_type_array))
		return -EINVAL;
	*why = "malformed node facts";
	n->ports = calloc(json_object_array_length(ifs) + 1, sizeof(*n->ports));
	if (!n->ports)
		return -ENOMEM;
	for (size_t i = 0; i < json_object_array_length(ifs); i++) {
		r = parse_port(json_object_array_get_idx(ifs, i), &n->ports[n->n_ports++]);
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

int halo_cluster_add(struct halo_cluster *cl, const char *file, const char *text,
		     const char *unread)
{
	struct halo_cluster_node *nodes, *n;
	struct json_object *doc = NULL;
	const char *why = NULL;
	int r;

	if (cl->n_nodes == cl->cap_nodes) {
		size_t cap = cl->cap_nodes ? 2 * cl->cap_nodes : 16;

		nodes = reallocarray(cl->nodes, cap, sizeof(*nodes));
		if (!nodes)
			return -ENOMEM;
		cl->nodes = nodes;
		cl->cap_nodes = cap;
	}
	n = &cl->nodes[cl->n_nodes++];
	*n = (struct halo_cluster_node){ .file = strdup(file), .order = cl->n_nodes - 1 };
	if (!n->file)
		return -ENOMEM;
	if (!text)
		return halo_cl_add_item(cl, HALO_CL_FAILED, file, file, "state", NULL, NULL, "%s",
					unread ? unread : "not read");
	doc = json_tokener_parse(text);
	r = doc ? parse_node(doc, n, &why) : -EINVAL;
	json_object_put(doc);
	if (r == -EINVAL && !doc)
		why = "not JSON";
	if (r == -EINVAL) {
		/* Whatever was parsed stays out of the comparisons. */
		free(n->hostname);
		n->hostname = NULL;
		return halo_cl_add_item(cl, HALO_CL_FAILED, file, file, "state", NULL, NULL, "%s", why);
	}
	return r;
}

void halo_cluster_free(struct halo_cluster *cl)
{
	for (size_t i = 0; i < cl->n_nodes; i++)
		halo_cl_node_free(&cl->nodes[i]);
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
	for (size_t i = 0; i < cl->n_links; i++) {
		free(cl->links[i].subnet);
		free(cl->links[i].mtu);
		free(cl->links[i].differs);
	}
	free(cl->links);
	for (size_t i = 0; i < cl->n_segments; i++) {
		free(cl->segments[i].subnet);
		free(cl->segments[i].mtu);
		free(cl->segments[i].prefix);
	}
	free(cl->segments);
	*cl = (struct halo_cluster){ 0 };
}
