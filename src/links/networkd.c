/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * networkd.c: systemd-networkd configures every link a .network file
 * matches, on its own schedule (carrier changes, DHCP renewals), long
 * after a boot unit ran: it sets the MTU, takes addresses it was not
 * given away, adds DHCP addresses and default routes. Netplan renders its
 * YAML into /run/systemd/network, so a netplan host is a networkd host.
 * The managed links it would take get one owned file that sorts before
 * any other and matches them with Unmanaged=yes: networkd then leaves
 * them alone from its next `networkctl reload` or the next boot.
 *
 * The decision leaves our own file out (host/networkd.h loads the search
 * path without it), so it does not flip once networkd obeys it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config/pci.h"
#include "host/networkd.h"
#include "links/networkd.h"
#include "util/rootfs.h"
#include "util/strv.h"
#include "util/template.h"

void halo_networkd_view_free(struct halo_networkd_view *v)
{
	for (size_t i = 0; i < v->n; i++) {
		if (v->would)
			free(v->would[i]);
		if (v->now)
			free(v->now[i]);
	}
	free(v->would);
	free(v->now);
	free(v->listed);
	memset(v, 0, sizeof(*v));
}

/* The [Match] Name= list of our drop-in on disk, NULL when absent. */
static int dropin_names(const struct halo_ctx *ctx, char ***ret, char **ret_why)
{
	struct halo_networkd_file f = { 0 };
	_cleanup_free_ char *text = NULL;
	int r = halo_read_file(ctx, HALO_NETWORKD_DROPIN, &text, NULL);

	*ret = NULL;
	if (r == -ENOENT)
		return 0;
	if (r < 0) {
		*ret_why = halo_root_read_error(ctx, HALO_NETWORKD_DROPIN, r);
		return r;
	}
	r = halo_networkd_parse(text, &f);
	*ret = f.match.name;
	f.match.name = NULL;
	halo_networkd_file_clear(&f);
	return r;
}

/* What [Match] compares, from the host table's facts; ALT holds the
 * alternative names' vector. */
static void link_facts(const struct halo_host_link *h, char *path, size_t len,
		       char *alt[HALO_RTNL_ALTNAMES + 1], struct halo_networkd_link *ret)
{
	const struct halo_rtnl_link *l = &h->link;
	static const char *const typed[] = { "bond", "bridge", "vlan", "vxlan", "wlan", NULL };

	memset(ret, 0, sizeof(*ret));
	ret->name = l->name;
	for (size_t i = 0; i < l->n_altnames; i++)
		alt[i] = (char *)l->altnames[i];
	alt[l->n_altnames] = NULL;
	ret->altnames = alt;
	ret->mac = l->mac;
	ret->mac_len = l->mac_len;
	ret->perm_mac = l->perm_mac;
	ret->perm_mac_len = l->perm_mac_len;
	ret->driver = h->driver;
	ret->kind = l->kind[0] ? l->kind : NULL;
	/* udev's DEVTYPE where the kernel sets one, else the ARPHRD name:
	 * every link halo-provision manages is Ethernet. */
	ret->type = "ether";
	for (size_t i = 0; typed[i]; i++)
		if (strcmp(l->kind, typed[i]) == 0)
			ret->type = typed[i];
	if (h->has_pci) {
		char pci[32];

		halo_pci_format(&h->pci, pci, sizeof(pci));
		snprintf(path, len, "pci-%s", pci);
		ret->path = path;
	}
}

int halo_networkd_view(const struct halo_ctx *ctx, const struct halo_host_link *const *links,
		       size_t n, struct halo_networkd_view *ret, char **ret_why)
{
	struct halo_networkd_files files = { 0 };
	_cleanup_strv_free_ char **listed = NULL;
	struct halo_networkd_view v = { .n = n };
	int r;

	*ret_why = NULL;
	memset(ret, 0, sizeof(*ret));
	v.would = calloc(n + 1, sizeof(*v.would));
	v.now = calloc(n + 1, sizeof(*v.now));
	v.listed = calloc(n + 1, sizeof(*v.listed));
	if (!v.would || !v.now || !v.listed) {
		halo_networkd_view_free(&v);
		return -ENOMEM;
	}
	v.present = halo_networkd_present(ctx);
	r = halo_networkd_load(ctx, HALO_NETWORKD_DROPIN_NAME, &files, ret_why);
	if (r == 0)
		r = dropin_names(ctx, &listed, ret_why);
	for (size_t i = 0; i < n && r == 0; i++) {
		struct halo_networkd_link facts;
		struct halo_networkd_state st;
		const struct halo_networkd_file *f;
		char path[48], *alt[HALO_RTNL_ALTNAMES + 1];
		int s;

		link_facts(links[i], path, sizeof(path), alt, &facts);
		f = halo_networkd_first(&files, &facts);
		if (f && !f->unmanaged && !(v.would[i] = strdup(f->path)))
			r = -ENOMEM;
		s = halo_networkd_link_state(ctx, links[i]->link.ifindex, &st, ret_why);
		if (s < 0 && s != -ENOENT)
			r = s;
		else if (s == 0 && halo_networkd_state_manages(&st, HALO_NETWORKD_DROPIN) &&
			 !(v.now[i] = strdup(st.network_file)))
			r = -ENOMEM;
		v.listed[i] = halo_strv_contains(listed, links[i]->link.name);
	}
	halo_networkd_files_free(&files);
	if (r < 0) {
		halo_networkd_view_free(&v);
		return r;
	}
	*ret = v;
	return 0;
}

char *halo_networkd_cause(const struct halo_networkd_view *v, size_t i, const char *name)
{
	if (!v->present || i >= v->n)
		return NULL;
	if (v->now[i])
		return halo_strdup_printf("systemd-networkd, which manages %s (%s)", name, v->now[i]);
	if (v->would[i] && !v->listed[i])
		return halo_strdup_printf("systemd-networkd, which manages %s (%s) unless %s "
					  "excludes it", name, v->would[i], HALO_NETWORKD_DROPIN);
	return NULL;
}

int halo_networkd_plan_stale(struct halo_ctx *ctx, struct halo_plan *plan)
{
	struct stat st;

	if (halo_root_lstat(ctx, HALO_NETWORKD_DROPIN, &st) < 0)
		return 0;
	return halo_plan_add_file(plan, HALO_SUB_LINKS, HALO_PHASE_LINKS, HALO_NETWORKD_DROPIN,
				  NULL, 0644, NULL);
}

int halo_networkd_warn_order(struct halo_plan *plan, const struct halo_host_link *const *links,
			     size_t n, const struct halo_networkd_view *v)
{
	/* networkd takes the first file in lexical order of names: one that
	 * sorts before ours wins over it. */
	for (size_t i = 0; i < n && v->present; i++)
		if (v->would[i] && strcmp(strrchr(v->would[i], '/') + 1,
					  HALO_NETWORKD_DROPIN_NAME) < 0) {
			int r = halo_plan_warn(plan, "systemd-networkd: %s sorts before %s and "
					       "matches %s: networkd takes it first, and still "
					       "manages the link",
					       v->would[i], HALO_NETWORKD_DROPIN, links[i]->link.name);

			if (r < 0)
				return r;
		}
	return 0;
}

int halo_networkd_plan(struct halo_ctx *ctx, struct halo_plan *plan,
		       const struct halo_host_link *const *links, size_t n,
		       const struct halo_networkd_view *v)
{
	_cleanup_free_ char *names = NULL, *content = NULL, *which = NULL;
	struct halo_buf b = { 0 }, wb = { 0 };
	struct halo_item *item;
	size_t n_managed = 0;
	int r;

	r = halo_networkd_warn_order(plan, links, n, v);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n && v->present; i++) {
		const char *file = v->would[i] ? v->would[i] : v->now[i];

		if (!file)
			continue;
		halo_buf_printf(&b, "%s%s", n_managed ? " " : "", links[i]->link.name);
		halo_buf_printf(&wb, "%s%s (%s)", n_managed ? ", " : "", links[i]->link.name, file);
		n_managed++;
	}
	names = halo_buf_steal(&b);
	which = halo_buf_steal(&wb);
	if (!names || !which)
		return -ENOMEM;
	if (n_managed == 0)
		return halo_networkd_plan_stale(ctx, plan);
	r = halo_template_render("networkd-unmanaged.network",
				 (const char *const[]){ "NAMES", names, NULL }, &content);
	if (r < 0)
		return r;
	r = halo_plan_add_file(plan, HALO_SUB_LINKS, HALO_PHASE_LINKS, HALO_NETWORKD_DROPIN,
			       content, 0644, &item);
	if (r < 0)
		return r;
	/* networkctl talks to the running networkd over D-Bus: never under
	 * --root, and not here either (a reload is the operator's call). */
	return halo_item_set_note(item,
				  "systemd-networkd manages %s: unmanaged from its next reload "
				  "(networkctl reload) or the next boot",
				  which);
}
