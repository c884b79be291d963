/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nicsim.h: the simulated NIC's model (tests only; see nicsim.c for the
 * LD_PRELOAD side and README.md for the pinned interface).
 */
#ifndef NICSIM_H
#define NICSIM_H

#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#define NICSIM_MAX_IFS 16
#define NICSIM_MAX_APPS 128
#define NICSIM_MAX_FLAGS 8

enum nicsim_profile { NICSIM_E810, NICSIM_CONNECTX };

/* Which counter a request goes to. */
enum nicsim_proto { NICSIM_DCBNL, NICSIM_DEVLINK, NICSIM_ETHTOOL, NICSIM_PROTO_N };

struct nicsim_if {
	char name[IFNAMSIZ];
	enum nicsim_profile profile;
	char pci[32];             /* devlink handle pci/<pci> */
	bool bonded;
	unsigned flap_ms;         /* connectx: carrier down this long */
	/* devlink info's firmware: e810 the NVM ("4.91", fw.psid.api),
	 * connectx fw.version ("16.35.2000"). */
	char fw[32];

	uint8_t dcbx;             /* DCB_CAP_DCBX_* bits, as getdcbx says */
	uint8_t pfc_cap, pfc_en, pfc_mbc;
	uint16_t pfc_delay;
	struct dcb_app app[NICSIM_MAX_APPS];
	size_t n_app;
	bool trust_dscp;          /* e810: L3 DSCP mode; connectx: trust dscp */
	bool enable_roce, enable_iwarp;
	uint32_t priv_flags;      /* bit i = the profile's flag name i */

	unsigned long link_flaps;
	unsigned long get[NICSIM_PROTO_N], set[NICSIM_PROTO_N];
};

/* A reply datagram queued for a socket. */
struct nicsim_dgram {
	struct nicsim_dgram *next;
	size_t len;
	unsigned char data[];
};

/* What handling one request produced: datagrams in order. */
struct nicsim_out {
	struct nicsim_dgram *head, **tail;
};

/* ---- nicsim-config.c ---- */
int nicsim_config_load(const char *path, struct nicsim_if *ifs, size_t max,
		       size_t *ret_n, char *err, size_t errlen);
const char *const *nicsim_priv_flag_names(enum nicsim_profile p, size_t *ret_n);
int nicsim_priv_flag_index(enum nicsim_profile p, const char *name);
/* Whether S is a firmware version the profile P could report. */
bool nicsim_fw_valid(enum nicsim_profile p, const char *s);
#define NICSIM_E810_FW_LLDP 1 /* index of fw-lldp-agent in e810's list */

/* ---- nicsim-state.c ---- */
int nicsim_state_load(struct nicsim_if *nic);
/* stat() of NIC's state file; -ENOENT without NICSIM_STATE. */
int nicsim_state_stat(const struct nicsim_if *nic, struct stat *st);
int nicsim_state_save(const struct nicsim_if *nic);

/* Handlers return 0 (data messages, if any, appended to OUT), -errno
 * (nothing appended; *ret_msg may name the extended ACK text) or
 * NICSIM_PASS: not ours, the kernel answers. */
#define NICSIM_PASS 1

/* ---- nicsim-dcb.c ---- */
const char *nicsim_dcb_ifname(const struct nlmsghdr *req);
int nicsim_dcb_handle(struct nicsim_if *nic, const struct nlmsghdr *req,
		      uint32_t portid, struct nicsim_out *out,
		      const char **ret_msg);

/* ---- nicsim-genl.c ---- */
struct nicsim_families {
	uint16_t devlink, ethtool;
	bool devlink_ours, ethtool_ours; /* answered GETFAMILY ourselves */
};
/* Which simulated interface (index into IFS) REQ is about, -1 when it
 * names none of them, or NICSIM_PASS when the kernel should answer. */
int nicsim_genl_route(const struct nicsim_if *ifs, size_t n_ifs,
		      const struct nicsim_families *fam,
		      const struct nlmsghdr *req, int *ret_idx);
int nicsim_genl_handle(struct nicsim_if *ifs, size_t n_ifs, int idx,
		       const struct nicsim_families *fam,
		       const struct nlmsghdr *req, uint32_t portid,
		       struct nicsim_out *out, const char **ret_msg);

/* ---- nicsim-reply.c ---- */
struct nlmsghdr *nicsim_msg_new(struct nicsim_out *out, size_t cap);
void nicsim_msg_commit(struct nicsim_out *out, struct nlmsghdr *nlh);
#define NICSIM_CAP_ACK 1 /* the socket's NETLINK_CAP_ACK */
#define NICSIM_EXT_ACK 2 /* the socket's NETLINK_EXT_ACK */
int nicsim_out_ack(struct nicsim_out *out, const struct nlmsghdr *req,
		   uint32_t portid, int err, const char *msg, unsigned sockflags);
int nicsim_out_done(struct nicsim_out *out, const struct nlmsghdr *req,
		    uint32_t portid);
void nicsim_out_free(struct nicsim_out *out);

/* ---- nicsim.c (link control through the real kernel) ---- */
int nicsim_flap(struct nicsim_if *nic);

#endif
