/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * firewall.c: the firewall section planned on the host table. One file,
 * the zone (firewalld) or the table (nftables), naming every managed
 * interface by its live name, so it is planned only by a run over every
 * interface (a hotplug run would write the others from facts it did not
 * look at) and only once every entry has its link.
 *
 * backend = "auto" picks what is installed in the root: firewalld (its
 * daemon or its /usr/lib/firewalld) first, since with firewalld running
 * a table of our own would not open anything its own table rejects;
 * else nft; else a firewall/backend item that says why nothing is done.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "engine/revert.h"
#include "files/files.h"
#include "files/firewall.h"
#include "host/host.h"
#include "util/rootfs.h"
#include "util/strv.h"

static bool installed(const struct halo_ctx *ctx, const char *const *paths)
{
	for (; *paths; paths++)
		if (halo_root_exists(ctx, *paths) > 0)
			return true;
	return false;
}

static const char *const firewalld_paths[] = { "/usr/sbin/firewalld", "/usr/lib/firewalld",
					       NULL };
static const char *const nft_paths[] = { "/usr/sbin/nft", "/sbin/nft", NULL };

static int unsupported_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	(void)ctx;
	(void)halo_item_set_observed(item, "neither installed");
	if (halo_item_set_message(item, "neither firewalld (/usr/sbin/firewalld, "
				  "/usr/lib/firewalld) nor nftables (/usr/sbin/nft) is installed "
				  "in the root: no firewall file is written") < 0)
		return -ENOMEM;
	return HALO_SYNC_UNSUPPORTED;
}

static const struct halo_item_ops unsupported_ops = { .observe = unsupported_observe };

static int add_unsupported(struct halo_plan *plan)
{
	struct halo_item *item;
	int err = halo_plan_add_new(plan, "firewall/backend", HALO_SUB_FILES, HALO_PHASE_FILES,
				    &unsupported_ops, 1, &item);

	return err < 0 ? err : halo_item_set_wanted(item, "firewalld or nftables (auto)");
}

static bool has_port(const uint16_t *v, size_t n, uint16_t port)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == port)
			return true;
	return false;
}

/* RoCE v2 is UDP 4791 between the nodes. Hardware RoCE (E810, ConnectX)
 * never passes netfilter, soft-RoCE (rxe) does: a warning, not an error. */
static int roce_port_warning(const struct halo_config *cfg, struct halo_plan *plan)
{
	const struct halo_firewall_config *fw = &cfg->firewall;

	if (fw->trusted_interfaces ||
	    has_port(fw->allow_udp, fw->n_allow_udp, HALO_FW_ROCE_V2_PORT))
		return 0;
	for (size_t i = 0; i < cfg->n_interfaces; i++) {
		const struct halo_interface *f = &cfg->interfaces[i];

		if (f->roce.present && f->roce.enable != HALO_FALSE)
			return halo_plan_warn(plan, "firewall: RoCE v2 needs UDP port %d between "
					      "the nodes, but trusted_interfaces is false and "
					      "allow_udp lacks %d: interface \"%s\" rejects it "
					      "(soft-RoCE; add %d to firewall.allow_udp)",
					      HALO_FW_ROCE_V2_PORT, HALO_FW_ROCE_V2_PORT, f->name,
					      HALO_FW_ROCE_V2_PORT);
	}
	return 0;
}

/* The live names of the managed interfaces: 1 with RET_NAMES filled, 0
 * when the file cannot be planned in this run (a warning says why), -errno. */
static int live_names(const struct halo_ctx *ctx, const struct halo_config *cfg,
		      struct halo_plan *plan, struct halo_errors *errs, const char *path,
		      const char **ret_names)
{
	const struct halo_host *host = ctx->host;
	size_t n = 0;
	bool bad = false;

	if (!host || host->n == 0)
		return halo_plan_warn_held(plan, path, "firewall: the managed interfaces are not "
					   "resolved in this run (--only without links, roce or "
					   "rdma): %s is not written or checked", path);
	for (size_t i = 0; i < host->n; i++) {
		const struct halo_host_link *h = &host->links[i];

		/* Its link/<name>/present item says so; an apply plans again
		 * once the modules phase brought it. */
		if (!h->found)
			return halo_plan_warn_held(plan, path, "firewall: interface \"%s\" has no "
						   "link%s: %s is not written or checked",
						   h->entry->name, halo_host_yet(ctx), path);
		if (!halo_fw_ifname_safe(h->link.name)) {
			halo_errors_add(errs, "%s:%d: firewall: interface \"%s\" is link \"%s\", a "
					"name a firewall file cannot hold verbatim (only "
					"A-Z a-z 0-9 . _ -): rename the link", halo_config_name(cfg),
					h->entry->line, h->entry->name, h->link.name);
			bad = true;
		}
		ret_names[n++] = h->link.name;
	}
	return bad ? -EINVAL : 1;
}

static int zone_conflicts(const struct halo_ctx *ctx, const struct halo_config *cfg,
			  const char *const *names, size_t n, struct halo_errors *errs)
{
	int bad = 0;

	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *zone = NULL;
		int r = halo_fw_zone_owner(ctx, names[i], &zone);

		if (r < 0) {
			halo_errors_add(errs, "firewall: reading %s: %s", HALO_FW_ZONE_DIR,
					strerror(-r));
			return r;
		}
		if (r == 0)
			continue;
		halo_errors_add(errs, "%s:%d: firewall: interface %s is already bound to zone "
				"\"%s\" (%s/%s.xml), and firewalld refuses one interface in two "
				"zones: run firewall-cmd --permanent --zone=%s --remove-interface=%s",
				halo_config_name(cfg), cfg->firewall.line, names[i], zone,
				HALO_FW_ZONE_DIR, zone, zone, names[i]);
		bad = -EINVAL;
	}
	return bad;
}

int halo_files_firewall_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
			     struct halo_plan *plan, struct halo_errors *errs)
{
	const struct halo_firewall_config *fw = &cfg->firewall;
	enum halo_fw_backend backend = fw->backend;
	_cleanup_free_ const char **names = NULL;
	_cleanup_free_ char *content = NULL;
	struct halo_fw_rules rules;
	const char *path;
	int r;

	if (!fw->present || backend == HALO_FW_NONE || ctx->interface)
		return 0;
	/* Nothing to put in a zone: which backend would hold it is moot. */
	if (cfg->n_interfaces == 0)
		return halo_plan_warn(plan, "firewall: no interfaces are configured: no zone or "
					    "table is written or checked");
	if (backend == HALO_FW_AUTO) {
		if (installed(ctx, firewalld_paths))
			backend = HALO_FW_FIREWALLD;
		else if (installed(ctx, nft_paths))
			backend = HALO_FW_NFTABLES;
		else
			return add_unsupported(plan);
	}
	path = backend == HALO_FW_FIREWALLD ? HALO_FW_ZONE_PATH : HALO_FW_NFT_PATH;
	/* A revert only removes the file (by the header rule): the live
	 * names, the other zones and the content are not its concern. */
	if (ctx->revert)
		return halo_plan_add_revert_file(plan, HALO_SUB_FILES, HALO_PHASE_FILES,
						 path, NULL);
	r = roce_port_warning(cfg, plan);
	if (r < 0)
		return r;
	names = calloc(cfg->n_interfaces + 1, sizeof(*names));
	if (!names)
		return -ENOMEM;
	r = live_names(ctx, cfg, plan, errs, path, names);
	if (r <= 0)
		return r;
	rules = (struct halo_fw_rules){
		.ifnames = names, .n_ifnames = ctx->host->n, .trusted = fw->trusted_interfaces,
		.udp = fw->allow_udp, .n_udp = fw->n_allow_udp,
		.tcp = fw->allow_tcp, .n_tcp = fw->n_allow_tcp,
	};
	if (backend == HALO_FW_FIREWALLD) {
		r = zone_conflicts(ctx, cfg, names, rules.n_ifnames, errs);
		if (r < 0)
			return r;
		r = halo_fw_render_zone(&rules, &content);
	} else {
		/* firewalld's own table rejects what it does not allow,
		 * whatever another table accepts. */
		if (fw->backend == HALO_FW_NFTABLES && installed(ctx, firewalld_paths)) {
			r = halo_plan_warn(plan, "firewall: backend is nftables but firewalld is "
					   "installed: while firewalld runs, its table still "
					   "rejects what its zones do not allow (backend = "
					   "\"firewalld\" puts the interfaces in a zone)");
			if (r < 0)
				return r;
		}
		r = halo_fw_render_nft(&rules, &content);
	}
	if (r < 0) {
		halo_errors_add(errs, "firewall: rendering %s: %s", path, strerror(-r));
		return r;
	}
	r = halo_fw_item_add(plan, backend == HALO_FW_FIREWALLD ? HALO_FW_KIND_FIREWALLD :
								  HALO_FW_KIND_NFTABLES,
			     path, content);
	if (r == -EEXIST)
		halo_errors_add(errs, "%s: %s is also written by another part", halo_config_name(cfg),
				path);
	return r;
}
