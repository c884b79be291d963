/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysctl-rule.h: the multi_nic rule of sysctl = { } (sysctl-rule.c):
 * these keys of net.ipv4.conf.<if> on every managed interface, because
 * multi-NIC RDMA nodes answer ARP on the wrong port otherwise, and strict
 * reverse-path filtering drops replies that arrive on the other port
 * (docs/hardware.md, "sysctl"). The loader refuses settings that repeat
 * or contradict it; src/files writes it.
 */
#pragma once

#include <stdbool.h>

#include "config/halo-config.h"

/* The sysctl(8) names of the rule's keys start so, then the interface. */
#define HALO_SYSCTL_CONF_PREFIX "net.ipv4.conf."

struct halo_sysctl_rule {
	const char *leaf;
	const char *value;
};
extern const struct halo_sysctl_rule halo_sysctl_rules[]; /* {NULL} ends */

/* Whether the rule applies: "on", or "auto" with more than one interface
 * entry in the config (the count of entries, not of the links found, so a
 * missing NIC never flips it). */
bool halo_sysctl_rule_applies(const struct halo_config *cfg);

/* Whether setting KEY=VALUE contradicts (or repeats) the rule on the
 * interface whose key uses IFNAME: 0, or 1 with why in *RET_WHY (caller
 * frees), or -ENOMEM. Also "all" above the rule's value: the kernel uses
 * the larger of "all" and the interface's own value for these three. */
int halo_sysctl_rule_conflict(const char *key, const char *value, const char *ifname,
			      char **ret_why);
