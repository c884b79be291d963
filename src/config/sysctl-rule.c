/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysctl-rule.c: the multi_nic rule (sysctl-rule.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config/sysctl-rule.h"
#include "util/strv.h"

const struct halo_sysctl_rule halo_sysctl_rules[] = {
	{ "arp_ignore", "1" },   /* reply only for addresses of the port asked */
	{ "arp_announce", "2" }, /* source address of the port sending */
	{ "rp_filter", "2" },    /* loose: strict drops the other port's traffic */
	{ NULL, NULL },
};

bool halo_sysctl_rule_applies(const struct halo_config *cfg)
{
	switch (cfg->sysctl.multi_nic) {
	case HALO_MULTI_NIC_ON:
		return true;
	case HALO_MULTI_NIC_OFF:
		return false;
	case HALO_MULTI_NIC_AUTO:
		break;
	}
	return cfg->n_interfaces > 1;
}

static const struct halo_sysctl_rule *rule_of(const char *leaf)
{
	for (const struct halo_sysctl_rule *r = halo_sysctl_rules; r->leaf; r++)
		if (strcmp(r->leaf, leaf) == 0)
			return r;
	return NULL;
}

/* LEAF when KEY is net.ipv4.conf.WHO.LEAF, else NULL. */
static const char *leaf_of(const char *key, const char *who)
{
	size_t n = strlen(who);

	if (strncmp(key, HALO_SYSCTL_CONF_PREFIX, strlen(HALO_SYSCTL_CONF_PREFIX)) != 0)
		return NULL;
	key += strlen(HALO_SYSCTL_CONF_PREFIX);
	if (strncmp(key, who, n) != 0 || key[n] != '.')
		return NULL;
	return key + n + 1;
}

int halo_sysctl_rule_conflict(const char *key, const char *value, const char *ifname,
			      char **ret_why)
{
	const struct halo_sysctl_rule *r;
	const char *leaf;
	char *end;
	long v;

	*ret_why = NULL;
	leaf = leaf_of(key, ifname);
	if (leaf && (r = rule_of(leaf))) {
		if (strcmp(value, r->value) == 0)
			*ret_why = halo_strdup_printf("%s is already set by multi_nic (%s=%s on the "
						      "managed interfaces)", key, r->leaf, r->value);
		else
			*ret_why = halo_strdup_printf("%s=%s contradicts multi_nic (%s=%s on the "
						      "managed interfaces)", key, value, r->leaf,
						      r->value);
		return *ret_why ? 1 : -ENOMEM;
	}
	leaf = leaf_of(key, "all");
	if (!leaf || !(r = rule_of(leaf)))
		return 0;
	v = strtol(value, &end, 10);
	if (end == value || *end || v <= strtol(r->value, NULL, 10))
		return 0;
	*ret_why = halo_strdup_printf("%s=%s contradicts multi_nic (%s=%s on the managed "
				      "interfaces; the kernel uses the larger of \"all\" and the "
				      "interface's own)", key, value, r->leaf, r->value);
	return *ret_why ? 1 : -ENOMEM;
}
