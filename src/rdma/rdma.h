/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rdma.h: the rdma subsystem. Each selected interface entry with
 * a `roce` group (and roce.enable not false) becomes rdma/<entry>/... items
 * on the live link of the host table, all read from the root's sysfs and
 * configfs:
 *   device      the RDMA device and port of the link (never assumed: looked
 *               up under /sys/class/net/<if>/device/infiniband/)
 *   port-state  ports/<p>/state and phys_state: ACTIVE / LinkUp
 *   gid-index   the RoCE v2 GID of the entry's IPv4 address
 *   rdma-cm     rdma_cm default_roce_mode "RoCE v2" and default_roce_tos
 *               (roce.tos) of the device's port, configfs
 * and the env file (state.env_file) for RCCL/NCCL, Gloo and containers.
 *
 * Facts the run itself may still bring (the modules phase loads irdma,
 * the links phase adds the address the GID is made of) are never failed
 * on the first observation of an apply: the item is drift, and its apply,
 * which runs after those phases, waits briefly for them and fails with the
 * reason when they do not come.
 *
 * Private to src/rdma below the planner's prototype.
 */
#pragma once

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "config/halo-config.h"
#include "engine/plan.h"
#include "halo.h"
#include "util/errors.h"

/* Plans the rdma items and the env file on ctx->host (after the modules
 * phase). RDMA interfaces whose roce.tos differ (the env file's
 * NCCL_IB_TC is one value) are a config error in ERRS with FILE:LINE:
 * -EINVAL, nothing planned. state.env_file without any RDMA interface is
 * a run warning. */
int halo_rdma_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		   struct halo_plan *plan, struct halo_errors *errs);

/* ---- private: sysfs lookups (sysfs.c, gid.c) ---- */

#define HALO_IBDEV_MAX 64

/* A sysfs path built in place: appending a part is a copy where snprintf
 * would parse a format, and a lookup builds dozens of paths. What does
 * not fit is cut off, as snprintf cuts it. */
struct halo_rdma_path {
	size_t len;
	char s[512];
};

static inline void halo_rdma_path_add(struct halo_rdma_path *p, const char *part)
{
	size_t n = strlen(part), room = sizeof(p->s) - 1 - p->len;

	if (n > room)
		n = room;
	memcpy(p->s + p->len, part, n);
	p->len += n;
	p->s[p->len] = '\0';
}

/* Back to the first LEN characters (a length it had before). */
static inline void halo_rdma_path_cut(struct halo_rdma_path *p, size_t len)
{
	p->len = len;
	p->s[len] = '\0';
}

static inline void halo_rdma_path_set(struct halo_rdma_path *p, const char *s)
{
	halo_rdma_path_cut(p, 0);
	halo_rdma_path_add(p, s);
}

/* V in decimal, as "%u" prints it. */
static inline void halo_rdma_path_uint(struct halo_rdma_path *p, unsigned v)
{
	char d[16];
	size_t i = sizeof(d) - 1;

	d[i] = '\0';
	do
		d[--i] = (char)('0' + v % 10);
	while (v /= 10);
	halo_rdma_path_add(p, d + i);
}

/* Reads the attribute PATH into *RET (NUL-terminated, caller frees):
 * 0 or -errno. A seam so the scans can be tested with a reader that fails
 * like the kernel does (an empty GID entry reads EINVAL). */
typedef int (*halo_rdma_reader)(void *userdata, const char *path, char **ret);

/* The default reader: halo_read_file inside CTX's root (USERDATA = ctx). */
int halo_rdma_read_root(void *userdata, const char *path, char **ret);

/* Where a link's RDMA traffic goes. */
struct halo_rdma_dev {
	char ibdev[HALO_IBDEV_MAX]; /* "rocep194s0f0", "irdma0", "mlx5_0" */
	unsigned port;              /* 1-based */
	bool iwarp;                 /* node_type says RNIC (iWARP) */
};

/*
 * The RDMA device of link IFNAME: the only entry of
 * /sys/class/net/IFNAME/device/infiniband/, and its port whose GID ndevs
 * name IFNAME (port 1 when the device has one port and no ndev names it
 * yet). 0; -ENODEV when there is none (no RDMA driver bound, iWARP...),
 * -ENOTUNIQ when several entries (*RET_WHY set); -errno, with *RET_WHY
 * naming the file that could not be read (unless -ENOMEM).
 */
int halo_rdma_find_dev(struct halo_ctx *ctx, const char *ifname,
		       struct halo_rdma_dev *ret, char **ret_why);

/* The reason link IFNAME (driver DRIVER) has no RDMA device, one line
 * (module not loaded, iWARP mode, ...). Caller frees; NULL on ENOMEM. */
char *halo_rdma_why_no_dev(struct halo_ctx *ctx, const char *ifname,
			   const char *driver);

/* ports/<p>/state and phys_state as the kernel prints them ("4: ACTIVE",
 * "5: LinkUp"), trailing newline removed, into the buffers. 0 or -errno,
 * with *RET_WHY "PATH: REASON" (halo_root_read_error) unless -ENOMEM. */
int halo_rdma_port_state(struct halo_ctx *ctx, const struct halo_rdma_dev *dev,
			 char *state, size_t state_len, char *phys, size_t phys_len,
			 char **ret_why);

/*
 * Parses a GID as sysfs prints it (%pI6: 8 groups of 4 hex digits, a
 * trailing newline allowed) into 16 bytes. 0 or -EINVAL.
 */
int halo_rdma_gid_parse(const char *text, uint8_t gid[16]);

/* The result of a GID table scan. */
struct halo_rdma_gid {
	int index;        /* the RoCE v2 GID of the address; -1: none */
	unsigned n_v4;    /* RoCE v2 IPv4 GIDs of the link (any address), up
			   * to the address's own when it is found */
	int first_v4;     /* the first of them, -1: none */
	unsigned n_empty; /* entries that read EINVAL (empty), skipped */
};

/*
 * Scans gids/<i>, gid_attrs/types/<i> and gid_attrs/ndevs/<i> under
 * DIR (".../ports/<p>") through READ: the entry of type "RoCE v2", ndev
 * IFNAME and IPv4-mapped address ADDR (4 bytes, network order). A GID
 * that is not IPv4-mapped (a zero one included) is skipped, its
 * attributes not read; a type or ndev that reads EINVAL or ENODATA is an empty
 * entry (the kernel's answer for one) and skipped. A FIFO or device
 * planted there (-HALO_ENOTREG, util/rootfs.h) is no empty entry: it is
 * returned, like every other failed read. INDICES: the entry
 * numbers to look at, ascending; the scan stops at ADDR's entry, and
 * reads them all only when ADDR is NULL or has none. 0 (ret->index -1
 * when none matches) or -errno for another read failure.
 */
int halo_rdma_gid_scan(halo_rdma_reader rd, void *userdata, const char *dir,
		       const unsigned *indices, size_t n, const char *ifname,
		       const uint8_t addr[4], struct halo_rdma_gid *ret);

/* The scan on DEV's port in CTX's root (entries listed from gids/).
 * On -errno (but -ENOMEM), *RET_WHY is "PATH: REASON" for the file or
 * directory that could not be read (halo_root_read_error). */
int halo_rdma_gid_find(struct halo_ctx *ctx, const struct halo_rdma_dev *dev,
		       const char *ifname, const uint8_t addr[4],
		       struct halo_rdma_gid *ret, char **ret_why);

/* ---- private: what one observation pass found of a link (seen.c) ---- */

struct halo_rdma_link;

/* The device of a link and its GID table scan, kept for the rest of the
 * observation pass (ctx->generation) they were read in; shared by the
 * items of the link, counted. */
struct halo_rdma_seen {
	unsigned refs;
	unsigned long generation; /* ctx->generation of what is kept */
	bool have_dev, have_gid;
	struct halo_rdma_dev dev;
	struct halo_rdma_gid gid; /* of dev's port */
};

/* A new one (one reference), or NULL. */
struct halo_rdma_seen *halo_rdma_seen_new(void);
struct halo_rdma_seen *halo_rdma_seen_ref(struct halo_rdma_seen *s);
void halo_rdma_seen_unref(struct halo_rdma_seen *s);

/*
 * halo_rdma_find_dev and halo_rdma_gid_find on link L (its address),
 * answered from l->seen when OBSERVING and it was read in this
 * generation. Not OBSERVING (an apply, which runs while the phases change
 * the host): read anew, and what l->seen kept is dropped.
 */
int halo_rdma_link_dev(struct halo_ctx *ctx, const struct halo_rdma_link *l, bool observing,
		       struct halo_rdma_dev *ret, char **ret_why);
int halo_rdma_link_gid(struct halo_ctx *ctx, const struct halo_rdma_link *l,
		       const struct halo_rdma_dev *dev, bool observing,
		       struct halo_rdma_gid *ret, char **ret_why);

/* Sleeps MS milliseconds (the polls of apply). */
void halo_rdma_sleep_ms(unsigned ms);

/* ---- private: items (items.c, cm.c, envfile.c) ---- */

enum halo_rdma_kind {
	HALO_RDMA_DEVICE,
	HALO_RDMA_PORT_STATE,
	HALO_RDMA_GID_INDEX,
	HALO_RDMA_CM, /* default_roce_tos and default_roce_mode together */
};

/* What an item of one interface needs, copied from the host table. */
struct halo_rdma_link {
	char entry[64];            /* the config entry's name */
	char ifname[IF_NAMESIZE];  /* the live link */
	char driver[32];           /* "ice", "mlx5_core", "veth"; "" none */
	bool has_addr;             /* an IPv4 address is configured */
	uint8_t addr[4];           /* the first configured IPv4 address */
	char addr_text[16];
	int tos;                   /* roce.tos, -1 unset */
	/* The modules phase still has work (the device may come with it). */
	bool modules_pending;
	/* roce/<entry>/enable, planned to turn RoCE on: while it differs, ice
	 * may still swap its iWARP device (or none) for a RoCE one in this
	 * run. NULL: not planned (roce.enable is not true, or --only leaves
	 * the roce subsystem out: roce_enable_wanted tells). */
	const struct halo_item *roce_enable;
	bool roce_enable_wanted;
	/* Shared by the link's items (each holds a reference); NULL: none. */
	struct halo_rdma_seen *seen;
};

struct halo_rdma_want {
	enum halo_rdma_kind kind;
	struct halo_rdma_link link;
};

/* How long an apply waits for what the earlier phases bring. */
#define HALO_RDMA_WAIT_DEV_MS 3000
#define HALO_RDMA_WAIT_GID_MS 3000
#define HALO_RDMA_WAIT_PORT_MS 3000
#define HALO_RDMA_WAIT_CM_MS 1000
#define HALO_RDMA_POLL_MS 50

/*
 * The device of L for an item. 0 with *RET; or the observe result for a
 * missing device: HALO_SYNC_DIFFERS when the run may still bring it (an
 * apply, or the modules phase pending), else -ENODEV; item->message and
 * observed set either way. OBSERVING: called by ops->observe (what the
 * pass found may answer: halo_rdma_link_dev); WAIT_MS: how long to poll
 * for it (apply).
 */
int halo_rdma_item_dev(struct halo_ctx *ctx, struct halo_item *item,
		       const struct halo_rdma_link *l, bool observing, unsigned wait_ms,
		       struct halo_rdma_dev *ret);

/* Frees a halo_rdma_want (ops->free_data). */
void halo_rdma_want_free(void *data);

/* Adds item KEY (W copied). */
int halo_rdma_item_add(struct halo_plan *plan, const char *key,
		       const struct halo_rdma_want *w, struct halo_item **ret_item);

extern const struct halo_item_ops halo_rdma_dev_ops;  /* items.c: device, port-state, gid */
extern const struct halo_item_ops halo_rdma_cm_ops;   /* cm.c */

/* ---- env file (envfile.c) ---- */

/* One RDMA interface's line of the env file. */
struct halo_rdma_env_entry {
	const char *ifname;
	const char *ibdev;
	unsigned port;
	int gid_index;
};

/* NCCL_IB_TIMEOUT and NCCL_IB_RETRY_CNT as the seed guides' scripts set
 * them (NCCL's own defaults are 20 and 7). */
#define HALO_RDMA_NCCL_IB_TIMEOUT 23
#define HALO_RDMA_NCCL_IB_RETRY_CNT 7

/*
 * Renders the env file (template "rccl.env") for the entries E (config
 * order) and TOS (-1: unset). A value with a character outside the set
 * both parsers take verbatim (letters, digits, "._-:,=+@") is -EINVAL with
 * *RET_WHY; -ENOMEM.
 */
int halo_rdma_env_render(const struct halo_rdma_env_entry *e, size_t n, int tos,
			 char **ret, char **ret_why);

/* Adds the env file item at PATH for LINKS (copied). */
int halo_rdma_env_add(struct halo_plan *plan, const char *path,
		      const struct halo_rdma_link *links, size_t n);
