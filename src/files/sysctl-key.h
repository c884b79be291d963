/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysctl-key.h: the pure part of the sysctl drop-in and runtime values
 * (src/files/sysctl.c): what a key and a value may be, the multi-NIC rule,
 * the sysctl.d(5) name of an interface's key, its /proc/sys path, value
 * comparison and the drop-in's rendering. Used by the config parser too.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "config/halo-config.h"

#define HALO_SYSCTL_DROPIN "/etc/sysctl.d/90-halo-provision.conf"

/* One key of the drop-in and its runtime item. */
struct halo_sysctl {
	char *name;  /* sysctl(8) name: "net.ipv4.conf.eth0/100.arp_ignore" */
	char *value; /* tokens joined by single spaces: "4096 87380 6291456" */
	int line;    /* the settings element; 0: implied by the multi_nic rule */
};

/* The multi_nic rule: these keys of net.ipv4.conf.<if> on every managed
 * interface (multi-NIC RDMA nodes answer ARP on the wrong port otherwise,
 * and strict reverse-path filtering drops replies that arrive on the
 * other port). */
struct halo_sysctl_rule {
	const char *leaf;
	const char *value;
};
extern const struct halo_sysctl_rule halo_sysctl_rules[]; /* {NULL} ends */

/* Whether the rule applies: "on", or "auto" with more than one interface
 * entry in the config (the count of entries, not of the links found, so a
 * missing NIC never flips it). */
bool halo_sysctl_rule_applies(const struct halo_config *cfg);

/* Syntax checks: NULL when fine, else why not (static text). A key is
 * dot-separated names of [a-z0-9_-] (no "/", no empty name, not starting
 * with "-", which sysctl.d reads as "ignore errors"); a value is tokens of
 * [A-Za-z0-9._:,/+@%-] separated by single spaces. A setting is
 * "key=value", blanks allowed around "=". */
const char *halo_sysctl_check_key(const char *key);
const char *halo_sysctl_check_value(const char *value);
const char *halo_sysctl_check_setting(const char *setting);
/* "key = value" -> "key=value" in place (a checked setting). */
void halo_sysctl_setting_normalize(char *setting);
/* Splits a normalized setting at its "=". */
int halo_sysctl_setting_split(const char *setting, char **ret_key, char **ret_value);

/* Whether IFNAME can be written into a key (letters, digits, "_", "-",
 * "."): NULL or why not. */
const char *halo_sysctl_check_ifname(const char *ifname);
/* "net.ipv4.conf.IFNAME.LEAF" with every "." of IFNAME written as "/"
 * (sysctl.d(5): the first separator is a dot, so dots and slashes swap). */
char *halo_sysctl_iface_name(const char *ifname, const char *leaf);
/* "/proc/sys/..." of a sysctl(8) NAME (first separator "." : "." and "/"
 * swap; first separator "/": kept). NULL on OOM. */
char *halo_sysctl_path(const char *name);

/* Whether setting KEY=VALUE contradicts (or repeats) the rule on the
 * interface whose key uses IFNAME: NULL, or why, in RET_WHY (caller
 * frees). Also "all" above the rule's value: the kernel uses the larger
 * of "all" and the interface's own value for these three. */
int halo_sysctl_rule_conflict(const char *key, const char *value, const char *ifname,
			      char **ret_why);

/* A value as read from /proc/sys ("4096\t87380\t6291456\n") in the form
 * values are compared and shown (single spaces, no newline). */
char *halo_sysctl_value_normalize(const char *raw);

/* The drop-in for the N keys of V (rule keys, line 0, first): NULL in
 * *RET when N is 0 (no file). 0 or -errno. */
int halo_sysctl_render(const struct halo_sysctl *v, size_t n, char **ret);

void halo_sysctl_free_all(struct halo_sysctl *v, size_t n);
