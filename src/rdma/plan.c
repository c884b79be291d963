/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan.c: the RDMA interfaces are the selected entries with a `roce`
 * group whose roce.enable is not false: the config says RoCE traffic runs
 * there. An interface without one (management Ethernet) gets no rdma
 * items, so a NIC without RDMA is no failure unless the config asks for
 * RoCE on it. Each gets rdma/<entry>/{device,port-state,gid-index,rdma-cm};
 * state.env_file gets one owned file over all of them, in config order.
 *
 * The env file is planned only by a run over every interface: a hotplug
 * run (--interface) would have to write the other interfaces' lines from
 * facts it did not look at.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "host/host.h"
#include "rdma/rdma.h"
#include "util/strv.h"

static bool is_rdma(const struct halo_interface *f)
{
	return f->roce.present && f->roce.enable != HALO_FALSE;
}

/* NCCL_IB_TC is one value for every device: the ToS of the RDMA
 * interfaces must agree. */
static bool check_tos(const struct halo_config *cfg, struct halo_errors *errs)
{
	const struct halo_interface *first = NULL;

	if (!cfg->state.env_file || !cfg->state.env_file[0])
		return true;
	for (size_t i = 0; i < cfg->n_interfaces; i++) {
		const struct halo_interface *f = &cfg->interfaces[i];

		if (!is_rdma(f) || f->roce.tos < 0)
			continue;
		if (!first) {
			first = f;
		} else if (f->roce.tos != first->roce.tos) {
			halo_errors_add(errs, "%s:%d: interface \"%s\": roce.tos %d differs from %d of "
					"\"%s\": the env file's NCCL_IB_TC is one value for every "
					"device", halo_config_name(cfg), f->roce.tos_line ? f->roce.tos_line :
					f->line, f->name, f->roce.tos, first->roce.tos, first->name);
			return false;
		}
	}
	return true;
}

/* 0, or -ENOMEM for the link's halo_rdma_seen. */
static int fill_link(const struct halo_ctx *ctx, const struct halo_plan *plan,
		     const struct halo_host_link *h, struct halo_rdma_link *l)
{
	char key[300];
	const struct halo_interface *f = h->entry;

	memset(l, 0, sizeof(*l));
	l->seen = halo_rdma_seen_new();
	if (!l->seen)
		return -ENOMEM;
	halo_strjoin(l->entry, sizeof(l->entry), f->name, NULL);
	halo_strjoin(l->ifname, sizeof(l->ifname), h->link.name, NULL);
	halo_strjoin(l->driver, sizeof(l->driver), h->driver ? h->driver : "", NULL);
	l->tos = f->roce.tos;
	l->modules_pending = ctx->host->stage == HALO_HOST_BEFORE_MODULES;
	l->roce_enable_wanted = f->roce.enable == HALO_TRUE;
	if (l->roce_enable_wanted) {
		halo_strjoin(key, sizeof(key), "roce/", f->name, "/enable", NULL);
		l->roce_enable = halo_plan_find(plan, key);
	}
	/* The first IPv4 address listed is the one NCCL uses: a second one
	 * on the link, listed or not, never decides. */
	for (size_t i = 0; i < f->addresses.n; i++)
		if (f->addresses.v[i].cidr.family == AF_INET) {
			l->has_addr = true;
			memcpy(l->addr, f->addresses.v[i].cidr.addr, 4);
			inet_ntop(AF_INET, l->addr, l->addr_text, sizeof(l->addr_text));
			break;
		}
	return 0;
}

/* The planner's own references; the items hold theirs. */
struct links {
	struct halo_rdma_link *v;
	size_t n;
};

static void links_free(struct links *ls)
{
	for (size_t i = 0; i < ls->n; i++)
		halo_rdma_seen_unref(ls->v[i].seen);
	free(ls->v);
}

static int add(struct halo_plan *plan, struct halo_errors *errs, const struct halo_config *cfg,
	       const struct halo_interface *f, const struct halo_rdma_link *l,
	       enum halo_rdma_kind kind, const char *what)
{
	struct halo_rdma_want w = { .kind = kind, .link = *l };
	struct halo_item *item;
	struct halo_rdma_path key; /* "rdma/<entry>/<what>", built like a path */
	int err;

	halo_rdma_path_set(&key, "rdma/");
	halo_rdma_path_add(&key, l->entry);
	halo_rdma_path_add(&key, "/");
	halo_rdma_path_add(&key, what);
	err = halo_rdma_item_add(plan, key.s, &w, &item);
	if (err == -EEXIST)
		halo_errors_add(errs, "%s: %s is configured twice", halo_config_name(cfg), key.s);
	else if (err < 0)
		halo_errors_add(errs, "%s: %s", key.s, strerror(-err));
	if (err < 0)
		return err;
	item->iface = f;
	switch (kind) {
	case HALO_RDMA_DEVICE:
		return halo_item_set_wanted(item, "an RDMA device with RoCE");
	case HALO_RDMA_PORT_STATE:
		return halo_item_set_wanted(item, "ACTIVE, LinkUp");
	case HALO_RDMA_GID_INDEX:
		if (l->has_addr)
			return halo_item_set_wanted(item, "the RoCE v2 GID of %s", l->addr_text);
		return halo_item_set_wanted(item, "the RoCE v2 IPv4 GID");
	case HALO_RDMA_CM:
		if (l->tos >= 0)
			return halo_item_set_wanted(item, "RoCE v2, ToS %d", l->tos);
		return halo_item_set_wanted(item, "RoCE v2");
	}
	return 0;
}

static int plan_link(struct halo_plan *plan, struct halo_errors *errs,
		     const struct halo_config *cfg, const struct halo_interface *f,
		     const struct halo_rdma_link *l)
{
	int err = add(plan, errs, cfg, f, l, HALO_RDMA_DEVICE, "device");

	if (err == 0)
		err = add(plan, errs, cfg, f, l, HALO_RDMA_PORT_STATE, "port-state");
	if (err == 0)
		err = add(plan, errs, cfg, f, l, HALO_RDMA_GID_INDEX, "gid-index");
	if (err == 0)
		err = add(plan, errs, cfg, f, l, HALO_RDMA_CM, "rdma-cm");
	return err;
}

int halo_rdma_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		   struct halo_plan *plan, struct halo_errors *errs)
{
	const struct halo_host *host = ctx->host;
	const char *env = cfg->state.env_file;
	_cleanup_(links_free) struct links ls = { 0 };
	bool want_env = env && env[0] && !ctx->interface, missing = false;
	size_t n_cfg = 0;
	int err;

	if (!(ctx->only & HALO_SUB_RDMA) || !host)
		return 0;
	if (!check_tos(cfg, errs))
		return -EINVAL;
	for (size_t i = 0; i < cfg->n_interfaces; i++)
		n_cfg += is_rdma(&cfg->interfaces[i]);
	/* Nothing to name: said, not silently skipped. */
	if (want_env && n_cfg == 0)
		return halo_plan_warn_held(plan, env, "state.env_file is configured but no "
					   "interface has a roce group: %s is not written or "
					   "checked", env);
	ls.v = calloc(host->n + 1, sizeof(*ls.v));
	if (!ls.v)
		return -ENOMEM;
	for (size_t i = 0; i < host->n; i++) {
		const struct halo_host_link *h = &host->links[i];
		struct halo_rdma_link *l;

		if (!h->selected || !is_rdma(h->entry))
			continue;
		/* Not there yet: its link/<name>/present item says so; the
		 * apply plans again once the modules phase brought it. */
		if (!h->found) {
			missing = true;
			err = halo_plan_warn(plan, "interfaces/%s/rdma: no link matches%s: nothing "
						   "is applied or checked", h->entry->name,
					     halo_host_yet(ctx));
			if (err < 0)
				return err;
			continue;
		}
		l = &ls.v[ls.n];
		err = fill_link(ctx, plan, h, l);
		if (err < 0)
			return err;
		ls.n++;
		err = plan_link(plan, errs, cfg, h->entry, l);
		if (err < 0)
			return err;
	}
	if (!want_env || ls.n == 0)
		return 0;
	/* A revert removes the env file whatever it names. */
	if (missing && !ctx->revert)
		return halo_plan_warn_held(plan, env, "state.env_file: an RDMA interface has no "
					   "link%s: %s is not written or checked",
					   halo_host_yet(ctx), env);
	err = halo_rdma_env_add(plan, env, ls.v, ls.n);
	if (err == -EEXIST)
		halo_errors_add(errs, "%s: state.env_file %s is also written by another part",
				halo_config_name(cfg), env);
	return err;
}
