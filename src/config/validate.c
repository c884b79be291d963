/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * validate.c: checks across fields and entries, on the typed config (no
 * libconfig here). Each would otherwise surface late, on the host: two
 * entries fighting over one NIC, an address on two links, RoCE traffic
 * whose priority has no PFC (lossy RoCE: the worst kind of slow).
 */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "config/cidr.h"
#include "config/sections.h"

static int lowest_bit(uint8_t m)
{
	for (int i = 0; i < 8; i++)
		if (m & (1u << i))
			return i;
	return -1;
}

static void mask_text(uint8_t m, char *buf, size_t len)
{
	size_t o = (size_t)snprintf(buf, len, "[");
	bool first = true;

	for (int i = 0; i < 8; i++)
		if (m & (1u << i)) {
			o += (size_t)snprintf(buf + o, len - o, "%s%d", first ? " " : ", ", i);
			first = false;
		}
	snprintf(buf + o, len - o, " ]");
}

/* net/ipv4/route.c ip_tos2prio: the priority the kernel gives a ToS when
 * nothing maps its DSCP (L2, PCP trust), indexed by IPTOS_TOS(tos) >> 1.
 * ToS 106 lands on 2 (TC_PRIO_BULK), not on the usual PFC priority 3. */
static const uint8_t tos2prio[16] = { 0, 0, 0, 0, 2, 2, 2, 2, 6, 6, 6, 6, 4, 4, 4, 4 };

/* "; in L2 mode the kernel maps ToS 106 to priority 2, not 3" (tos2prio):
 * why a priority picked by hand does not match without DSCP trust. */
static void l2_note(char *buf, size_t len, const struct halo_roce_config *rc)
{
	int l2 = tos2prio[(rc->tos & 0x1e) >> 1], want = lowest_bit(rc->pfc_mask);

	if (want >= 0 && !(rc->pfc_mask & (1u << l2)))
		snprintf(buf, len, "; in L2 mode the kernel maps ToS %d to priority %d, not %d",
			 rc->tos, l2, want);
	else
		snprintf(buf, len, "; in L2 mode the kernel maps ToS %d to priority %d",
			 rc->tos, l2);
}

/* The priority the RoCE ToS lands on must have PFC, or RoCE runs lossy. */
static void check_tos_pfc(struct halo_pctx *p, size_t idx, const struct halo_roce_config *rc)
{
	int dscp = rc->tos >> 2, want = lowest_bit(rc->pfc_mask);
	char pfc[40], note[96] = "";

	if (!rc->present || rc->tos < 0 || !rc->pfc_set)
		return;
	/* Without DSCP entries the port stays in L2 (PCP) mode. */
	if (rc->trust == HALO_TRUST_PCP || (rc->trust == HALO_TRUST_UNSET && !rc->n_dscp_prio))
		l2_note(note, sizeof(note), rc);
	if (rc->trust == HALO_TRUST_PCP) {
		halo_perr(p, rc->tos_line, "interfaces[%zu].roce.tos: %d (DSCP %d) selects no "
			  "PFC priority with trust = \"pcp\"; set trust = \"dscp\" and map "
			  "DSCP %d in dscp_prio%s", idx, rc->tos, dscp, dscp, note);
		return;
	}
	for (size_t i = 0; i < rc->n_dscp_prio; i++) {
		const struct halo_dscp_prio *d = &rc->dscp_prio[i];

		if (d->dscp != dscp)
			continue;
		if (!(rc->pfc_mask & (1u << d->prio))) {
			mask_text(rc->pfc_mask, pfc, sizeof(pfc));
			halo_perr(p, rc->tos_line, "interfaces[%zu].roce.tos: %d (DSCP %d) maps "
				  "to priority %u (dscp_prio, line %d), which has no PFC "
				  "(pfc = %s)", idx, rc->tos, dscp, d->prio, d->line, pfc);
		}
		return;
	}
	if (want >= 0)
		halo_perr(p, rc->tos_line, "interfaces[%zu].roce.tos: %d (DSCP %d) selects no "
			  "PFC priority: dscp_prio has no entry for DSCP %d (e.g. [ %d, %d ])%s",
			  idx, rc->tos, dscp, dscp, dscp, want, note);
	else
		halo_perr(p, rc->tos_line, "interfaces[%zu].roce.tos: %d (DSCP %d) selects no "
			  "PFC priority: dscp_prio has no entry for DSCP %d and pfc is empty%s",
			  idx, rc->tos, dscp, dscp, note);
}

static void check_roce(struct halo_pctx *p, size_t idx, const struct halo_interface *f)
{
	const struct halo_roce_config *rc = &f->roce;

	check_tos_pfc(p, idx, rc);
	/* Word for word what the roce planner says at run time (it checks
	 * again for configs not loaded from a file). */
	if (rc->present && rc->trust == HALO_TRUST_DSCP && rc->n_dscp_prio == 0)
		halo_perr(p, rc->line, "interface \"%s\": roce.trust: \"dscp\" needs dscp_prio "
			  "entries (ice and mlx5 trust DSCP while the APP table has a DSCP entry)",
			  f->name ? f->name : "");
	/* The APP table's DSCP entries are what "trust dscp" means (ice
	 * switches the port to DSCP mode on the first one). */
	if (rc->n_dscp_prio && rc->trust == HALO_TRUST_PCP)
		halo_perr(p, rc->dscp_prio[0].line, "interfaces[%zu].roce.dscp_prio: DSCP "
			  "mappings contradict trust = \"pcp\"", idx);
}

/* One address on two entries: the kernel would move it between links on
 * every run. IPv6 link-local addresses are scoped to their link, so the
 * same fe80:: on several is normal (routers use fe80::1 on each). */
static void check_addresses(struct halo_pctx *p, const struct halo_config *c)
{
	for (size_t i = 0; i < c->n_interfaces; i++) {
		const struct halo_address_list *a = &c->interfaces[i].addresses;

		for (size_t k = 0; k < a->n; k++) {
			bool found = false;

			if (halo_cidr_is_link_local(&a->v[k].cidr))
				continue;
			for (size_t j = 0; j <= i && !found; j++) {
				const struct halo_address_list *b = &c->interfaces[j].addresses;

				for (size_t l = 0; l < (j == i ? k : b->n); l++) {
					if (!halo_cidr_same_addr(&a->v[k].cidr, &b->v[l].cidr))
						continue;
					/* Messages show the address as written. */
					halo_perr(p, a->v[k].line, "interfaces[%zu].addresses: "
						  "address %s is already on interfaces[%zu] (line %d)",
						  i, a->v[k].text, j, b->v[l].line);
					found = true;
					break;
				}
			}
		}
	}
}

/* A gateway must be a host on one of the entry's subnets: outside every one
 * the kernel refuses it ("Nexthop has invalid gateway"), the subnet's
 * broadcast too, and the network address or the interface's own address is
 * never a router. Only checked when the entry lists addresses of that family
 * (otherwise they come from elsewhere); IPv6 link-local gateways are on-link
 * on every interface. */
static void check_gateway(struct halo_pctx *p, size_t idx, size_t r,
			  const struct halo_interface *it)
{
	const struct halo_route *rt = &it->routes[r];
	const struct halo_address_list *addrs = &it->addresses;
	struct halo_cidr via, na, nv;
	bool same_family = false;
	const char *gw = rt->via; /* as written, for messages */
	char net[64];

	if (!rt->has_gateway)
		return;
	via = rt->gateway;
	for (size_t k = 0; k < addrs->n; k++)
		if (halo_cidr_same_addr(&addrs->v[k].cidr, &via)) {
			halo_perr(p, rt->line, "interfaces[%zu].routes[%zu]: via %s is the "
				  "interface's own address (line %d), not a router", idx, r,
				  gw, addrs->v[k].line);
			return;
		}
	for (size_t k = 0; k < addrs->n; k++) {
		const struct halo_cidr *a = &addrs->v[k].cidr;
		const char *role;

		if (a->family != via.family)
			continue;
		same_family = true;
		via.prefixlen = a->prefixlen;
		halo_cidr_network(a, &na);
		halo_cidr_network(&via, &nv);
		if (!halo_cidr_same_addr(&na, &nv))
			continue;
		role = halo_cidr_subnet_role(&via);
		if (role) {
			halo_cidr_format(&na, net, sizeof(net));
			halo_perr(p, rt->line, "interfaces[%zu].routes[%zu]: via %s is the %s of "
				  "%s (line %d), not a host address", idx, r, gw, role, net,
				  addrs->v[k].line);
		}
		return;
	}
	if (same_family && !halo_cidr_is_link_local(&via))
		halo_perr(p, rt->line, "interfaces[%zu].routes[%zu]: via %s is not within any "
			  "of the interface's addresses", idx, r, gw);
}

static void check_same(struct halo_pctx *p, size_t i, size_t j, const char *what,
		       const char *a, const char *b, int line, int other_line)
{
	if (a && b && strcmp(a, b) == 0)
		halo_perr(p, line, "interfaces[%zu]: %s %s is already used by interfaces[%zu] "
			  "(line %d)", i, what, a, j, other_line);
}

/* Two entries matching one NIC by the same key fight over it. */
static void check_match(struct halo_pctx *p, size_t i, size_t j, const struct halo_interface *a,
			const struct halo_interface *b)
{
	char ta[HALO_MAC_STRLEN], tb[HALO_MAC_STRLEN], pa[32], pb[32];

	/* Compared as values; the text only for the message. */
	if (a->match.has_mac && b->match.has_mac && halo_mac_equal(&a->match.mac, &b->match.mac)) {
		halo_mac_format(&a->match.mac, ta, sizeof(ta));
		halo_mac_format(&b->match.mac, tb, sizeof(tb));
		check_same(p, i, j, "match.mac", ta, tb, a->mac_line, b->mac_line);
	}
	if (a->match.has_pci && b->match.has_pci && halo_pci_equal(&a->match.pci, &b->match.pci)) {
		halo_pci_format(&a->match.pci, pa, sizeof(pa));
		halo_pci_format(&b->match.pci, pb, sizeof(pb));
		check_same(p, i, j, "match.pci", pa, pb, a->pci_line, b->pci_line);
	}
}

static void check_interfaces(struct halo_pctx *p, const struct halo_config *c)
{
	for (size_t i = 0; i < c->n_interfaces; i++) {
		const struct halo_interface *a = &c->interfaces[i];

		for (size_t j = 0; j < i; j++) {
			const struct halo_interface *b = &c->interfaces[j];

			check_same(p, i, j, "name", a->name, b->name, a->name_line, b->name_line);
			check_match(p, i, j, a, b);
		}
		check_roce(p, i, a);
		for (size_t r = 0; r < a->n_routes; r++)
			check_gateway(p, i, r, a);
	}
	check_addresses(p, c);
}

static void check_storage(struct halo_pctx *p, const struct halo_config *c)
{
	for (size_t i = 0; i < c->n_storage; i++)
		for (size_t j = 0; j < i; j++)
			if (c->storage[i].where && c->storage[j].where &&
			    strcmp(c->storage[i].where, c->storage[j].where) == 0)
				halo_perr(p, c->storage[i].where_line, "storage[%zu].where: %s "
					  "is already mounted by storage[%zu] (line %d)", i,
					  c->storage[i].where, j, c->storage[j].where_line);
}

void halo_config_validate(struct halo_pctx *p, const struct halo_config *c)
{
	check_interfaces(p, c);
	check_storage(p, c);
	halo_validate_outputs(p, c);
}
