/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * firewall-render.c: the zone and table files, from templates/. Both say
 * the same thing: the managed interfaces accept everything (trusted), or
 * only the listed ports plus what firewalld's default zone target lets
 * through (replies, ICMP), the rest rejected.
 *
 * Names are written verbatim, so only names that need no escaping in an
 * XML attribute or an nft string, and that neither reads as a wildcard,
 * are accepted (a refusal, never an escape).
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "files/firewall.h"
#include "util/strv.h"
#include "util/template.h"

bool halo_fw_ifname_safe(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > 15 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' || *p == '-'))
			return false;
	return true;
}

static bool names_ok(const struct halo_fw_rules *r)
{
	if (r->n_ifnames == 0)
		return false;
	for (size_t i = 0; i < r->n_ifnames; i++)
		if (!halo_fw_ifname_safe(r->ifnames[i]))
			return false;
	return true;
}

static bool seen_before(const uint16_t *v, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (v[j] == v[i])
			return true;
	return false;
}

/* "UDP 4791, TCP 6379 8265" or "no port": for the comment. */
static void ports_text(struct halo_buf *b, const char *proto, const uint16_t *v, size_t n)
{
	if (n == 0)
		return;
	halo_buf_printf(b, "%s%s", b->len ? ", " : "", proto);
	for (size_t i = 0; i < n; i++)
		if (!seen_before(v, i))
			halo_buf_printf(b, " %u", (unsigned)v[i]);
}

static char *policy_text(const struct halo_fw_rules *r)
{
	struct halo_buf b = { 0 };

	if (r->trusted)
		return strdup("everything they receive is accepted");
	ports_text(&b, "UDP", r->udp, r->n_udp);
	ports_text(&b, "TCP", r->tcp, r->n_tcp);
	if (b.len == 0)
		halo_buf_puts(&b, "no port");
	halo_buf_puts(&b, " accepted, the rest rejected");
	return halo_buf_steal(&b);
}

static void zone_ports(struct halo_buf *b, const char *proto, const uint16_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!seen_before(v, i))
			halo_buf_printf(b, "  <port protocol=\"%s\" port=\"%u\"/>\n", proto,
					(unsigned)v[i]);
}

int halo_fw_render_zone(const struct halo_fw_rules *r, char **ret)
{
	struct halo_buf ifs = { 0 }, ports = { 0 };
	_cleanup_free_ char *ifs_s = NULL, *ports_s = NULL, *policy = NULL;

	if (!names_ok(r))
		return -EINVAL;
	for (size_t i = 0; i < r->n_ifnames; i++)
		halo_buf_printf(&ifs, "  <interface name=\"%s\"/>\n", r->ifnames[i]);
	/* The zone's default target lets replies and ICMP in and rejects
	 * the rest, as nftables.c spells out. */
	if (!r->trusted) {
		zone_ports(&ports, "udp", r->udp, r->n_udp);
		zone_ports(&ports, "tcp", r->tcp, r->n_tcp);
	}
	halo_buf_puts(&ports, "");
	ifs_s = halo_buf_steal(&ifs);
	ports_s = halo_buf_steal(&ports);
	policy = policy_text(r);
	if (!ifs_s || !ports_s || !policy)
		return -ENOMEM;
	{
		const char *const vars[] = {
			"POLICY", policy, "TARGET", r->trusted ? " target=\"ACCEPT\"" : "",
			"INTERFACES", ifs_s, "PORTS", ports_s, NULL,
		};

		return halo_template_render("halo-rdma.xml", vars, ret);
	}
}

static void nft_set(struct halo_buf *b, const char *const *v, size_t n)
{
	halo_buf_puts(b, "{ ");
	for (size_t i = 0; i < n; i++)
		halo_buf_printf(b, "%s\"%s\"", i ? ", " : "", v[i]);
	halo_buf_puts(b, " }");
}

static void nft_ports(struct halo_buf *b, const char *ifs, const char *proto,
		      const uint16_t *v, size_t n)
{
	bool first = true;

	if (n == 0)
		return;
	halo_buf_printf(b, "\t\tiifname %s %s dport { ", ifs, proto);
	for (size_t i = 0; i < n; i++)
		if (!seen_before(v, i)) {
			halo_buf_printf(b, "%s%u", first ? "" : ", ", (unsigned)v[i]);
			first = false;
		}
	halo_buf_puts(b, " } accept\n");
}

int halo_fw_render_nft(const struct halo_fw_rules *r, char **ret)
{
	struct halo_buf set = { 0 }, rules = { 0 };
	_cleanup_free_ char *set_s = NULL, *rules_s = NULL, *policy = NULL;

	if (!names_ok(r))
		return -EINVAL;
	nft_set(&set, r->ifnames, r->n_ifnames);
	set_s = halo_buf_steal(&set);
	if (!set_s)
		return -ENOMEM;
	if (r->trusted) {
		halo_buf_printf(&rules, "\t\tiifname %s accept\n", set_s);
	} else {
		/* What firewalld's default zone target does: replies and
		 * ICMP (IPv6 neighbour discovery) in, the listed ports, and
		 * a reject for the rest of these interfaces only. ICMP is
		 * protocol 1 and 58 by number: nft resolves names through
		 * /etc/protocols, which a minimal host lacks (the table would
		 * not load there). */
		halo_buf_printf(&rules, "\t\tiifname %s ct state established,related accept\n",
				set_s);
		halo_buf_printf(&rules, "\t\tiifname %s meta l4proto { 1, 58 } accept\n",
				set_s);
		nft_ports(&rules, set_s, "udp", r->udp, r->n_udp);
		nft_ports(&rules, set_s, "tcp", r->tcp, r->n_tcp);
		halo_buf_printf(&rules, "\t\tiifname %s reject with icmpx type admin-prohibited\n",
				set_s);
	}
	rules_s = halo_buf_steal(&rules);
	policy = policy_text(r);
	if (!rules_s || !policy)
		return -ENOMEM;
	{
		const char *const vars[] = { "POLICY", policy, "RULES", rules_s, NULL };

		return halo_template_render("halo-provision.nft", vars, ret);
	}
}
