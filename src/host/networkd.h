/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * networkd.h: whether systemd-networkd would manage a link, decided the
 * way networkd decides (systemd.network(5)): the .network files of its
 * search path under the root, a file in an earlier directory hiding one
 * of the same name in a later one, the first file in lexical order of
 * names whose [Match] holds, each file with its drop-ins (NAME.d/ *.conf)
 * applied after it. Plus networkd's own runtime record of a
 * link, /run/systemd/netif/links/<ifindex>, when it has one. Netplan
 * renders its YAML into /run/systemd/network, so this covers it too.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "halo.h"

/* The search path, earliest first (systemd's CONF_PATHS("systemd/network")). */
#define HALO_NETWORKD_DIRS                                                     \
	{ "/etc/systemd/network", "/run/systemd/network",                      \
	  "/usr/local/lib/systemd/network", "/usr/lib/systemd/network",        \
	  "/lib/systemd/network" }
#define HALO_NETWORKD_STATE_FMT "/run/systemd/netif/links/%d"

/* What [Match] compares, of one link. NULL or 0-length: unknown. */
struct halo_networkd_link {
	const char *name;
	char *const *altnames;     /* NULL-terminated, or NULL */
	const uint8_t *mac;
	size_t mac_len;
	const uint8_t *perm_mac;
	size_t perm_mac_len;
	const char *driver;        /* ID_NET_DRIVER: "ice", "veth" */
	const char *path;          /* udev's ID_PATH: "pci-0000:c2:00.0" */
	const char *type;          /* "ether", "bond", "bridge", ... */
	const char *kind;          /* IFLA_INFO_KIND, NULL for a NIC */
};

/* The [Match] lists of one file, each a NULL-terminated vector of the
 * words as written ("!" kept on a negated list's words). */
struct halo_networkd_match {
	char **name, **path, **driver, **type, **kind, **property;
	char **ssid, **wlan_type, **mac, **perm_mac, **bssid;
	/* Host=, Virtualization=, KernelCommandLine=...: conditions on the
	 * machine, taken as holding (the root is not the running machine). */
	bool conditions;
};

struct halo_networkd_file {
	char *path;     /* inside the root: "/run/systemd/network/10-x.network" */
	bool masked;    /* empty, or a symlink to /dev/null: hides, never matches */
	bool unmanaged; /* [Link] Unmanaged=yes */
	struct halo_networkd_match match;
};

struct halo_networkd_files {
	struct halo_networkd_file *v;
	size_t n;
};

/* Parses the text of a .network file into F's match and unmanaged
 * (F->path untouched). 0 or -ENOMEM. Pure. */
int halo_networkd_parse(const char *text, struct halo_networkd_file *f);

/* Whether networkd would take F for L: not masked, some [Match] key or
 * condition given (networkd ignores a file without), and every list
 * holds. Pure. */
bool halo_networkd_matches(const struct halo_networkd_file *f,
			   const struct halo_networkd_link *l);

/* networkd's MAC syntax: "aa:bb:cc:dd:ee:ff", "aa-bb-...", "aabb.ccdd.eeff".
 * 6 bytes into RET, or -EINVAL. Pure. */
int halo_networkd_parse_mac(const char *s, uint8_t ret[6]);

/*
 * The .network files of the search path under the root, in the order
 * networkd tries them, SKIP (a file name, or NULL) left out wherever it
 * is: the caller's own file, so that what would manage a link without it
 * is known. A FIFO, device or socket named *.network, a symlink other
 * than a mask, or a file that cannot be read is an error: -errno with
 * *RET_WHY "<path as shown>: reason" (caller frees).
 */
int halo_networkd_load(const struct halo_ctx *ctx, const char *skip,
		       struct halo_networkd_files *ret, char **ret_why);
void halo_networkd_files_free(struct halo_networkd_files *files);
/* Frees what F holds (path and lists) and zeroes it. */
void halo_networkd_file_clear(struct halo_networkd_file *f);

/* The first file that matches L, or NULL. */
const struct halo_networkd_file *halo_networkd_first(const struct halo_networkd_files *files,
						     const struct halo_networkd_link *l);

/* networkd's runtime record of a link. */
struct halo_networkd_state {
	char network_file[256]; /* NETWORK_FILE=, "" none */
	char admin_state[32];   /* ADMIN_STATE=: configured, unmanaged, ... */
};

/* Parses the record's text ("KEY=value" lines). Pure. */
void halo_networkd_parse_state(const char *text, struct halo_networkd_state *ret);

/* The record of IFINDEX: 0, -ENOENT when networkd has none (not running,
 * or the link unknown to it), else -errno with *RET_WHY as for load. */
int halo_networkd_link_state(const struct halo_ctx *ctx, int ifindex,
			     struct halo_networkd_state *ret, char **ret_why);

/* Whether the state says networkd manages the link (a network file
 * assigned, not unmanaged) with a file other than SKIP_PATH. */
bool halo_networkd_state_manages(const struct halo_networkd_state *st,
				 const char *skip_path);

/* systemd-networkd in the root: installed, not masked, and enabled by a
 * unit link or running (its runtime directory exists). */
bool halo_networkd_present(const struct halo_ctx *ctx);
