/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ethtool.h: driver private flags over ethtool netlink
 * (ETHTOOL_MSG_PRIVFLAGS_GET / _SET), by flag name: ice's
 * "fw-lldp-agent" must be off before the host may change DCB.
 *
 * The flags travel as an ethtool bitset (net/ethtool/bitset.c). A reply
 * may be compact (SIZE, VALUE and MASK as u32 words, no names) or verbose
 * (SIZE and a BITS nest of BIT { INDEX, NAME, VALUE }); both are parsed.
 * Requests never ask for the compact form, so the kernel names the
 * flags. A SET is verbose and names only the flag it changes, without
 * NOMASK, so every other flag stays as it is.
 *
 * -ENOENT: no ethtool family, or no flag of that name on the device.
 */
#pragma once

#include <linux/ethtool.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct halo_nlt;
struct nlmsghdr;

/* The kernel keeps private flags in one u32. */
#define HALO_ETHTOOL_PRIVFLAGS_MAX 32

struct halo_ethtool_privflags {
	uint32_t n;        /* flags in the set (ETHTOOL_A_BITSET_SIZE) */
	uint32_t values;   /* bit i: flag i is on */
	uint32_t named;    /* bit i: names[i] is known (verbose form) */
	char names[HALO_ETHTOOL_PRIVFLAGS_MAX][ETH_GSTRING_LEN];
};

/* ---- encoders: into BUF (SIZE bytes); FAMILY is ethtool's genl id ---- */

int halo_ethtool_req_privflags_get(void *buf, size_t size, uint16_t family,
				   const char *ifname, struct nlmsghdr **ret_nlh);
int halo_ethtool_req_privflag_set(void *buf, size_t size, uint16_t family,
				  const char *ifname, const char *flag, bool on,
				  struct nlmsghdr **ret_nlh);

/* ---- parsers: LEN readable bytes; 0 or -EBADMSG ---- */

/* One ETHTOOL_MSG_PRIVFLAGS_GET_REPLY message. */
int halo_ethtool_parse_privflags(const void *nlh, size_t len,
				 struct halo_ethtool_privflags *ret);
/* The payload of a bitset nest (LEN bytes of attributes at ATTRS). */
int halo_ethtool_parse_bitset(const void *attrs, size_t len,
			      struct halo_ethtool_privflags *ret);

/* Index of the flag named NAME in F, or -ENOENT. */
int halo_ethtool_privflag_find(const struct halo_ethtool_privflags *f, const char *name);

/* ---- requests ---- */

int halo_ethtool_privflags_get(struct halo_nlt *t, const char *ifname,
			       struct halo_ethtool_privflags *ret);
int halo_ethtool_privflag_get(struct halo_nlt *t, const char *ifname,
			      const char *flag, bool *ret_on);
int halo_ethtool_privflag_set(struct halo_nlt *t, const char *ifname,
			      const char *flag, bool on);
