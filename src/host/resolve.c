/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * resolve.c: config entries to live links, once per run (the host table).
 *
 * Links named in the config are fetched by name (one RTM_GETLINK each), so
 * are the links sysfs names for entries matching by driver or PCI (the
 * netdevs of the device, or of the driver's devices: candidates.c). A dump
 * without stats only when an entry matches by MAC, sysfs cannot name the
 * candidates, or they do not give every entry its link without an error.
 * Driver and PCI address are read from sysfs on demand, once per link
 * (a virtual link's driver is its rtnetlink kind).
 * Once matched, the netlink snapshots are scoped to the managed links, so
 * whatever observes them later costs the same on any host.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "host/candidates.h"
#include "host/host.h"
#include "host/match.h"
#include "host/sysfs.h"
#include "netlink/context.h"
#include "netlink/rtnl.h"
#include "util/strv.h"

/* Driver and PCI address per link, read from sysfs once, on demand. */
struct facts_cache {
	const struct halo_ctx *ctx;
	const struct halo_rtnl_link *links;
	struct halo_link_facts *facts;
	bool *done;
	size_t n;
	char *why; /* why a link's sysfs facts were refused */
};

static int facts_get(void *userdata, const struct halo_rtnl_link *link,
		     const struct halo_link_facts **ret)
{
	struct facts_cache *fc = userdata;
	size_t i = (size_t)(link - fc->links);
	struct halo_link_facts *f;
	int err;

	if (i >= fc->n)
		return -EINVAL;
	f = &fc->facts[i];
	if (!fc->done[i]) {
		free(fc->why);
		fc->why = NULL;
		err = halo_link_sysfs_facts(fc->ctx, link->name, f, &fc->why);
		if (err < 0)
			return err;
		fc->done[i] = true;
		/* A virtual link has no bus device: its driver is its kind,
		 * as `ethtool -i` says (veth, bridge). */
		if (!f->driver && link->kind[0] && !(f->driver = strdup(link->kind)))
			return -ENOMEM;
	}
	*ret = f;
	return 0;
}

static void facts_free(struct facts_cache *fc)
{
	for (size_t i = 0; fc->done && i < fc->n; i++)
		halo_link_facts_free(&fc->facts[i]);
	free(fc->facts);
	free(fc->done);
	free(fc->why);
}

/* Every entry is matched by name: its link is fetched by name, with no
 * dump of the host's links. */
static bool all_by_name(const struct halo_config *cfg)
{
	for (size_t i = 0; i < cfg->n_interfaces; i++) {
		const struct halo_interface *f = &cfg->interfaces[i];

		if (f->match.has_mac || f->match_driver || f->match.has_pci)
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
	return halo_rtnl_scope_names(ctx, names, cfg->n_interfaces);
}

/*
 * Matches the selected entries (SEL) to LINKS: RET_IDX[i] for entry i, -1
 * for an entry not selected or not matched. Problems of entries not
 * selected are not this run's: a hotplug run for one NIC must not fail
 * because another one has not appeared yet. A selected entry's link that
 * an unselected entry matches too is still an ambiguity of the config.
 */
static int match_selected(const struct halo_config *cfg, const bool *sel,
			  const struct halo_rtnl_link *links, size_t n_links,
			  struct facts_cache *fc, bool report_missing,
			  ssize_t *ret_idx, struct halo_errors *errs)
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
			       halo_config_name(cfg), report_missing, sub_idx, errs);
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
					halo_config_name(cfg), b->line, a->name, a->line,
					b->name, links[ret_idx[i]].name);
			bad = -EINVAL;
		}
	}
	return bad;
}

static int netlink_error(struct halo_errors *errs, const char *what, int err)
{
	halo_errors_add(errs, "links: %s: %s", what, strerror(-err));
	return err;
}

/* The bond LINK is a port of, in RET: its upper device (IFLA_MASTER) when
 * that is a bond (IFLA_INFO_KIND "bond"; a bridge or a team is none), ""
 * otherwise. The upper device is looked for among LINKS (N of them, the
 * snapshot matched against), else fetched: one RTM_GETLINK, only for a
 * link that has one. */
static int bond_of(struct halo_ctx *ctx, const struct halo_rtnl_link *links,
		   size_t n, const struct halo_rtnl_link *link, char ret[IF_NAMESIZE])
{
	const struct halo_rtnl_link *upper = NULL;
	struct halo_rtnl_link fetched;
	int err;

	ret[0] = '\0';
	if (link->master <= 0)
		return 0;
	for (size_t i = 0; i < n && !upper; i++)
		if (links[i].ifindex == link->master)
			upper = &links[i];
	if (!upper) {
		err = halo_rtnl_link_fetch(ctx, link->master, &fetched);
		if (err == -ENODEV)
			return 0; /* gone since the link was read */
		if (err < 0)
			return err;
		upper = &fetched;
	}
	if (strcmp(upper->kind, "bond") == 0)
		memcpy(ret, upper->name, IF_NAMESIZE);
	return 0;
}

/* The table's rows from the match: copies, so the table outlives the
 * netlink snapshots (which later requests replace). */
static int fill(struct halo_ctx *ctx, struct halo_host *host,
		const struct halo_config *cfg, const bool *sel, const ssize_t *idx,
		const struct halo_rtnl_link *links, struct facts_cache *fc)
{
	for (size_t i = 0; i < cfg->n_interfaces; i++) {
		struct halo_host_link *h = &host->links[i];
		const struct halo_link_facts *f;
		int err;

		h->selected = sel[i];
		if (idx[i] < 0)
			continue;
		h->found = true;
		h->link = links[idx[i]];
		err = facts_get(fc, &links[idx[i]], &f);
		if (err < 0)
			return err;
		if (f->driver && !(h->driver = strdup(f->driver)))
			return -ENOMEM;
		h->has_pci = f->has_pci;
		h->pci = f->pci;
		err = bond_of(ctx, links, fc->n, &h->link, h->bond);
		if (err < 0)
			return err;
	}
	return 0;
}

/*
 * One matching of the config against the link snapshot as scoped now.
 * FAST (candidates fetched by name): nothing is kept unless every selected
 * entry matched without a single error; *RET_RETRY then asks for the dump.
 */
static int resolve_links(struct halo_ctx *ctx, const struct halo_config *cfg,
			 struct halo_host *host, struct halo_errors *errs,
			 bool fast, bool *ret_retry)
{
	const struct halo_rtnl_link *links;
	struct facts_cache fc = { .ctx = ctx };
	struct halo_errors tmp = { 0 };
	struct halo_errors *e = fast ? &tmp : errs;
	_cleanup_free_ ssize_t *idx = NULL;
	_cleanup_free_ bool *sel = NULL;
	_cleanup_free_ int *managed = NULL;
	size_t n_links, n_managed = 0;
	bool bad = false;
	int err;

	*ret_retry = false;
	host->interface_unmanaged = false;
	err = halo_rtnl_links(ctx, &links, &n_links);
	if (err < 0) {
		*ret_retry = fast;
		return fast ? 0 : netlink_error(errs, "reading links", err);
	}

	idx = calloc(cfg->n_interfaces, sizeof(*idx));
	sel = calloc(cfg->n_interfaces, sizeof(*sel));
	managed = calloc(cfg->n_interfaces + 1, sizeof(*managed));
	fc.links = links;
	fc.n = n_links;
	fc.facts = calloc(n_links + 1, sizeof(*fc.facts));
	fc.done = calloc(n_links + 1, sizeof(bool));
	if (!idx || !sel || !managed || !fc.facts || !fc.done) {
		err = -ENOMEM;
		goto out;
	}
	if (ctx->interface) {
		err = halo_links_select(cfg->interfaces, cfg->n_interfaces, links,
					n_links, facts_get, &fc, ctx->interface, sel);
		/* udev starts the hotplug unit for every netdev of an RDMA
		 * driver: one nobody configured is no error. */
		host->interface_unmanaged = err == 0;
	} else {
		for (size_t i = 0; i < cfg->n_interfaces; i++)
			sel[i] = true;
		err = 0;
	}
	if (err > 0)
		err = 0;
	if (err == 0 && !host->interface_unmanaged)
		err = match_selected(cfg, sel, links, n_links, &fc,
				     host->stage == HALO_HOST_FINAL && !host->facts_only &&
					     ctx->mode != HALO_MODE_CHECK,
				     idx, e);
	if (err == -EINVAL) {
		bad = true;
		err = 0;
	}
	if (fast) {
		/* The candidates are only a shortcut: whatever the dump could
		 * answer differently (an entry not found among them, an error
		 * to report) is left to the dump. */
		bool missing = false;

		for (size_t i = 0; i < cfg->n_interfaces && !host->interface_unmanaged; i++)
			missing = missing || (sel[i] && idx[i] < 0);
		if (err < 0 || bad || tmp.n || tmp.oom || missing) {
			*ret_retry = true;
			err = 0;
			bad = false;
			goto out;
		}
	}
	if (err == 0 && !host->interface_unmanaged)
		err = fill(ctx, host, cfg, sel, idx, links, &fc);
	if (err < 0) {
		if (fc.why)
			halo_errors_add(errs, "links: %s", fc.why);
		else
			netlink_error(errs, "reading sysfs", err);
		goto out;
	}
	for (size_t i = 0; i < host->n; i++)
		if (host->links[i].found)
			managed[n_managed++] = host->links[i].link.ifindex;
	/* Items observe their own links only from here on. */
	err = halo_rtnl_scope_ifindexes(ctx, managed, n_managed);
	if (err < 0)
		netlink_error(errs, "reading links", err);
out:
	halo_errors_free(&tmp);
	facts_free(&fc);
	return err < 0 ? err : bad ? -EINVAL : 0;
}

/*
 * Scopes the link snapshot before matching: entries all matched by name
 * are fetched by name (exact, no fallback needed); else the candidates
 * sysfs names, if every entry has some (*RET_FAST); else the dump.
 */
static int scope_links(struct halo_ctx *ctx, const struct halo_config *cfg,
		       bool *ret_fast)
{
	_cleanup_strv_free_ char **names = NULL;
	int r;

	*ret_fast = false;
	if (all_by_name(cfg))
		return scope_names(ctx, cfg);
	r = halo_host_candidates(ctx, cfg, ctx->interface, &names);
	if (r <= 0)
		return r;
	*ret_fast = true;
	return halo_rtnl_scope_names(ctx, (const char *const *)names,
				     halo_strv_len(names));
}

static int resolve(struct halo_ctx *ctx, const struct halo_config *cfg,
		   struct halo_host *host, struct halo_errors *errs)
{
	struct halo_nlt *t;
	bool fast, retry;
	int err;

	/* Links are live kernel state, not files of the tree: under --root
	 * (image builds, tests) they would be this machine's own links. */
	if (ctx->under_root && !ctx->netns) {
		halo_errors_add(errs, "links: --root %s is a tree, not this machine's network: add --netns NAME for a namespace's links, or leave links out with --only",
				ctx->root);
		return -EINVAL;
	}
	err = halo_netlink_transport(ctx, &t);
	if (err < 0)
		return netlink_error(errs, "opening netlink", err);
	err = scope_links(ctx, cfg, &fast);
	if (err < 0)
		return netlink_error(errs, "opening netlink", err);
	err = resolve_links(ctx, cfg, host, errs, fast, &retry);
	if (err < 0 || !retry)
		return err;
	/* The dump, exactly as without candidates. */
	halo_rtnl_unscope(ctx);
	return resolve_links(ctx, cfg, host, errs, false, &retry);
}

/* Links, roce and rdma are made of the interfaces; of the files, the
 * firewall and sysctl ones name them by their live names. */
static bool needs_links(const struct halo_ctx *ctx, const struct halo_config *cfg)
{
	if (cfg->n_interfaces == 0)
		return false;
	if (ctx->only & (HALO_SUB_LINKS | HALO_SUB_ROCE | HALO_SUB_RDMA))
		return true;
	return (ctx->only & HALO_SUB_FILES) &&
	       ((cfg->firewall.present && cfg->firewall.backend != HALO_FW_NONE) ||
		cfg->sysctl.present);
}

/* The readiness items need each NIC's PCI function and driver, which only
 * the live link knows when the entry has no match.pci. They read; a tree
 * without --netns has no links of its own to read. */
static bool ready_reads_links(const struct halo_ctx *ctx, const struct halo_config *cfg)
{
	return cfg->n_interfaces > 0 && (ctx->only & HALO_SUB_READY) &&
	       !(ctx->under_root && !ctx->netns);
}

int halo_host_resolve(struct halo_ctx *ctx, const struct halo_config *cfg,
		      enum halo_host_stage stage, struct halo_errors *errs)
{
	struct halo_host *host;
	int err;

	halo_host_release(ctx);
	/* Built again after an earlier phase changed the host: the netlink
	 * snapshots are scoped to what matched before. */
	if (stage == HALO_HOST_AFTER_MODULES)
		halo_rtnl_unscope(ctx);
	host = calloc(1, sizeof(*host));
	if (!host)
		return -ENOMEM;
	host->stage = stage;
	ctx->host = host;
	/* No entry at all: none manages --interface NAME either. */
	if (ctx->interface && cfg->n_interfaces == 0 &&
	    (ctx->only & (HALO_SUB_LINKS | HALO_SUB_ROCE | HALO_SUB_RDMA)))
		host->interface_unmanaged = true;
	if (!needs_links(ctx, cfg)) {
		if (!ready_reads_links(ctx, cfg))
			return 0;
		host->facts_only = true;
	}
	host->links = calloc(cfg->n_interfaces, sizeof(*host->links));
	if (!host->links)
		return -ENOMEM;
	host->n = cfg->n_interfaces;
	for (size_t i = 0; i < host->n; i++)
		host->links[i].entry = &cfg->interfaces[i];
	err = resolve(ctx, cfg, host, errs);
	if (err == -ENOMEM && errs->n == 0)
		halo_errors_add(errs, "links: %s", strerror(ENOMEM));
	return err;
}

const struct halo_host_link *halo_host_find(const struct halo_host *host,
					    const char *name)
{
	for (size_t i = 0; host && i < host->n; i++)
		if (strcmp(host->links[i].entry->name, name) == 0)
			return &host->links[i];
	return NULL;
}

bool halo_host_has_missing(const struct halo_host *host)
{
	for (size_t i = 0; host && i < host->n; i++)
		if (host->links[i].selected && !host->links[i].found)
			return true;
	return false;
}

const char *halo_host_yet(const struct halo_ctx *ctx)
{
	return ctx->host && ctx->host->stage == HALO_HOST_BEFORE_MODULES && !ctx->revert ?
		       " yet" : "";
}

void halo_host_free(struct halo_host *host)
{
	if (!host)
		return;
	for (size_t i = 0; i < host->n; i++) {
		free(host->links[i].driver);
	}
	free(host->links);
	free(host);
}

void halo_host_release(struct halo_ctx *ctx)
{
	halo_host_free(ctx->host);
	ctx->host = NULL;
}
