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

#include "config/cidr.h"
#include "net/items.h"
#include "net/links.h"
#include "net/match.h"
#include "net/nl.h"
#include "net/nm.h"
#include "util/strv.h"

/* Driver and PCI address per link, read from sysfs once, on demand. */
struct facts_cache {
	const struct halo_ctx *ctx;
	const struct halo_nl_link *links;
	char **driver, **pci;
	bool *done;
	size_t n;
};

static int facts_get(void *userdata, const struct halo_nl_link *link,
		     const char **ret_driver, const char **ret_pci)
{
	struct facts_cache *fc = userdata;
	size_t i = (size_t)(link - fc->links);
	int err;

	if (i >= fc->n)
		return -EINVAL;
	if (!fc->done[i]) {
		err = halo_link_sysfs_facts(fc->ctx, link->name, &fc->driver[i],
					    &fc->pci[i]);
		if (err < 0)
			return err;
		fc->done[i] = true;
	}
	*ret_driver = fc->driver[i];
	*ret_pci = fc->pci[i];
	return 0;
}

static void facts_free(struct facts_cache *fc)
{
	for (size_t i = 0; fc->done && i < fc->n; i++) {
		free(fc->driver[i]);
		free(fc->pci[i]);
	}
	free(fc->driver);
	free(fc->pci);
	free(fc->done);
}

static const char *cfg_name(const struct halo_config *cfg)
{
	return cfg->path ? cfg->path : "config";
}

/* Every entry is matched by name: its link is fetched by name, with no
 * dump of the host's links. */
static bool all_by_name(const struct halo_config *cfg)
{
	for (size_t i = 0; i < cfg->n_interfaces; i++) {
		const struct halo_interface *f = &cfg->interfaces[i];

		if (f->match_mac || f->match_driver || f->match_pci)
			return false;
	}
	return true;
}

static int scope_names(struct halo_ctx *ctx, const struct halo_config *cfg)
{
	_cleanup_free_ const char **names = calloc(cfg->n_interfaces + 1,
						   sizeof(*names));

	if (!names)
		return -ENOMEM;
	for (size_t i = 0; i < cfg->n_interfaces; i++)
		names[i] = cfg->interfaces[i].name;
	return halo_nl_scope_names(ctx, names, cfg->n_interfaces);
}

/* MTU within the device's own IFLA_MIN_MTU..IFLA_MAX_MTU (max 0: none). */
static void check_mtu(const struct halo_config *cfg, const struct halo_interface *f,
		      const struct halo_nl_link *l, struct halo_errors *errs,
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
			cfg_name(cfg), f->line, f->name, f->mtu, l->name, range);
	*bad = true;
}

/* Each configured address: well-formed, not on another link of the host
 * (asked of the kernel address by address: the holder of its local
 * route, so the cost does not grow with the host), not configured twice.
 * 0, or -errno when the kernel could not be asked. */
static int check_addresses(struct halo_ctx *ctx, const struct halo_config *cfg,
			   size_t idx, const struct halo_nl_link *l,
			   struct halo_errors *errs, bool *bad)
{
	const struct halo_interface *f = &cfg->interfaces[idx];

	for (size_t a = 0; a < f->addresses.n; a++) {
		const char *text = f->addresses.v[a];
		int line = f->addresses.line ? f->addresses.line[a] : f->line;
		char other[IF_NAMESIZE];
		struct halo_cidr c;
		int holder, err;

		if (halo_cidr_parse(text, true, &c) < 0) {
			halo_errors_add(errs, "%s:%d: interface \"%s\": malformed address \"%s\" (want ADDRESS/PREFIX)",
					cfg_name(cfg), line, f->name, text);
			*bad = true;
			continue;
		}
		if (halo_addr_is_link_local(&c))
			continue; /* the same fe80:: on many links is normal */
		err = halo_nl_addr_holder(ctx, &c, &holder);
		if (err < 0)
			return err;
		if (holder > 0 && holder != l->ifindex) {
			if (halo_nl_link_name(ctx, holder, other) < 0)
				snprintf(other, sizeof(other), "?");
			halo_errors_add(errs, "%s:%d: interface \"%s\": address %s is already on link %s",
					cfg_name(cfg), line, f->name, text, other);
			*bad = true;
		}
		for (size_t j = 0; j < idx; j++) {
			const struct halo_interface *g = &cfg->interfaces[j];

			for (size_t b = 0; b < g->addresses.n; b++) {
				struct halo_cidr d;

				if (halo_cidr_parse(g->addresses.v[b], true, &d) == 0 &&
				    halo_cidr_same_addr(&c, &d)) {
					halo_errors_add(errs, "%s:%d: interface \"%s\": address %s is also configured on interface \"%s\" (line %d)",
							cfg_name(cfg), line, f->name, text,
							g->name, g->line);
					*bad = true;
				}
			}
		}
	}
	return 0;
}

/* Parses a route of F into W (dst in network form); errors to ERRS. */
static bool route_want(const struct halo_config *cfg, const struct halo_interface *f,
		       const struct halo_route *r, struct halo_link_want *w,
		       struct halo_errors *errs)
{
	struct halo_cidr dst;

	if (r->via) {
		if (halo_cidr_parse(r->via, false, &w->gateway) < 0) {
			halo_errors_add(errs, "%s:%d: interface \"%s\": malformed gateway \"%s\"",
					cfg_name(cfg), r->line, f->name, r->via);
			return false;
		}
		w->has_gateway = true;
	}
	if (strcmp(r->to, "default") == 0) {
		memset(&dst, 0, sizeof(dst));
		dst.family = w->has_gateway ? w->gateway.family : AF_INET;
	} else if (halo_cidr_parse(r->to, false, &dst) < 0) {
		halo_errors_add(errs, "%s:%d: interface \"%s\": malformed route destination \"%s\"",
				cfg_name(cfg), r->line, f->name, r->to);
		return false;
	}
	if (w->has_gateway && w->gateway.family != dst.family) {
		halo_errors_add(errs, "%s:%d: interface \"%s\": route to %s via %s mixes IPv4 and IPv6",
				cfg_name(cfg), r->line, f->name, r->to, r->via);
		return false;
	}
	halo_cidr_network(&dst, &w->dst);
	w->metric = r->metric;
	return true;
}

static int add_item(struct halo_plan *plan, struct halo_errors *errs,
		    const struct halo_config *cfg, const struct halo_interface *f,
		    const char *key, struct halo_link_want *w)
{
	int err = halo_link_item_add(plan, key, w, NULL);

	if (err == -EEXIST)
		halo_errors_add(errs, "%s:%d: interface \"%s\": %s is configured twice",
				cfg_name(cfg), f->line, f->name, key);
	else if (err < 0)
		halo_errors_add(errs, "%s: %s", key, strerror(-err));
	return err;
}

static int plan_interface(struct halo_plan *plan, const struct halo_config *cfg,
			  const struct halo_interface *f,
			  const struct halo_nl_link *l, struct halo_errors *errs)
{
	struct halo_link_want base = { .ifindex = l->ifindex };
	struct halo_link_want w;
	char key[512], buf[64];
	int err;

	snprintf(base.link, sizeof(base.link), "%s", l->name);
	snprintf(base.label, sizeof(base.label), "%s", f->name);
	halo_link_match_describe(f, base.how, sizeof(base.how));

#define ADD(kind_, ...)                                                        \
	do {                                                                   \
		w.kind = (kind_);                                              \
		snprintf(key, sizeof(key), __VA_ARGS__);                       \
		err = add_item(plan, errs, cfg, f, key, &w);                   \
		if (err < 0)                                                   \
			return err;                                            \
	} while (0)

	w = base;
	ADD(HALO_LINK_PRESENT, "link/%s/present", f->name);
	if (f->mtu) {
		w = base;
		w.mtu = f->mtu;
		ADD(HALO_LINK_MTU, "link/%s/mtu", f->name);
	}
	w = base;
	ADD(HALO_LINK_UP, "link/%s/up", f->name);
	/* Unlisted addresses go first: removing an IPv4 primary address
	 * would take a just-added secondary of the same subnet with it. */
	if (f->exclusive_addresses) {
		w = base;
		w.keep = calloc(f->addresses.n ? f->addresses.n : 1, sizeof(*w.keep));
		if (!w.keep)
			return -ENOMEM;
		for (size_t a = 0; a < f->addresses.n; a++)
			if (halo_cidr_parse(f->addresses.v[a], true, &w.keep[w.n_keep]) == 0)
				w.n_keep++;
		ADD(HALO_LINK_ADDR_EXTRA, "link/%s/addr-extra", f->name);
	}
	for (size_t a = 0; a < f->addresses.n; a++) {
		w = base;
		if (halo_cidr_parse(f->addresses.v[a], true, &w.addr) < 0)
			continue; /* reported by check_addresses */
		halo_cidr_format(&w.addr, buf, sizeof(buf));
		ADD(HALO_LINK_ADDR, "link/%s/addr/%s", f->name, buf);
	}
	for (size_t r = 0; r < f->n_routes; r++) {
		w = base;
		if (!route_want(cfg, f, &f->routes[r], &w, errs))
			return -EINVAL;
		halo_route_dst_format(&w.dst, buf, sizeof(buf));
		ADD(HALO_LINK_ROUTE, "link/%s/route/%s", f->name, buf);
	}
#undef ADD
	return 0;
}

static int netlink_error(struct halo_errors *errs, const char *what, int err)
{
	halo_errors_add(errs, "links: %s: %s", what, strerror(-err));
	return err;
}

/*
 * Matches the selected entries (SEL) to LINKS: RET_IDX[i] for entry i, -1
 * for an entry not selected or not matched. Problems of entries not
 * selected are not this run's: a hotplug run for one NIC must not fail
 * because another one has not appeared yet. A selected entry's link that
 * an unselected entry matches too is still an ambiguity of the config.
 */
static int match_selected(const struct halo_config *cfg, const bool *sel,
			  const struct halo_nl_link *links, size_t n_links,
			  struct facts_cache *fc, ssize_t *ret_idx,
			  struct halo_errors *errs)
{
	_cleanup_free_ struct halo_interface *sub = NULL;
	_cleanup_free_ ssize_t *sub_idx = NULL;
	size_t n_sub = 0, j = 0;
	int err, bad = 0;

	sub = calloc(cfg->n_interfaces + 1, sizeof(*sub));
	sub_idx = calloc(cfg->n_interfaces + 1, sizeof(*sub_idx));
	if (!sub || !sub_idx)
		return -ENOMEM;
	for (size_t i = 0; i < cfg->n_interfaces; i++)
		if (sel[i])
			sub[n_sub++] = cfg->interfaces[i]; /* shallow: read only */
	err = halo_links_match(sub, n_sub, links, n_links, facts_get, fc,
			       cfg_name(cfg), sub_idx, errs);
	if (err == -EINVAL)
		bad = -EINVAL;
	else if (err < 0)
		return err;
	for (size_t i = 0; i < cfg->n_interfaces; i++)
		ret_idx[i] = sel[i] ? sub_idx[j++] : -1;
	for (size_t i = 0; i < cfg->n_interfaces; i++) {
		const struct halo_interface *f = &cfg->interfaces[i];

		if (ret_idx[i] < 0)
			continue;
		for (size_t k = 0; k < cfg->n_interfaces; k++) {
			const struct halo_interface *g = &cfg->interfaces[k];
			const struct halo_interface *a = k < i ? g : f, *b = k < i ? f : g;

			if (sel[k])
				continue;
			err = halo_link_matches(g, &links[ret_idx[i]], facts_get, fc);
			if (err < 0)
				return err;
			if (err == 0)
				continue;
			halo_errors_add(errs,
					"%s:%d: interfaces \"%s\" (line %d) and \"%s\" both match link %s",
					cfg_name(cfg), b->line, a->name, a->line,
					b->name, links[ret_idx[i]].name);
			bad = -EINVAL;
		}
	}
	return bad;
}

int halo_links_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		    struct halo_plan *plan, struct halo_errors *errs)
{
	const struct halo_nl_link *links;
	struct facts_cache fc = { .ctx = ctx };
	_cleanup_free_ ssize_t *idx = NULL;
	_cleanup_free_ bool *sel = NULL;
	_cleanup_free_ const struct halo_nl_link **matched = NULL;
	_cleanup_free_ int *managed = NULL;
	size_t n_links, n_matched = 0, n_managed = 0;
	bool bad = false;
	int err;

	if (!(ctx->only & HALO_SUB_LINKS) || cfg->n_interfaces == 0)
		return 0;
	/* Links are live kernel state, not files of the tree: under --root
	 * (image builds, tests) they would be this machine's own links. */
	if (ctx->under_root && !ctx->netns) {
		halo_errors_add(errs, "links: --root %s is a tree, not this machine's network: add --netns NAME for a namespace's links, or leave links out with --only",
				ctx->root);
		return -EINVAL;
	}
	/* Entered here first so its failure is told as such; halo_nl_open
	 * entering it again is a no-op. */
	err = halo_netns_enter(ctx);
	if (err < 0) {
		halo_errors_add(errs, "--netns %s: /run/netns/%s: %s", ctx->netns,
				ctx->netns, strerror(-err));
		return err;
	}
	err = halo_nl_open(ctx);
	if (err < 0)
		return netlink_error(errs, "opening netlink", err);
	if (all_by_name(cfg)) {
		err = scope_names(ctx, cfg);
		if (err < 0)
			return netlink_error(errs, "opening netlink", err);
	}
	err = halo_nl_links(ctx, &links, &n_links);
	if (err < 0)
		return netlink_error(errs, "reading links", err);

	idx = calloc(cfg->n_interfaces, sizeof(*idx));
	sel = calloc(cfg->n_interfaces, sizeof(*sel));
	matched = calloc(cfg->n_interfaces, sizeof(*matched));
	managed = calloc(cfg->n_interfaces + 1, sizeof(*managed));
	fc.links = links;
	fc.n = n_links;
	fc.driver = calloc(n_links + 1, sizeof(char *));
	fc.pci = calloc(n_links + 1, sizeof(char *));
	fc.done = calloc(n_links + 1, sizeof(bool));
	if (!idx || !sel || !matched || !managed || !fc.driver || !fc.pci || !fc.done) {
		facts_free(&fc);
		return -ENOMEM;
	}
	if (ctx->interface) {
		err = halo_links_select(cfg->interfaces, cfg->n_interfaces, links,
					n_links, facts_get, &fc, ctx->interface, sel);
		if (err == 0) {
			/* udev starts the hotplug unit for every netdev of an
			 * RDMA driver: one nobody configured is no error. */
			facts_free(&fc);
			return halo_plan_warn(plan, "--interface %s: no interface entry manages it: nothing to do",
					      ctx->interface);
		}
	} else {
		for (size_t i = 0; i < cfg->n_interfaces; i++)
			sel[i] = true;
		err = 0;
	}
	if (err >= 0)
		err = match_selected(cfg, sel, links, n_links, &fc, idx, errs);
	facts_free(&fc);
	if (err == -EINVAL)
		bad = true;
	else if (err < 0)
		return netlink_error(errs, "reading sysfs", err);

	for (size_t i = 0; i < cfg->n_interfaces; i++) {
		if (idx[i] < 0)
			continue;
		matched[i] = &links[idx[i]];
		managed[n_managed++] = matched[i]->ifindex;
		check_mtu(cfg, &cfg->interfaces[i], matched[i], errs, &bad);
		err = check_addresses(ctx, cfg, i, matched[i], errs, &bad);
		if (err < 0)
			return netlink_error(errs, "looking up addresses", err);
	}
	/* Items observe their own links only from here on. */
	err = halo_nl_scope_ifindexes(ctx, managed, n_managed);
	if (err < 0)
		return netlink_error(errs, "reading links", err);
	if (bad)
		return -EINVAL;

	for (size_t i = 0; i < cfg->n_interfaces; i++) {
		if (!sel[i])
			continue;
		err = plan_interface(plan, cfg, &cfg->interfaces[i], matched[i], errs);
		if (err < 0)
			return err;
		matched[n_matched++] = matched[i];
	}
	/* The drop-in lists every managed link: from one interface's view it
	 * would lose the others (absent during a hotplug), so only full runs
	 * (the boot units) maintain it. */
	if (ctx->interface)
		return 0;
	err = halo_nm_plan(ctx, plan, matched, n_matched);
	if (err < 0) {
		halo_errors_add(errs, "links: NetworkManager state: %s", strerror(-err));
		return err;
	}
	return 0;
}

void halo_links_release(struct halo_ctx *ctx)
{
	halo_nl_close(ctx);
}
