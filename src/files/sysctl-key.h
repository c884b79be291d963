/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysctl-key.h: the pure part of the sysctl drop-in and runtime values
 * (src/files/sysctl.c): the sysctl.d(5) name of an interface's key, its
 * /proc/sys path, value comparison and the drop-in's rendering. What a
 * setting may be, and the multi_nic rule, are the config's
 * (config/sysctl-setting.h, config/sysctl-rule.h).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#define HALO_SYSCTL_DROPIN "/etc/sysctl.d/90-halo-provision.conf"

/* One key of the drop-in and its runtime item. */
struct halo_sysctl {
	char *name;  /* sysctl(8) name: "net.ipv4.conf.eth0/100.arp_ignore" */
	char *value; /* tokens joined by single spaces: "4096 87380 6291456" */
	int line;    /* the settings element; 0: implied by the multi_nic rule */
};

/* Whether IFNAME can be written into a key (letters, digits, "_", "-",
 * "."): NULL or why not. */
const char *halo_sysctl_check_ifname(const char *ifname);
/* "net.ipv4.conf.IFNAME.LEAF" with every "." of IFNAME written as "/"
 * (sysctl.d(5): the first separator is a dot, so dots and slashes swap). */
char *halo_sysctl_iface_name(const char *ifname, const char *leaf);
/* "/proc/sys/..." of a sysctl(8) NAME (first separator "." : "." and "/"
 * swap; first separator "/": kept). NULL on OOM. */
char *halo_sysctl_path(const char *name);

/* A value as read from /proc/sys ("4096\t87380\t6291456\n") in the form
 * values are compared and shown (single spaces, no newline). */
char *halo_sysctl_value_normalize(const char *raw);

/* The drop-in for the N keys of V (rule keys, line 0, first): NULL in
 * *RET when N is 0 (no file). 0 or -errno. */
int halo_sysctl_render(const struct halo_sysctl *v, size_t n, char **ret);

void halo_sysctl_free_all(struct halo_sysctl *v, size_t n);
