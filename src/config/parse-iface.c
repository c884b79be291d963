/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse-iface.c: the interfaces list (match, MTU, addresses, routes, RoCE). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "config/check.h"
#include "config/cidr.h"
#include "config/parse-common.h"
#include "config/sections.h"

static const char *const iface_keys[] = {
	"name", "match", "mtu", "addresses", "exclusive_addresses", "routes", "roce", NULL,
};
static const char *const match_keys[] = { "mac", "driver", "pci", NULL };
static const char *const route_keys[] = { "to", "via", "metric", NULL };
static const char *const roce_keys[] = {
	"enable", "dcbx", "pfc", "trust", "dscp_prio", "ecn", "ecn_exclusive", "tos", "required",
	"exclusive", NULL,
};

static const char *check_cidr(const char *s)
{
	struct halo_cidr c;
	const char *slash = strchr(s, '/');

	if (halo_cidr_parse(s, true, &c) == 0)
		return NULL;
	if (!slash)
		return halo_cidr_parse(s, false, &c) == 0 ?
			"has no prefix length (write e.g. 192.168.100.1/30)" :
			"is not an IPv4 or IPv6 address with a prefix length";
	return "is not an IPv4 or IPv6 address with a prefix length (no leading zeros, "
	       "prefix up to 32 or 128)";
}

/* An interface address: a host's address within its prefix. Anything else
 * the kernel mostly accepts, and it fails later and far away (a network
 * address as source, 0.0.0.0/0 making every destination on-link). */
static const char *check_address(const char *s)
{
	struct halo_cidr c;
	const char *why = check_cidr(s), *role;

	if (why)
		return why;
	halo_cidr_parse(s, true, &c);
	why = halo_cidr_special(&c);
	if (why)
		return why;
	if (c.prefixlen == 0)
		return "has prefix length 0, which would put every destination on this link";
	role = halo_cidr_subnet_role(&c);
	if (!role)
		return NULL;
	if (strcmp(role, "network address") == 0)
		return "is the network address of its prefix, not a host address";
	if (strcmp(role, "broadcast address") == 0)
		return "is the broadcast address of its prefix, not a host address";
	return "is the subnet-router anycast address of its prefix (RFC 4291), not a host address";
}

static const char *check_route_to(const char *s)
{
	struct halo_cidr c, net;

	if (strcmp(s, "default") == 0)
		return NULL;
	if (check_cidr(s))
		return "is neither \"default\" nor a network with a prefix length (e.g. 10.0.2.0/24)";
	halo_cidr_parse(s, true, &c);
	halo_cidr_network(&c, &net);
	if (!halo_cidr_same_addr(&c, &net))
		return "has host bits set beyond its prefix length";
	return NULL;
}

static const char *check_gateway(const char *s)
{
	struct halo_cidr c;

	if (strchr(s, '/') || halo_cidr_parse(s, false, &c) < 0)
		return "is not an IPv4 or IPv6 address (no prefix length)";
	/* Within the interface's subnet (network, broadcast) in validate.c. */
	return halo_cidr_special(&c);
}

static const char *check_mac(const char *s) { return halo_check_mac(s); }

static void parse_match(struct halo_pctx *p, const struct halo_cset *ig, const char *path,
			struct halo_interface *it)
{
	_cleanup_free_ char *mac = NULL, *pci = NULL;
	const struct halo_cset *g;
	char k[64];

	halo_pkey(k, sizeof(k), path, "match", 0);
	if (halo_pget_group(p, ig, path, "match", match_keys, &g) <= 0)
		return;
	/* Checked as text (with the checks' messages), kept typed only. */
	halo_pget_checked(p, g, k, "mac", check_mac, false, 0, &mac, &it->mac_line);
	it->match.has_mac = mac && halo_mac_parse(mac, &it->match.mac) == 0;
	halo_pget_checked(p, g, k, "driver", halo_check_module_name, false, 0,
			  &it->match_driver, NULL);
	halo_pget_checked(p, g, k, "pci", halo_check_pci, false, 0, &pci, &it->pci_line);
	it->match.has_pci = pci && halo_pci_parse(pci, &it->match.pci) == 0;
}

/* The typed form of R's checked strings: the destination as a network
 * ("default" is the /0 of its gateway's family, IPv4 without a gateway,
 * as links.c installs it, so "default" and "0.0.0.0/0" are the same
 * route) and the gateway. False when R has no usable "to". */
static bool route_typed(struct halo_route *r)
{
	struct halo_cidr dst;

	if (r->via)
		r->has_gateway = halo_cidr_parse(r->via, false, &r->gateway) == 0;
	if (!r->to)
		return false;
	if (strcmp(r->to, "default") == 0) {
		r->dst_default = true;
		r->dst = (struct halo_cidr){ .family = r->has_gateway ? r->gateway.family : AF_INET };
		return true;
	}
	if (halo_cidr_parse(r->to, true, &dst) < 0)
		return false;
	halo_cidr_network(&dst, &r->dst);
	return true;
}

static bool same_route(const struct halo_route *a, const struct halo_route *b)
{
	return a->metric == b->metric && a->dst.family && b->dst.family &&
	       a->dst.prefixlen == b->dst.prefixlen && halo_cidr_same_addr(&a->dst, &b->dst);
}

static void parse_routes(struct halo_pctx *p, const struct halo_cset *ig, const char *path,
			 struct halo_interface *it)
{
	const struct halo_cset *seq;
	char k[64], rk[80];
	size_t n;

	it->routes = halo_pget_table(p, ig, path, "routes", sizeof(*it->routes), &seq, &n);
	if (!it->routes)
		return;
	halo_pkey(k, sizeof(k), path, "routes", 0);
	for (size_t i = 0; i < n; i++) {
		const struct halo_cset *g = halo_cset_elem(seq, i);
		struct halo_route *r = &it->routes[it->n_routes];
		int64_t metric;

		it->n_routes++;
		r->line = halo_cset_line(g);
		halo_pkey(rk, sizeof(rk), k, NULL, (long)i);
		if (!halo_pwant(p, g, rk, HALO_CSET_GROUP))
			continue;
		halo_pcheck_keys(p, g, rk, route_keys);
		halo_pget_checked(p, g, rk, "to", check_route_to, true, r->line, &r->to, NULL);
		halo_pget_checked(p, g, rk, "via", check_gateway, false, r->line, &r->via, NULL);
		if (halo_pget_int(p, g, rk, "metric", 0, UINT32_MAX, &metric, NULL) > 0)
			r->metric = (uint32_t)metric;
		if (!route_typed(r))
			continue;
		/* Only a CIDR destination: "default" takes the gateway's family. */
		if (r->has_gateway && r->gateway.family != r->dst.family)
			halo_perr(p, r->line, "%s: via %s is not of the same address family as %s",
				  rk, r->via, r->to);
		for (size_t j = 0; j + 1 < it->n_routes; j++)
			if (same_route(r, &it->routes[j])) {
				halo_perr(p, r->line, "%s: a route to %s is already given at line %d",
					  rk, r->to, it->routes[j].line);
				break;
			}
	}
}

static uint8_t to_mask(const int64_t *v, size_t n)
{
	uint8_t m = 0;

	for (size_t i = 0; i < n; i++)
		m |= (uint8_t)(1u << v[i]);
	return m;
}

static void parse_dscp_prio(struct halo_pctx *p, const struct halo_cset *g, const char *path,
			    struct halo_roce_config *rc)
{
	const struct halo_cset *seq;
	char k[80], ek[96], pk[112];
	size_t n;

	rc->dscp_prio = halo_pget_table(p, g, path, "dscp_prio", sizeof(*rc->dscp_prio), &seq, &n);
	if (!rc->dscp_prio)
		return;
	halo_pkey(k, sizeof(k), path, "dscp_prio", 0);
	for (size_t i = 0; i < n; i++) {
		const struct halo_cset *e = halo_cset_elem(seq, i);
		const struct halo_cset *pair[2];
		int64_t v[2];
		bool bad = false;
		int line = halo_cset_line(e);

		halo_pkey(ek, sizeof(ek), k, NULL, (long)i);
		if ((halo_cset_kind(e) != HALO_CSET_ARRAY && halo_cset_kind(e) != HALO_CSET_LIST) ||
		    halo_cset_len(e) != 2) {
			halo_perr(p, line, "%s: expected a pair [dscp, priority]", ek);
			continue;
		}
		for (size_t j = 0; j < 2; j++) {
			pair[j] = halo_cset_elem(e, j);
			/* An integer is what halo_pwant lets through as it is:
			 * the name it would report is made only for the rest. */
			if (halo_cset_kind(pair[j]) != HALO_CSET_INT) {
				snprintf(pk, sizeof(pk), "%s %s", ek, j ? "priority" : "DSCP");
				if (!halo_pwant(p, pair[j], pk, HALO_CSET_INT)) {
					bad = true;
					continue;
				}
			}
			v[j] = halo_cset_int(pair[j]);
			if (v[j] < 0 || v[j] > (j ? 7 : 63)) {
				halo_perr(p, line, "%s: %s %lld is out of range (0..%d)", ek,
					  j ? "priority" : "DSCP", (long long)v[j], j ? 7 : 63);
				bad = true;
			}
		}
		if (bad)
			continue;
		for (size_t j = 0; j < rc->n_dscp_prio; j++)
			if (rc->dscp_prio[j].dscp == v[0]) {
				halo_perr(p, line, "%s: DSCP %lld is already mapped at line %d", ek,
					  (long long)v[0], rc->dscp_prio[j].line);
				bad = true;
				break;
			}
		if (bad)
			continue;
		rc->dscp_prio[rc->n_dscp_prio++] = (struct halo_dscp_prio){
			.dscp = (uint8_t)v[0], .prio = (uint8_t)v[1], .line = line,
		};
	}
}

static void parse_roce(struct halo_pctx *p, const struct halo_cset *ig, const char *path,
		       struct halo_roce_config *rc)
{
	const struct halo_cset *g;
	_cleanup_free_ int64_t *pfc = NULL;
	_cleanup_free_ int64_t *ecn = NULL;
	char k[64];
	size_t n;
	int64_t v;
	int i;
	bool b;

	halo_pkey(k, sizeof(k), path, "roce", 0);
	if (halo_pget_group(p, ig, path, "roce", roce_keys, &g) <= 0)
		return;
	rc->present = true;
	rc->line = halo_cset_line(g);
	if (halo_pget_bool(p, g, k, "enable", &b) > 0)
		rc->enable = b ? HALO_TRUE : HALO_FALSE;
	if (halo_pget_keyword(p, g, k, "dcbx", halo_dcbx_keywords + 1, &i) > 0)
		rc->dcbx = (enum halo_dcbx_mode)(i + 1);
	if (halo_pget_intlist(p, g, k, "pfc", 0, 7, &pfc, &n, &rc->pfc_line) != 0 && pfc) {
		rc->pfc_set = true;
		rc->pfc_mask = to_mask(pfc, n);
	}
	if (halo_pget_keyword(p, g, k, "trust", halo_trust_keywords + 1, &i) > 0)
		rc->trust = (enum halo_trust_mode)(i + 1);
	parse_dscp_prio(p, g, k, rc);
	if (halo_pget_intlist(p, g, k, "ecn", 0, 7, &ecn, &n, NULL) != 0 && ecn) {
		rc->ecn_set = true;
		rc->ecn_mask = to_mask(ecn, n);
	}
	/* The vendor driver has ECN on for every priority: the others are
	 * left as found unless the config asks for exactly these. */
	if (halo_pget_bool(p, g, k, "ecn_exclusive", &rc->ecn_exclusive) > 0 &&
	    rc->ecn_exclusive && !rc->ecn_set)
		halo_perr(p, rc->line, "%s.ecn_exclusive: needs ecn (the priorities to keep ECN "
			  "on)", k);
	if (halo_pget_int(p, g, k, "tos", 0, 255, &v, &rc->tos_line) > 0)
		rc->tos = (int)v;
	halo_pget_bool(p, g, k, "required", &rc->required);
	/* exclusive says what to do with the DSCP entries of the APP table
	 * that the map does not hold; without a map or a trust there is no
	 * such decision, and removing every entry is trust = "pcp". */
	if (halo_pget_bool(p, g, k, "exclusive", &rc->exclusive) > 0 && rc->exclusive &&
	    !rc->n_dscp_prio && rc->trust == HALO_TRUST_UNSET)
		halo_perr(p, rc->line, "%s.exclusive: needs dscp_prio (or trust = \"pcp\" "
			  "to remove every DSCP entry)", k);
}

static const char *parse_address(const char *text, int line, void *elem)
{
	struct halo_address *a = elem;
	const char *why = check_address(text);

	if (why)
		return why;
	(void)halo_cidr_parse(text, true, &a->cidr); /* check_address parsed it */
	a->text = strdup(text);
	a->line = line;
	return a->text ? NULL : HALO_PARSE_OOM;
}

static void clear_address(void *elem) { free(((struct halo_address *)elem)->text); }

/* The same text twice is listed twice; one address spelt two ways is
 * validate.c's. */
static const struct halo_elem_parser address_parser = {
	.elem_size = sizeof(struct halo_address),
	.text_offset = offsetof(struct halo_address, text),
	.parse = parse_address,
	.clear = clear_address,
};

static void get_addresses(struct halo_pctx *p, const struct halo_cset *g, const char *path,
			  struct halo_address_list *ret)
{
	void *v = NULL;

	(void)halo_pget_parsed(p, g, path, "addresses", &address_parser, &v, &ret->n);
	ret->v = v;
}

static void parse_interface(struct halo_pctx *p, const struct halo_cset *g, const char *path,
			    struct halo_interface *it)
{
	int64_t v;

	it->line = halo_cset_line(g);
	halo_pget_checked(p, g, path, "name", halo_check_ifname, true, it->line, &it->name,
			  &it->name_line);
	parse_match(p, g, path, it);
	if (halo_pget_int(p, g, path, "mtu", 68, 65535, &v, NULL) > 0)
		it->mtu = (uint32_t)v;
	get_addresses(p, g, path, &it->addresses);
	halo_pget_bool(p, g, path, "exclusive_addresses", &it->exclusive_addresses);
	parse_routes(p, g, path, it);
	parse_roce(p, g, path, &it->roce);
}

void halo_parse_interfaces(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c)
{
	const struct halo_cset *seq;
	char path[32];
	size_t n;

	c->interfaces = halo_pget_table(p, root, "", "interfaces", sizeof(*c->interfaces), &seq, &n);
	if (!c->interfaces)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct halo_cset *g = halo_cset_elem(seq, i);

		/* A bad entry keeps its slot: indexes in messages stay right. */
		struct halo_interface *it = &c->interfaces[c->n_interfaces++];

		halo_pkey(path, sizeof(path), "interfaces", NULL, (long)i);
		it->roce.tos = -1;
		it->roce.enable = HALO_UNSET;
		if (!halo_pwant(p, g, path, HALO_CSET_GROUP))
			continue;
		halo_pcheck_keys(p, g, path, iface_keys);
		parse_interface(p, g, path, it);
	}
}
