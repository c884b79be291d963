/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * links.c: the `interfaces` list becomes link/<name>/... items.
 *
 * Everything is decided here, before anything changes: the configured
 * links (fetched by name, or found in one link dump when an entry matches
 * by MAC, driver or PCI) are matched against the config, MTUs checked
 * against each device's own range, addresses against the other links of
 * the host (one lookup per address). Items then observe the managed links
 * alone: nothing here grows with the number of links the host has.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "config/cidr.h"
#include "host/host.h"
#include "host/match.h"
#include "links/items.h"
#include "links/links.h"
#include "links/networkd.h"
#include "links/nm.h"
#include "netlink/rtnl.h"
#include "util/rootfs.h"
#include "util/strv.h"

/* MTU within the device's own IFLA_MIN_MTU..IFLA_MAX_MTU (max 0: none). */
static void check_mtu(const struct halo_config *cfg, const struct halo_interface *f,
		      const struct halo_rtnl_link *l, struct halo_errors *errs,
		      bool *bad)
{
	char range[48];
	bool low, high;

	if (!f->mtu)
		return;
	low = l->has_min_mtu && f->mtu < l->min_mtu;
	high = l->has_max_mtu && l->max_mtu && f->mtu > l->max_mtu;
	if (!low && !high)
		return;
	if (l->has_max_mtu && l->max_mtu)
		snprintf(range, sizeof(range), "%u..%u", l->min_mtu, l->max_mtu);
	else
		snprintf(range, sizeof(range), "%u..", l->min_mtu);
	halo_errors_add(errs, "%s:%d: interface \"%s\": mtu %u is outside the range of %s (%s)",
			halo_config_name(cfg), f->line, f->name, f->mtu, l->name, range);
	*bad = true;
}

/* Each configured address is not on another link of the host (asked of
 * the kernel address by address: the holder of its local route, so the
 * cost does not grow with the host). The config load has checked the
 * form and that no address is configured twice. 0, or -errno when the
 * kernel could not be asked. */
static int check_addresses(struct halo_ctx *ctx, const struct halo_config *cfg,
			   const struct halo_interface *f, const struct halo_rtnl_link *l,
			   struct halo_errors *errs, bool *bad)
{
	for (size_t a = 0; a < f->addresses.n; a++) {
		const struct halo_cidr *c = &f->addresses.v[a].cidr;
		int line = f->addresses.v[a].line ? f->addresses.v[a].line : f->line;
		char other[IF_NAMESIZE];
		int holder, err;

		if (halo_cidr_is_link_local(c))
			continue; /* the same fe80:: on many links is normal */
		err = halo_rtnl_addr_holder(ctx, c, &holder);
		if (err < 0)
			return err;
		if (holder > 0 && holder != l->ifindex) {
			if (halo_rtnl_link_name(ctx, holder, other) < 0)
				snprintf(other, sizeof(other), "?");
			halo_errors_add(errs, "%s:%d: interface \"%s\": address %s is already on link %s",
					halo_config_name(cfg), line, f->name, f->addresses.v[a].text, other);
			*bad = true;
		}
	}
	return 0;
}

static int add_item(struct halo_plan *plan, struct halo_errors *errs,
		    const struct halo_config *cfg, const struct halo_interface *f,
		    const char *key, struct halo_link_want *w)
{
	struct halo_item *item;
	int err = halo_link_item_add(plan, key, w, &item);

	if (err == 0)
		item->iface = f;
	if (err == -EEXIST)
		halo_errors_add(errs, "%s:%d: interface \"%s\": %s is configured twice",
				halo_config_name(cfg), f->line, f->name, key);
	else if (err < 0)
		halo_errors_add(errs, "%s: %s", key, strerror(-err));
	return err;
}

static int plan_interface(struct halo_plan *plan, const struct halo_config *cfg,
			  const struct halo_interface *f,
			  const struct halo_rtnl_link *l, const char *cause,
			  struct halo_errors *errs)
{
	struct halo_link_want base = { .ifindex = l->ifindex };
	struct halo_link_want w;
	char key[512], buf[64];
	int err;

	halo_strjoin(base.link, sizeof(base.link), l->name, NULL);
	halo_strjoin(base.cause, sizeof(base.cause), cause ? cause : "", NULL);
	halo_strjoin(base.label, sizeof(base.label), f->name, NULL);
	halo_link_match_describe(f, base.how, sizeof(base.how));

#define ADD(kind_, ...)                                                        \
	do {                                                                   \
		w.kind = (kind_);                                              \
		halo_strjoin(key, sizeof(key), __VA_ARGS__, NULL);             \
		err = add_item(plan, errs, cfg, f, key, &w);                   \
		if (err < 0)                                                   \
			return err;                                            \
	} while (0)

	w = base;
	ADD(HALO_LINK_PRESENT, "link/", f->name, "/present");
	if (f->mtu) {
		w = base;
		w.mtu = f->mtu;
		ADD(HALO_LINK_MTU, "link/", f->name, "/mtu");
	}
	w = base;
	ADD(HALO_LINK_UP, "link/", f->name, "/up");
	/* Unlisted addresses go first: removing an IPv4 primary address
	 * would take a just-added secondary of the same subnet with it. */
	if (f->exclusive_addresses) {
		w = base;
		w.keep = calloc(f->addresses.n ? f->addresses.n : 1, sizeof(*w.keep));
		if (!w.keep)
			return -ENOMEM;
		for (size_t a = 0; a < f->addresses.n; a++)
			w.keep[a] = f->addresses.v[a].cidr;
		w.n_keep = f->addresses.n;
		ADD(HALO_LINK_ADDR_EXTRA, "link/", f->name, "/addr-extra");
	}
	for (size_t a = 0; a < f->addresses.n; a++) {
		w = base;
		w.addr = f->addresses.v[a].cidr;
		halo_cidr_format(&w.addr, buf, sizeof(buf));
		ADD(HALO_LINK_ADDR, "link/", f->name, "/addr/", buf);
	}
	for (size_t r = 0; r < f->n_routes; r++) {
		const struct halo_route *route = &f->routes[r];

		w = base;
		w.dst = route->dst;
		w.has_gateway = route->has_gateway;
		w.gateway = route->gateway;
		w.metric = route->metric;
		halo_route_dst_format(&w.dst, buf, sizeof(buf));
		ADD(HALO_LINK_ROUTE, "link/", f->name, "/route/", buf);
	}
#undef ADD
	return 0;
}

static int netlink_error(struct halo_errors *errs, const char *what, int err)
{
	halo_errors_add(errs, "links: %s: %s", what, strerror(-err));
	return err;
}

/* link/<name>/present for an entry no link matches yet: drift pending on
 * the modules phase, or, once that phase has applied, a failed item; so
 * is one a check finds with no module to load (host.h). */
static int plan_awaited(struct halo_plan *plan, const struct halo_host *host,
			const struct halo_config *cfg, const struct halo_interface *f,
			struct halo_errors *errs)
{
	struct halo_link_want w = { .kind = HALO_LINK_AWAITED };
	char key[512];

	halo_strjoin(w.label, sizeof(w.label), f->name, NULL);
	halo_link_match_describe(f, w.how, sizeof(w.how));
	w.after_modules = host->stage == HALO_HOST_AFTER_MODULES;
	w.gone = host->stage == HALO_HOST_FINAL;
	halo_strjoin(key, sizeof(key), "link/", f->name, "/present", NULL);
	return add_item(plan, errs, cfg, f, key, &w);
}

/* Who else configures link I of MATCHED, for a drift message: the
 * daemons that manage it now, or would without the drop-ins. */
static char *cause_of(const struct halo_ctx *ctx, const struct halo_networkd_view *nd,
		      const struct halo_host_link *const *matched, size_t i)
{
	const struct halo_rtnl_link *l = &matched[i]->link;
	_cleanup_free_ char *networkd = halo_networkd_cause(nd, i, l->name);

	if (halo_nm_device_state(ctx, l->ifindex) == 1) {
		char path[64];

		snprintf(path, sizeof(path), HALO_NM_DEVICE_FMT, l->ifindex);
		return halo_strdup_printf("NetworkManager, which manages %s (%s)%s%s", l->name, path,
					  networkd ? ", or by " : "", networkd ? networkd : "");
	}
	return networkd ? halo_strdup_printf("%s", networkd) : NULL;
}

/* The managed links (found and selected) into *RET, their count. */
static size_t managed_links(const struct halo_host *host, const struct halo_host_link **ret)
{
	size_t n = 0;

	for (size_t i = 0; i < host->n; i++)
		if (host->links[i].selected && host->links[i].found)
			ret[n++] = &host->links[i];
	return n;
}

/* Whether the drop-in at PATH is held back in this run: an entry has no
 * link (MISSING) and the drop-in is there. It lists every managed link,
 * so written for the links left it would drop that one (and read as
 * drift in a check); it stays as it is, recorded, and a warning says so.
 * With none there yet it is planned for the links present, so that they
 * are handed over. A revert removes it all the same. 1 held, 0 not, or
 * -ENOMEM. */
static int hold_dropin(const struct halo_ctx *ctx, struct halo_plan *plan,
		       const struct halo_host_link *missing, const char *path)
{
	struct stat st;
	int r;

	if (!missing || ctx->revert || halo_root_lstat(ctx, path, &st) < 0)
		return 0;
	r = halo_plan_warn_held(plan, path, "links: interface \"%s\" has no link%s: %s is not "
				"written or checked", missing->entry->name, halo_host_yet(ctx), path);
	return r < 0 ? r : 1;
}

/* The drop-ins that hand the links over: NetworkManager's, networkd's;
 * MISSING: an entry without its link (hold_dropin). */
static int plan_dropins(struct halo_ctx *ctx, struct halo_plan *plan,
			const struct halo_host_link *const *matched, size_t n,
			const struct halo_networkd_view *nd, const struct halo_host_link *missing,
			struct halo_errors *errs)
{
	_cleanup_free_ const struct halo_rtnl_link **links = calloc(n + 1, sizeof(*links));
	_cleanup_free_ char *failed = NULL;
	int err;

	if (!links)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		links[i] = &matched[i]->link;
	err = hold_dropin(ctx, plan, missing, HALO_NM_DROPIN);
	if (err == 0)
		err = halo_nm_plan(ctx, plan, links, n, &failed);
	if (err < 0) {
		_cleanup_free_ char *shown = failed ? halo_root_display_path(ctx, failed) : NULL;

		halo_errors_add(errs, "links: NetworkManager state%s%s: %s", shown ? " " : "",
				shown ? shown : "", strerror(-err));
		return err;
	}
	err = halo_nm_profiles_warn(ctx, plan, links, n, &failed);
	if (err < 0) {
		if (failed)
			halo_errors_add(errs, "links: NetworkManager profile: %s", failed);
		return err;
	}
	err = hold_dropin(ctx, plan, missing, HALO_NETWORKD_DROPIN);
	if (err < 0)
		return err;
	return err ? halo_networkd_warn_order(plan, matched, n, nd) :
		     halo_networkd_plan(ctx, plan, matched, n, nd);
}

int halo_links_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		    struct halo_plan *plan, struct halo_errors *errs)
{
	const struct halo_host *host = ctx->host;
	const struct halo_host_link *missing = NULL;
	_cleanup_free_ const struct halo_host_link **matched = NULL;
	_cleanup_free_ char *why = NULL;
	struct halo_networkd_view nd = { 0 };
	size_t n_matched, k = 0;
	bool bad = false;
	int err;

	if (!(ctx->only & HALO_SUB_LINKS) || !host)
		return 0;
	if (host->interface_unmanaged)
		return halo_plan_warn(plan, "--interface %s: no interface entry manages it: nothing to do",
				      ctx->interface);
	/* No interface left in the config: nothing to hand over any more. */
	if (host->n == 0 && !ctx->interface) {
		err = halo_nm_plan_stale(ctx, plan);
		return err < 0 ? err : halo_networkd_plan_stale(ctx, plan);
	}
	if (host->n == 0)
		return 0;
	matched = calloc(host->n + 1, sizeof(*matched));
	if (!matched)
		return -ENOMEM;
	for (size_t i = 0; i < host->n; i++) {
		const struct halo_host_link *h = &host->links[i];

		if (!h->selected || !h->found)
			continue;
		check_mtu(cfg, h->entry, &h->link, errs, &bad);
		err = check_addresses(ctx, cfg, h->entry, &h->link, errs, &bad);
		if (err < 0)
			return netlink_error(errs, "looking up addresses", err);
	}
	if (bad)
		return -EINVAL;
	n_matched = managed_links(host, matched);
	err = halo_networkd_view(ctx, matched, n_matched, &nd, &why);
	if (err < 0) {
		if (why)
			halo_errors_add(errs, "links: systemd-networkd: %s", why);
		return err;
	}
	for (size_t i = 0; i < host->n && err >= 0; i++) {
		const struct halo_host_link *h = &host->links[i];
		_cleanup_free_ char *cause = NULL;

		if (!h->selected)
			continue;
		if (!h->found) {
			missing = missing ? missing : h;
			err = plan_awaited(plan, host, cfg, h->entry, errs);
			continue;
		}
		cause = cause_of(ctx, &nd, matched, k++);
		err = plan_interface(plan, cfg, h->entry, &h->link, cause, errs);
	}
	/* The drop-ins list every managed link: from one interface's view
	 * they would lose the others (absent during a hotplug), so only full
	 * runs (the boot units) maintain them. */
	if (err >= 0 && !ctx->interface)
		err = plan_dropins(ctx, plan, matched, n_matched, &nd, missing, errs);
	halo_networkd_view_free(&nd);
	return err < 0 ? err : 0;
}
