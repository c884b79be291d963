/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nicsim.h: the simulated NIC's model (tests only; see nicsim.c for the
 * LD_PRELOAD side and README.md for the pinned interface).
 */
#ifndef NICSIM_H
#define NICSIM_H

#include <json-c/json.h>
#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#define NICSIM_MAX_IFS 16
#define NICSIM_MAX_APPS 128
#define NICSIM_MAX_FLAGS 8

enum nicsim_profile { NICSIM_E810, NICSIM_CONNECTX };

/* ETS as the driver holds it: what struct ieee_ets reports is derived
 * from this per profile (ice mirrors it into the recommended table). */
struct nicsim_ets {
	uint8_t willing, cbs;
	uint8_t tc_bw[IEEE_8021QAZ_MAX_TCS];  /* per TC, percent */
	uint8_t tsa[IEEE_8021QAZ_MAX_TCS];    /* IEEE_8021QAZ_TSA_* per TC */
	uint8_t prio_tc[IEEE_8021QAZ_MAX_TCS];
};

/* ice's desired DCB configuration (qos_cfg.desired_dcbx_cfg): its set ops
 * edit this copy and commit it whole to the port (ice_pf_dcb_cfg).
 * ice_dcb_sw_dflt_cfg installs its default on the port without touching
 * it, so it is zero after the driver's probe and stale after each
 * fall-back to the default. */
struct nicsim_ice_desired {
	struct nicsim_ets ets;
	uint8_t pfc_cap, pfc_en;
	bool trust_dscp;  /* pfc_mode DSCP */
	bool apps_differ; /* ice's own APP table differs from the port's */
};

/* Which counter a request goes to. */
enum nicsim_proto { NICSIM_DCBNL, NICSIM_DEVLINK, NICSIM_ETHTOOL, NICSIM_PROTO_N };

struct nicsim_if {
	char name[IFNAMSIZ];
	enum nicsim_profile profile;
	char pci[32];             /* devlink handle pci/<pci> */
	bool bonded;
	unsigned flap_ms;         /* connectx: carrier down this long */
	unsigned flap_delay_ms;   /* connectx: and lost this long after the reply */
	bool no_reset;            /* e810 reset=off: DCB commits do not reset */
	/* planted=addr-clears-pfc: a fault no driver has, for tests of what
	 * no apply order avoids: an address or route added on the port
	 * turns PFC off. */
	bool planted_addr_clears_pfc;
	/* devlink info's firmware: e810 the NVM ("4.91", fw.psid.api),
	 * connectx fw.version ("16.35.2000"). */
	char fw[32];

	uint8_t dcbx;             /* DCB_CAP_DCBX_* bits, as getdcbx says */
	uint8_t pfc_cap, pfc_en, pfc_mbc;
	uint16_t pfc_delay;
	struct dcb_app app[NICSIM_MAX_APPS];
	size_t n_app;
	bool trust_dscp;          /* e810: L3 DSCP mode; connectx: trust dscp */
	struct nicsim_ets ets;
	struct nicsim_ice_desired desired; /* e810 */
	/* devlink params as PARAM_GET reads them (for a driverinit one the
	 * value the next reload loads), and the values the device runs with. */
	bool enable_roce, enable_iwarp;
	bool active_roce, active_iwarp;
	uint32_t priv_flags;      /* bit i = the profile's flag name i */

	unsigned long link_flaps;  /* carrier lost and regained, admin UP */
	unsigned long port_resets; /* administrative down and up (ice) */
	unsigned long reloads;     /* devlink reloads, action driver_reinit */
	unsigned long get[NICSIM_PROTO_N], set[NICSIM_PROTO_N];
};

/* A reply datagram queued for a socket. */
struct nicsim_dgram {
	struct nicsim_dgram *next;
	size_t len;
	size_t cap; /* bytes of data allocated */
	unsigned char data[];
};

/* What handling one request produced: datagrams in order. */
struct nicsim_out {
	struct nicsim_dgram *head, **tail;
};

/* ---- nicsim.c ---- */
/* The NICSIM_* variables as the process started with them, read once:
 * nothing a simulated process runs sets them (a test changes them
 * between processes). */
struct nicsim_env {
	const char *config, *state, *log, *bonds;
	bool defer_gets; /* NICSIM_DEFER_GETS=1 or drop */
	bool drop_gets;  /* NICSIM_DEFER_GETS=drop */
};
const struct nicsim_env *nicsim_env(void);
/* NAME's index in the caller's namespace, 0 when it has no such link
 * (if_nametoindex, remembered while that is sound: see nicsim.c). */
unsigned nicsim_ifindex(const char *name);

/* ---- nicsim-config.c ---- */
int nicsim_config_load(const char *path, struct nicsim_if *ifs, size_t max,
		       size_t *ret_n, char *err, size_t errlen);
const char *const *nicsim_priv_flag_names(enum nicsim_profile p, size_t *ret_n);
int nicsim_priv_flag_index(enum nicsim_profile p, const char *name);
/* Whether S is a firmware version the profile P could report. */
bool nicsim_fw_valid(enum nicsim_profile p, const char *s);
#define NICSIM_E810_FW_LLDP 1 /* index of fw-lldp-agent in e810's list */

/* ---- nicsim-json.c: a state file's values ----
 * One value; a member's key is set in its object's children. The getters'
 * answers are json-c's for the same value (json_object_get_int,
 * _get_int64, _get_boolean); s is a string's text, NULL otherwise. */
struct nicsim_json {
	enum json_type type;
	bool b;
	int32_t i32;
	int64_t i64;
	const char *s, *key;
	size_t s_len, key_len;
	size_t n; /* members or elements */
	struct nicsim_json *child, *next;
};
struct nicsim_json_doc {
	struct nicsim_json *nodes;
	size_t n;
};
/* The object TEXT (LEN bytes) holds, when it is plain JSON of the
 * simulator's kind (nicsim-json.c says which); NULL: ask json-c. */
struct nicsim_json *nicsim_json_read(struct nicsim_json_doc *doc, const char *text, size_t len);
/* The values of a json-c tree (which must outlive the copy); NULL: ENOMEM. */
struct nicsim_json *nicsim_json_from_jsonc(struct nicsim_json_doc *doc, json_object *o);
void nicsim_json_free(struct nicsim_json_doc *doc);
/* json_object_object_get_ex: false unless O is an object with KEY. */
bool nicsim_json_get(const struct nicsim_json *o, const char *key,
		     const struct nicsim_json **ret);
/* Element I of array A, NULL past its end. */
const struct nicsim_json *nicsim_json_idx(const struct nicsim_json *a, size_t i);

/* ---- nicsim-state.c ---- */
/* 1 loaded (*RET_ST, when not NULL, the stat of the file read), 0 no
 * file (or no NICSIM_STATE), -errno. */
int nicsim_state_load(struct nicsim_if *nic, struct stat *ret_st);
/* stat() of NIC's state file; -ENOENT without NICSIM_STATE. */
int nicsim_state_stat(const struct nicsim_if *nic, struct stat *st);
int nicsim_state_save(const struct nicsim_if *nic);
/* The state file's text into NIC as nicsim_state_load takes it: 0 or
 * -errno. FAST: the reader of nicsim-json.c first (json-c alone without:
 * the reference it is tested against). */
int nicsim_state_parse(struct nicsim_if *nic, const char *text, size_t len, bool fast);

/* Handlers return 0 (data messages, if any, appended to OUT), -errno
 * (nothing appended; *ret_msg may name the extended ACK text) or
 * NICSIM_PASS: not ours, the kernel answers. */
#define NICSIM_PASS 1

/* ---- nicsim-ice.c, nicsim-mlx5.c: each driver's dcbnl ops ----
 * Return 0 or a negative errno (the dcbnl verdict); *ret_msg may name the
 * driver's log line. setdcbx returns the driver's u8. */
int nicsim_ice_setets(struct nicsim_if *nic, const struct ieee_ets *ets, const char **ret_msg);
int nicsim_ice_setpfc(struct nicsim_if *nic, const struct ieee_pfc *pfc, const char **ret_msg);
int nicsim_ice_setapp(struct nicsim_if *nic, const struct dcb_app *app, const char **ret_msg);
int nicsim_ice_delapp(struct nicsim_if *nic, const struct dcb_app *app, const char **ret_msg);
uint8_t nicsim_ice_setdcbx(struct nicsim_if *nic, uint8_t mode);
void nicsim_ice_getets(const struct nicsim_if *nic, struct ieee_ets *ets);
/* ice_dcb_sw_dflt_cfg: one TC, ETS willing, PFC on no priority, L2. */
void nicsim_ice_sw_default(struct nicsim_if *nic);
/* The ETS ice installs on the switch to L3 DSCP mode. */
void nicsim_ice_dscp_ets(struct nicsim_ets *ets);
/* The desired configuration made equal to what the port holds, as after
 * a commit. */
void nicsim_ice_desired_sync(struct nicsim_if *nic);
/* ice_dcb_get_mode: the DCBX bits for the agent on or off. */
uint8_t nicsim_ice_dcbx_mode(bool agent);
/* ice_dcb_get_num_tc: contiguous TCs from TC0, else 1. */
unsigned nicsim_ice_num_tc(const struct nicsim_ets *ets);

int nicsim_mlx5_setets(struct nicsim_if *nic, const struct ieee_ets *ets, const char **ret_msg);
int nicsim_mlx5_setpfc(struct nicsim_if *nic, const struct ieee_pfc *pfc, const char **ret_msg);
int nicsim_mlx5_setapp(struct nicsim_if *nic, const struct dcb_app *app, const char **ret_msg);
int nicsim_mlx5_delapp(struct nicsim_if *nic, const struct dcb_app *app, const char **ret_msg);
uint8_t nicsim_mlx5_setdcbx(struct nicsim_if *nic, uint8_t mode);
void nicsim_mlx5_getets(const struct nicsim_if *nic, struct ieee_ets *ets);
/* mlx5e_ets_init: every TC vendor, prio 0 on TC1 and prio 1 on TC0. */
void nicsim_mlx5_ets_init(struct nicsim_if *nic);
/* mlx5e_dcbnl_initialize: CEE|IEEE, plus HOST when the firmware's DCBX
 * mode is host. */
uint8_t nicsim_mlx5_dcbx_mode(bool host);

/* Shared by both: the APP table the kernel keeps for the netdev. */
ssize_t nicsim_app_find(const struct nicsim_if *nic, uint8_t sel, uint16_t prot);
int nicsim_app_add(struct nicsim_if *nic, const struct dcb_app *app);
void nicsim_app_remove(struct nicsim_if *nic, size_t i);
/* Whether a DSCP APP entry exists (both drivers' trust state). */
bool nicsim_app_has_dscp(const struct nicsim_if *nic);

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
#define NICSIM_GENL_ATTRS 256
/* The request's attributes after HDR bytes of family header into TB
 * (NICSIM_GENL_ATTRS slots); -EINVAL when they do not parse. */
int nicsim_genl_parse(const struct nlmsghdr *req, size_t hdr, const struct nlattr **tb);
/* A NUL-terminated string attribute, NULL when absent or malformed. */
const char *nicsim_str_attr(const struct nlattr *a);
bool nicsim_is_dump(const struct nlmsghdr *req);
/* Whether the interface exists in the caller's namespace now. */
bool nicsim_present(const struct nicsim_if *nic);
/* A reply with the request's type and seq, generic header CMD/VERSION. */
struct nlmsghdr *nicsim_genl_new(struct nicsim_out *out, const struct nlmsghdr *req,
				 uint32_t portid, uint8_t cmd, uint8_t version,
				 uint16_t flags);
/* Which simulated interface (index into IFS) REQ is about, -1 when it
 * names none of them, or NICSIM_PASS when the kernel should answer. */
int nicsim_genl_route(const struct nicsim_if *ifs, size_t n_ifs,
		      const struct nicsim_families *fam,
		      const struct nlmsghdr *req, int *ret_idx);
int nicsim_genl_handle(struct nicsim_if *ifs, size_t n_ifs, int idx,
		       const struct nicsim_families *fam,
		       const struct nlmsghdr *req, uint32_t portid,
		       struct nicsim_out *out, const char **ret_msg);

/* ---- nicsim-devlink.c ---- */
int nicsim_devlink_handle(struct nicsim_if *ifs, size_t n_ifs, int idx,
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
/* One datagram done with (delivered or dropped); under the library's
 * lock, as the queues are. */
void nicsim_dgram_free(struct nicsim_dgram *d);

/* ---- nicsim-kernel.c: the real kernel, on sockets of the simulator's
 * own (never the program's, never counted as its requests) ---- */
/* REQ to the kernel, each reply message to CB; the ACK's errno. */
int nicsim_kernel_request(int proto, struct nlmsghdr *req,
			  int (*cb)(const struct nlmsghdr *, void *), void *data);
/* The ids of N generic netlink families in the kernel, asked at once;
 * IDS[i] 0 when the kernel has no family NAMES[i] (or cannot say). */
void nicsim_kernel_families(const char *const *names, uint16_t *ids, size_t n);
/* ice_dcbnl_devreset: dev_close then dev_open of the netdev. */
int nicsim_port_reset(struct nicsim_if *nic);
/* mlx5_toggle_port_link: carrier lost and regained, admin state kept. */
int nicsim_carrier_flap(struct nicsim_if *nic);

/* ---- nicsim-bond.c ---- */
/* Shows the links NICSIM_BONDS names as bonds in the rtnetlink messages of
 * BUF (LEN bytes, as the kernel sent them). */
void nicsim_bond_rewrite(void *buf, size_t len);

#endif
