/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node.c: the `node` member of the state file and of a full run's --json
 * report, the facts --cluster compares (cluster.h). From the config, the
 * host table and the run's last observation, never the clock, so an
 * apply that changes nothing writes the same bytes.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <json-c/json.h>

#include "cluster/cluster.h"
#include "engine/item.h"
#include "host/host.h"
#include "util/rootfs.h"
#include "util/strv.h"

/* The root's /etc/hostname (first line, blanks trimmed), else uname's:
 * the name an operator knows the node by. NULL on ENOMEM. */
static char *node_hostname(const struct halo_ctx *ctx)
{
	_cleanup_free_ char *text = NULL;
	struct utsname uts;
	size_t len;

	if (halo_read_file(ctx, "/etc/hostname", &text, &len) == 0) {
		char *s = text + strspn(text, " \t\r\n");

		s[strcspn(s, " \t\r\n#")] = '\0';
		if (s[0])
			return strdup(s);
	}
	if (uname(&uts) < 0)
		return strdup("localhost");
	return strdup(uts.nodename);
}

static struct json_object *prio_list(uint8_t mask)
{
	struct json_object *a = json_object_new_array();

	for (int p = 0; a && p < 8; p++)
		if (mask & (1u << p))
			json_object_array_add(a, json_object_new_int(p));
	return a;
}

static int dscp_cmp(const void *a, const void *b)
{
	const struct halo_dscp_prio *x = a, *y = b;

	return (int)x->dscp - (int)y->dscp;
}

static struct json_object *roce_json(const struct halo_roce_config *r)
{
	struct json_object *o = json_object_new_object(), *a;
	struct halo_dscp_prio *sorted;

	if (!o)
		return NULL;
	json_object_object_add(o, "enable", r->enable == HALO_UNSET ? NULL :
				    json_object_new_boolean(r->enable == HALO_TRUE));
	json_object_object_add(o, "pfc", r->pfc_set ? prio_list(r->pfc_mask) : NULL);
	a = NULL;
	if (r->n_dscp_prio) {
		sorted = calloc(r->n_dscp_prio, sizeof(*sorted));
		a = json_object_new_array();
		if (sorted && a) {
			memcpy(sorted, r->dscp_prio, r->n_dscp_prio * sizeof(*sorted));
			qsort(sorted, r->n_dscp_prio, sizeof(*sorted), dscp_cmp);
			for (size_t i = 0; i < r->n_dscp_prio; i++) {
				char buf[16];

				snprintf(buf, sizeof(buf), "%u:%u", sorted[i].dscp, sorted[i].prio);
				json_object_array_add(a, json_object_new_string(buf));
			}
		}
		free(sorted);
	}
	json_object_object_add(o, "dscp", a);
	json_object_object_add(o, "tos", r->tos < 0 ? NULL : json_object_new_int(r->tos));
	json_object_object_add(o, "trust", r->trust == HALO_TRUST_UNSET ? NULL :
				    json_object_new_string(halo_trust_mode_name(r->trust)));
	json_object_object_add(o, "ecn", r->ecn_set ? prio_list(r->ecn_mask) : NULL);
	return o;
}

/* The MTU the run last saw on E's link: the observed value of its MTU
 * item (after an apply, what the verification found; in a check, the
 * live one), else the host table's; 0 when the link is missing. */
static uint32_t live_mtu(const struct halo_interface *e, const struct halo_host_link *hl,
			 const struct halo_plan *plan)
{
	_cleanup_free_ char *key = halo_strdup_printf("link/%s/mtu", e->name);
	const struct halo_item *it = key ? halo_plan_find(plan, key) : NULL;
	unsigned long v;
	char *end;

	if (!hl || !hl->found)
		return 0;
	if (it && it->iface == e && it->observed) {
		errno = 0;
		v = strtoul(it->observed, &end, 10);
		if (!errno && !*end && end != it->observed && v > 0 && v <= UINT32_MAX)
			return (uint32_t)v;
	}
	return hl->link.mtu;
}

static struct json_object *interface_json(const struct halo_interface *e,
					  const struct halo_host_link *hl,
					  const struct halo_plan *plan)
{
	struct json_object *o = json_object_new_object(), *a;
	const char *name = hl && hl->found ? hl->link.name : e->name;
	uint32_t mtu = e->mtu ? e->mtu : hl && hl->found ? hl->link.mtu : 0;
	uint32_t live = live_mtu(e, hl, plan);

	if (!o)
		return NULL;
	json_object_object_add(o, "name", name ? json_object_new_string(name) : NULL);
	json_object_object_add(o, "mtu", mtu ? json_object_new_int64(mtu) : NULL);
	json_object_object_add(o, "live_mtu", live ? json_object_new_int64(live) : NULL);
	a = json_object_new_array();
	for (size_t i = 0; a && i < e->addresses.n; i++) {
		char buf[64];

		halo_cidr_format(&e->addresses.v[i].cidr, buf, sizeof(buf));
		json_object_array_add(a, json_object_new_string(buf));
	}
	json_object_object_add(o, "addresses", a);
	if (e->roce.present)
		json_object_object_add(o, "roce", roce_json(&e->roce));
	return o;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static struct json_object *boot_json(const struct halo_config *cfg, const struct halo_plan *plan)
{
	const struct halo_boot_config *b = &cfg->boot;
	struct json_object *o = json_object_new_object(), *a;
	const char **params;
	size_t n = 0;

	if (!o)
		return NULL;
	json_object_object_add(o, "gtt_mib", !b->gtt_set ? NULL :
				    b->gtt_auto ? json_object_new_string("auto") :
				    json_object_new_int64((int64_t)b->gtt_mib));
	params = calloc(plan->n + 1, sizeof(*params));
	a = json_object_new_array();
	if (params && a) {
		for (size_t i = 0; i < plan->n; i++) {
			const struct halo_item *it = plan->items[i];

			if (it->cmdline_param && it->wanted && it->wanted[0])
				params[n++] = it->wanted;
		}
		qsort(params, n, sizeof(*params), str_cmp);
		for (size_t i = 0; i < n; i++)
			json_object_array_add(a, json_object_new_string(params[i]));
	}
	free(params);
	json_object_object_add(o, "params", a);
	return o;
}

struct json_object *halo_cluster_node_json(const struct halo_ctx *ctx,
					   const struct halo_config *cfg,
					   const struct halo_plan *plan)
{
	struct json_object *o = json_object_new_object(), *ifs;
	char *host = node_hostname(ctx);

	if (!o || !host) {
		json_object_put(o);
		free(host);
		return NULL;
	}
	json_object_object_add(o, "hostname", json_object_new_string(host));
	free(host);
	ifs = json_object_new_array();
	for (size_t i = 0; ifs && i < cfg->n_interfaces; i++) {
		const struct halo_interface *e = &cfg->interfaces[i];
		const struct halo_host_link *hl = NULL;

		for (size_t j = 0; ctx->host && j < ctx->host->n; j++)
			if (ctx->host->links[j].entry == e)
				hl = &ctx->host->links[j];
		json_object_array_add(ifs, interface_json(e, hl, plan));
	}
	json_object_object_add(o, "interfaces", ifs);
	if (cfg->boot.present)
		json_object_object_add(o, "boot", boot_json(cfg, plan));
	return o;
}
