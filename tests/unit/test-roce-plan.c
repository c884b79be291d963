/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for src/roce/plan.c and the items it plans: halo_roce_plan
 * over a hand-built host table (ctx->host) and a config loaded from text;
 * then the engine over those items, with a fake NIC behind the netlink
 * transport's seam answering dcbnl, devlink, ethtool and RTM_GETLINK as
 * ice or mlx5 do (docs/hardware.md "E810 (ice): DCB", "ConnectX (mlx5): DCB"): which items, in which order, what the ice
 * firmware agent forces first, EOPNOTSUPP as unsupported (failed when
 * required), and the errors refused before anything changes.
 */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/devlink.h>
#include <linux/ethtool_netlink.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "config-test.h"
#include "engine-test.h"
#include "netlink-test.h"

#include "engine/engine.h"
#include "host/host.h"
#include "netlink/rtnl.h"
#include "netlink/devlink.h"
#include "netlink/context.h"
#include "roce/roce.h"

#ifndef IFF_LOWER_UP
#define IFF_LOWER_UP (1 << 16) /* <linux/if.h>, which clashes with <net/if.h> */
#endif

#define DEVLINK_ID 0x1d
#define ETHTOOL_ID 0x15
#define IFINDEX 7
#define BDF "0000:c2:00.0"
#define BUFSZ 8192

/* ---- the fake NIC ---- */

enum nic_kind { NIC_ICE, NIC_MLX5, NIC_NO_DCB };

struct nic {
	enum nic_kind kind;
	bool fw_lldp;          /* ice: the firmware agent runs */
	bool roce, iwarp;      /* devlink enable_roce, enable_iwarp */
	uint32_t carrier_losses; /* IFLA_CARRIER_DOWN_COUNT */
	bool no_flap;            /* mlx5: a PFC change leaves the carrier alone */
	bool link_gone_after_pfc; /* RTM_GETLINK: ENODEV once PFC changed */
	bool pfc_changed;
	int refuse_dscp;         /* setapp: EINVAL for this DSCP; 0 none */
	bool refuse_del;         /* delapp: EINVAL */
	uint8_t dcbx;          /* DCB_CAP_DCBX_* */
	uint8_t pfc_en;
	struct dcb_app app[HALO_ROCE_DSCP_MAX];
	size_t n_app;
	int dcb_sets;          /* SETDCB requests */
	int refused;           /* SETDCB requests the driver refused */
	char log[1024];        /* the changes, in order: "lldp=off pfc=0x08 ..." */
};

static void logf_(struct nic *n, const char *fmt, ...) _printf_(2, 3);
static void logf_(struct nic *n, const char *fmt, ...)
{
	size_t o = strlen(n->log);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(n->log + o, sizeof(n->log) - o, fmt, ap);
	va_end(ap);
}

static void nic_init(struct nic *n, enum nic_kind kind)
{
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
	n->roce = true;
}

/* ice: the agent on means the firmware manages DCB (LLD_MANAGED). */
static void set_fw_lldp(struct nic *n, bool on)
{
	n->fw_lldp = on;
	n->dcbx = on ? DCB_CAP_DCBX_LLD_MANAGED | DCB_CAP_DCBX_VER_IEEE
		     : DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
	if (!on) { /* ice_dcb_sw_dflt_cfg: turning it off resets PFC and the APP table */
		n->pfc_en = 0;
		n->n_app = 0;
	}
}

static const struct nlattr *attr_in(const struct nlattr *nest, uint16_t type)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, nest)
		if (mnl_attr_get_type(a) == type)
			return a;
	return NULL;
}

static const struct nlattr *attr_top(const struct nlmsghdr *req, size_t hdr, uint16_t type)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, req, hdr)
		if (mnl_attr_get_type(a) == type)
			return a;
	return NULL;
}

static int app_find(const struct nic *n, const struct dcb_app *a)
{
	for (size_t i = 0; i < n->n_app; i++)
		if (n->app[i].selector == a->selector && n->app[i].protocol == a->protocol &&
		    n->app[i].priority == a->priority)
			return (int)i;
	return -1;
}

/* The entry of A's DSCP, whatever its priority, or -1. */
static int dscp_find(const struct nic *n, const struct dcb_app *a)
{
	for (size_t i = 0; i < n->n_app; i++)
		if (n->app[i].selector == a->selector && n->app[i].protocol == a->protocol)
			return (int)i;
	return -1;
}

/* IEEE_SET / IEEE_DEL: the driver's verdict (0 or -errno). */
static int dcb_ieee_change(struct nic *n, const struct nlmsghdr *req, bool add)
{
	const struct nlattr *ieee = attr_top(req, sizeof(struct dcbmsg), DCB_ATTR_IEEE);
	const struct nlattr *a, *e;

	n->dcb_sets++;
	/* ice_dcbnl_setpfc / ice_dcbnl_setapp: -EINVAL while the agent runs */
	if (n->kind == NIC_ICE && n->fw_lldp) {
		n->refused++;
		return -EINVAL;
	}
	assert_non_null(ieee);
	mnl_attr_for_each_nested(a, ieee) {
		if (mnl_attr_get_type(a) == DCB_ATTR_IEEE_PFC) {
			const struct ieee_pfc *p = mnl_attr_get_payload(a);

			assert_true(add);
			assert_int_equal(mnl_attr_get_payload_len(a), sizeof(*p));
			/* read-modify-write: the fields we do not own come back */
			assert_int_equal(p->pfc_cap, 8);
			assert_int_equal(p->delay, 0x77);
			/* mlx5_toggle_port_link: the flap is over by the next read */
			if (n->kind == NIC_MLX5 && p->pfc_en != n->pfc_en && !n->no_flap)
				n->carrier_losses++;
			n->pfc_changed = n->pfc_changed || p->pfc_en != n->pfc_en;
			n->pfc_en = p->pfc_en;
			logf_(n, "pfc=0x%02x ", p->pfc_en);
		}
		if (mnl_attr_get_type(a) != DCB_ATTR_IEEE_APP_TABLE)
			continue;
		mnl_attr_for_each_nested(e, a) {
			const struct dcb_app *app = mnl_attr_get_payload(e);
			int i = app_find(n, app);

			if (n->kind == NIC_ICE && app->selector != IEEE_8021QAZ_APP_SEL_DSCP)
				return -EINVAL;
			if (add && n->refuse_dscp && app->protocol == n->refuse_dscp)
				return -EINVAL; /* dcbnl_ieee_set stops here */
			if (!add && n->refuse_del)
				return -EINVAL;
			/* mlx5e_dcbnl_ieee_setapp replaces a DSCP's entry. */
			if (add && n->kind == NIC_MLX5 && dscp_find(n, app) >= 0) {
				n->app[dscp_find(n, app)] = *app;
			} else if (add && i < 0) {
				assert_true(n->n_app < HALO_ROCE_DSCP_MAX);
				n->app[n->n_app++] = *app;
			} else if (!add && i >= 0) {
				n->app[i] = n->app[--n->n_app];
			}
			logf_(n, "app%c%u:%u ", add ? '+' : '-', app->protocol, app->priority);
		}
	}
	return 0;
}

static int dcb_answer(struct nic *n, const struct nlmsghdr *req, char *buf)
{
	const struct dcbmsg *d = mnl_nlmsg_get_payload(req);
	struct nlmsghdr *nlh;
	size_t off = 0;
	int verdict = 0;
	uint16_t vattr = DCB_ATTR_IEEE;

	if (n->kind == NIC_NO_DCB) { /* dcbnl: no dcbnl_ops on the device */
		put_ack(buf, &off, req, -EOPNOTSUPP, NULL);
		return (int)off;
	}
	switch (d->cmd) {
	case DCB_CMD_IEEE_GET: {
		struct ieee_pfc pfc = { .pfc_cap = 8, .pfc_en = n->pfc_en, .delay = 0x77 };
		struct nlattr *ieee, *table;

		nlh = dcb_reply(buf, RTM_GETDCB, DCB_CMD_IEEE_GET, req->nlmsg_seq);
		mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, "rdma0");
		ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
		mnl_attr_put(nlh, DCB_ATTR_IEEE_PFC, sizeof(pfc), &pfc);
		table = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE_APP_TABLE);
		for (size_t i = 0; i < n->n_app; i++)
			mnl_attr_put(nlh, DCB_ATTR_IEEE_APP, sizeof(n->app[i]), &n->app[i]);
		mnl_attr_nest_end(nlh, table);
		mnl_attr_nest_end(nlh, ieee);
		mnl_attr_put_u8(nlh, DCB_ATTR_DCBX, n->dcbx);
		off = MNL_ALIGN(nlh->nlmsg_len);
		put_ack(buf, &off, req, 0, NULL);
		return (int)off;
	}
	case DCB_CMD_IEEE_SET:
	case DCB_CMD_IEEE_DEL:
		verdict = dcb_ieee_change(n, req, d->cmd == DCB_CMD_IEEE_SET);
		break;
	case DCB_CMD_SDCBX: {
		const struct nlattr *a = attr_top(req, sizeof(*d), DCB_ATTR_DCBX);

		assert_non_null(a);
		vattr = DCB_ATTR_DCBX;
		n->dcb_sets++;
		n->dcbx = mnl_attr_get_u8(a);
		logf_(n, "dcbx=0x%x ", n->dcbx);
		break;
	}
	default:
		fail_msg("unexpected dcbnl command %u", d->cmd);
	}
	/* dcb_doit: ACK 0, the driver's int return in a u8 attribute */
	nlh = dcb_reply(buf, req->nlmsg_type, d->cmd, req->nlmsg_seq);
	mnl_attr_put_u8(nlh, vattr, (uint8_t)verdict);
	off = MNL_ALIGN(nlh->nlmsg_len);
	put_ack(buf, &off, req, 0, NULL);
	return (int)off;
}

static int devlink_answer(struct nic *n, const struct nlmsghdr *req, char *buf)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(req);
	const struct nlattr *name = attr_top(req, sizeof(*g), DEVLINK_ATTR_PARAM_NAME);
	const struct nlattr *dev = attr_top(req, sizeof(*g), DEVLINK_ATTR_DEV_NAME);
	uint8_t cmode = n->kind == NIC_MLX5 ? DEVLINK_PARAM_CMODE_DRIVERINIT
					    : DEVLINK_PARAM_CMODE_RUNTIME;
	struct nlattr *param, *list, *value;
	struct nlmsghdr *nlh;
	size_t off = 0;
	bool *v;

	assert_non_null(name);
	assert_string_equal(mnl_attr_get_str(dev), BDF);
	if (strcmp(mnl_attr_get_str(name), "enable_roce") == 0)
		v = &n->roce;
	else if (strcmp(mnl_attr_get_str(name), "enable_iwarp") == 0 && n->kind == NIC_ICE)
		v = &n->iwarp;
	else {
		put_ack(buf, &off, req, -EINVAL, "Requested parameter does not exist");
		return (int)off;
	}
	if (g->cmd == DEVLINK_CMD_PARAM_SET) {
		const struct nlattr *c = attr_top(req, sizeof(*g), DEVLINK_ATTR_PARAM_VALUE_CMODE);
		bool on = attr_top(req, sizeof(*g), DEVLINK_ATTR_PARAM_VALUE_DATA) != NULL;

		assert_non_null(c);
		assert_int_equal(mnl_attr_get_u8(c), cmode);
		/* ice: RoCE v2 and iWARP are exclusive */
		if (n->kind == NIC_ICE && on && (v == &n->roce ? n->iwarp : n->roce)) {
			put_ack(buf, &off, req, -EOPNOTSUPP,
				"RoCEv2 and iWARP are mutually exclusive");
			return (int)off;
		}
		*v = on;
		logf_(n, "%s=%d ", mnl_attr_get_str(name), on);
		put_ack(buf, &off, req, 0, NULL);
		return (int)off;
	}
	nlh = genl_reply(buf, DEVLINK_ID, req->nlmsg_seq, DEVLINK_CMD_PARAM_GET,
			 DEVLINK_GENL_VERSION);
	mnl_attr_put_strz(nlh, DEVLINK_ATTR_BUS_NAME, "pci");
	mnl_attr_put_strz(nlh, DEVLINK_ATTR_DEV_NAME, BDF);
	param = mnl_attr_nest_start(nlh, DEVLINK_ATTR_PARAM);
	mnl_attr_put_strz(nlh, DEVLINK_ATTR_PARAM_NAME, mnl_attr_get_str(name));
	mnl_attr_put(nlh, DEVLINK_ATTR_PARAM_GENERIC, 0, "");
	mnl_attr_put_u8(nlh, DEVLINK_ATTR_PARAM_TYPE, HALO_DEVLINK_PARAM_TYPE_BOOL);
	list = mnl_attr_nest_start(nlh, DEVLINK_ATTR_PARAM_VALUES_LIST);
	value = mnl_attr_nest_start(nlh, DEVLINK_ATTR_PARAM_VALUE);
	mnl_attr_put_u8(nlh, DEVLINK_ATTR_PARAM_VALUE_CMODE, cmode);
	if (*v)
		mnl_attr_put(nlh, DEVLINK_ATTR_PARAM_VALUE_DATA, 0, "");
	mnl_attr_nest_end(nlh, value);
	mnl_attr_nest_end(nlh, list);
	mnl_attr_nest_end(nlh, param);
	off = MNL_ALIGN(nlh->nlmsg_len);
	put_ack(buf, &off, req, 0, NULL);
	return (int)off;
}

/* ice's private flags, in its order; mlx5 has none of that name. */
static const char *const ice_flags[] = { "link-down-on-close", "fw-lldp-agent" };
static const char *const mlx5_flags[] = { "rx_cqe_moder", "tx_cqe_moder" };

static int ethtool_answer(struct nic *n, const struct nlmsghdr *req, char *buf)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(req);
	const char *const *names = n->kind == NIC_ICE ? ice_flags : mlx5_flags;
	struct nlattr *flags, *bits, *bit;
	struct nlmsghdr *nlh;
	size_t off = 0;

	if (g->cmd == ETHTOOL_MSG_PRIVFLAGS_SET) {
		const struct nlattr *f = attr_top(req, sizeof(*g), ETHTOOL_A_PRIVFLAGS_FLAGS);
		const struct nlattr *b = f ? attr_in(f, ETHTOOL_A_BITSET_BITS) : NULL;
		const struct nlattr *one = b ? attr_in(b, ETHTOOL_A_BITSET_BITS_BIT) : NULL;
		const struct nlattr *nm = one ? attr_in(one, ETHTOOL_A_BITSET_BIT_NAME) : NULL;
		bool on = one && attr_in(one, ETHTOOL_A_BITSET_BIT_VALUE);

		assert_non_null(nm);
		assert_int_equal(n->kind, NIC_ICE);
		assert_string_equal(mnl_attr_get_str(nm), "fw-lldp-agent");
		set_fw_lldp(n, on);
		logf_(n, "lldp=%s ", on ? "on" : "off");
		put_ack(buf, &off, req, 0, NULL);
		return (int)off;
	}
	assert_int_equal(g->cmd, ETHTOOL_MSG_PRIVFLAGS_GET);
	nlh = genl_reply(buf, ETHTOOL_ID, req->nlmsg_seq, ETHTOOL_MSG_PRIVFLAGS_GET_REPLY,
			 ETHTOOL_GENL_VERSION);
	flags = mnl_attr_nest_start(nlh, ETHTOOL_A_PRIVFLAGS_FLAGS);
	mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_SIZE, 2);
	bits = mnl_attr_nest_start(nlh, ETHTOOL_A_BITSET_BITS);
	for (uint32_t i = 0; i < 2; i++) {
		bit = mnl_attr_nest_start(nlh, ETHTOOL_A_BITSET_BITS_BIT);
		mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_BIT_INDEX, i);
		mnl_attr_put_strz(nlh, ETHTOOL_A_BITSET_BIT_NAME, names[i]);
		if (n->kind == NIC_ICE && i == 1 && n->fw_lldp)
			mnl_attr_put(nlh, ETHTOOL_A_BITSET_BIT_VALUE, 0, "");
		mnl_attr_nest_end(nlh, bit);
	}
	mnl_attr_nest_end(nlh, bits);
	mnl_attr_nest_end(nlh, flags);
	off = MNL_ALIGN(nlh->nlmsg_len);
	put_ack(buf, &off, req, 0, NULL);
	return (int)off;
}

/* RTM_GETLINK of our link: up with carrier (mlx5's flap is over). */
static int link_answer(const struct nic *n, const struct nlmsghdr *req, char *buf)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifi;
	size_t off;

	assert_int_equal(req->nlmsg_type, RTM_GETLINK);
	if (n->link_gone_after_pfc && n->pfc_changed) {
		off = 0;
		put_ack(buf, &off, req, -ENODEV, NULL);
		return (int)off;
	}
	nlh->nlmsg_type = RTM_NEWLINK;
	nlh->nlmsg_seq = req->nlmsg_seq;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = IFINDEX;
	ifi->ifi_flags = IFF_UP | IFF_LOWER_UP | IFF_RUNNING;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, "rdma0");
	mnl_attr_put_u32(nlh, IFLA_MTU, 9000);
	mnl_attr_put_u8(nlh, IFLA_CARRIER, 1);
	mnl_attr_put_u32(nlh, IFLA_CARRIER_DOWN_COUNT, n->carrier_losses);
	off = MNL_ALIGN(nlh->nlmsg_len);
	put_ack(buf, &off, req, 0, NULL);
	return (int)off;
}

static int nic_io(void *userdata, enum halo_nlt_proto proto, const struct nlmsghdr *req,
		  size_t len, void *out, size_t size)
{
	struct nic *n = userdata;
	char *buf = out;

	(void)len;
	assert_true(size >= BUFSZ);
	memset(buf, 0, BUFSZ);
	switch (proto) {
	case HALO_NLT_DCB:
		return dcb_answer(n, req, buf);
	case HALO_NLT_ROUTE:
		return link_answer(n, req, buf);
	case HALO_NLT_GENERIC:
		if (req->nlmsg_type == GENL_ID_CTRL) {
			const char *fam = family_asked(req);

			return put_family(buf, req, strcmp(fam, DEVLINK_GENL_NAME) == 0 ? DEVLINK_ID :
						    strcmp(fam, ETHTOOL_GENL_NAME) == 0 ? ETHTOOL_ID : 0);
		}
		if (req->nlmsg_type == DEVLINK_ID)
			return devlink_answer(n, req, buf);
		assert_int_equal(req->nlmsg_type, ETHTOOL_ID);
		return ethtool_answer(n, req, buf);
	default:
		fail_msg("unexpected protocol %d", proto);
	}
	return -EINVAL;
}

/* ---- a run: config text, one host link, the planner ---- */

struct run {
	struct halo_ctx ctx;
	char dir[64];
	struct halo_config *cfg;
	struct halo_host host;
	struct halo_host_link links[2];
	struct halo_plan plan;
	struct halo_errors errs;
	struct nic nic;
};

#define ROCE_CONF(roce)                                                         \
	"version = 1;\ninterfaces = (\n  { name = \"rdma0\";\n    roce = {\n" roce \
	"    };\n  }\n);\n"

#define FULL "      enable = true; dcbx = \"host\"; pfc = [ 3 ]; trust = \"dscp\";\n" \
	     "      dscp_prio = ( [ 26, 3 ], [ 48, 6 ] ); ecn = [ 3 ];\n"

/* Loads TEXT and describes its entries' links: the first DRIVER, the
 * others (if any) "mlx5_core". */
/* The runs a test has not freed yet: a failed assertion leaves its test
 * at once, and the teardown frees them (scratch roots included). */
static struct run *live[4];

static void track(struct run *r, struct run *was)
{
	for (size_t i = 0; i < sizeof(live) / sizeof(live[0]); i++)
		if (live[i] == was) {
			live[i] = r;
			return;
		}
	fail_msg("more than %zu runs live in one test", sizeof(live) / sizeof(live[0]));
}

static struct run *run_new(const char *text, const char *driver)
{
	struct run *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	track(r, NULL);
	assert_int_equal(scratch_root_open(&r->ctx, r->dir, "roce-plan"), 0);
	r->ctx.mode = HALO_MODE_CHECK;
	assert_config_ok(text, &r->cfg);
	assert_true(r->cfg->n_interfaces >= 1 && r->cfg->n_interfaces <= 2);
	for (size_t i = 0; i < r->cfg->n_interfaces; i++) {
		struct halo_host_link *h = &r->links[i];

		h->entry = &r->cfg->interfaces[i];
		h->selected = true;
		h->found = true;
		h->link.ifindex = IFINDEX + (int)i;
		snprintf(h->link.name, sizeof(h->link.name), "%s", i ? "rdma1" : "rdma0");
		h->link.flags = IFF_UP;
		h->link.carrier = 1;
		h->driver = (char *)(i ? "mlx5_core" : driver);
		/* bnxt_en stands for a link on no PCI function */
		h->has_pci = !driver || strcmp(driver, "bnxt_en") != 0;
		assert_int_equal(halo_pci_parse(BDF, &h->pci), 0);
	}
	r->host.stage = HALO_HOST_FINAL;
	r->host.links = r->links;
	r->host.n = r->cfg->n_interfaces;
	r->ctx.host = &r->host;
	halo_plan_init(&r->plan);
	return r;
}

static void run_free(struct run *r)
{
	track(NULL, r);
	halo_netlink_release(&r->ctx);
	halo_plan_free(&r->plan);
	halo_errors_free(&r->errs);
	halo_config_free(r->cfg);
	assert_int_equal(scratch_root_remove(&r->ctx), 0);
	free(r);
}

static int plan(struct run *r)
{
	return halo_roce_plan(&r->ctx, r->cfg, &r->plan, &r->errs);
}

/* The plan's keys, space-separated, without "roce/rdma0/". */
static void keys(const struct run *r, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < r->plan.n && o < len; i++) {
		const char *k = r->plan.items[i]->key;

		if (strncmp(k, "roce/rdma0/", 11) == 0)
			k += 11;
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? " " : "", k);
	}
}

static void assert_keys(const struct run *r, const char *want)
{
	char got[512];

	keys(r, got, sizeof(got));
	assert_string_equal(got, want);
}

static const struct halo_item *item(const struct run *r, const char *what)
{
	char key[64];
	const struct halo_item *it;

	snprintf(key, sizeof(key), "roce/rdma0/%s", what);
	it = halo_plan_find(&r->plan, key);
	assert_non_null(it);
	return it;
}

/* Engine run in MODE over the fake NIC; the exit bits. */
static int engine(struct run *r, enum halo_mode mode)
{
	struct halo_nlt *t;
	int bits;

	r->ctx.mode = mode;
	assert_int_equal(halo_netlink_transport(&r->ctx, &t), 0);
	halo_nlt_set_io(t, nic_io, &r->nic);
	bits = engine_steps(&r->ctx, &r->plan, &r->errs);
	assert_int_equal(r->errs.n, 0);
	return bits;
}

static int free_live(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(live) / sizeof(live[0]); i++)
		if (live[i])
			run_free(live[i]);
	return 0;
}

/* ---- what is planned, in which order ---- */

static void plan_ice_order(void **state)
{
	struct run *r = run_new(ROCE_CONF(FULL "      required = true;\n"), "ice");

	(void)state;
	assert_int_equal(plan(r), 0);
	assert_int_equal(r->errs.n, 0);
	/* the agent first: ice refuses host DCB while it runs */
	assert_keys(r, "fw-lldp-agent enable dcbx pfc dscp-prio trust ecn");
	for (size_t i = 0; i < r->plan.n; i++) {
		const struct halo_item *it = r->plan.items[i];
		const struct halo_roce_want *w = it->data;

		assert_int_equal(it->subsys, HALO_SUB_ROCE);
		assert_int_equal(it->phase, HALO_PHASE_ROCE);
		assert_true(it->required);
		assert_int_equal(w->nic, HALO_ROCE_NIC_ICE);
		assert_int_equal(w->ifindex, IFINDEX);
		assert_string_equal(w->ifname, "rdma0");
		assert_string_equal(w->pci, BDF);
		assert_int_equal(w->pfc_mask, 1 << 3);
	}
	/* host DCB: the agent is wanted off */
	assert_false(((const struct halo_roce_want *)item(r, "fw-lldp-agent")->data)->on);
	assert_true(((const struct halo_roce_want *)item(r, "enable")->data)->on);
	{
		const struct halo_roce_want *w = item(r, "dscp-prio")->data;

		assert_int_equal(w->n_app, 2);
		assert_int_equal(w->app[0].selector, IEEE_8021QAZ_APP_SEL_DSCP);
		assert_int_equal(w->app[0].protocol, 26);
		assert_int_equal(w->app[0].priority, 3);
		assert_int_equal(w->app[1].protocol, 48);
		assert_int_equal(w->app[1].priority, 6);
	}
	assert_true(((const struct halo_roce_want *)item(r, "trust")->data)->trust_dscp);
	assert_int_equal(((const struct halo_roce_want *)item(r, "ecn")->data)->ecn_mask, 1 << 3);
	run_free(r);
}

static void plan_mlx5_and_subsets(void **state)
{
	struct run *r = run_new(ROCE_CONF(FULL), "mlx5_core");

	(void)state;
	assert_int_equal(plan(r), 0);
	/* no firmware agent to turn off on mlx5 */
	assert_keys(r, "enable dcbx pfc dscp-prio trust ecn");
	assert_false(item(r, "pfc")->required);
	assert_int_equal(((const struct halo_roce_want *)item(r, "pfc")->data)->nic,
			 HALO_ROCE_NIC_MLX5);
	run_free(r);

	/* only what is configured becomes an item */
	r = run_new(ROCE_CONF("      pfc = [ 3, 4 ];\n"), "mlx5_core");
	assert_int_equal(plan(r), 0);
	assert_keys(r, "pfc");
	assert_int_equal(((const struct halo_roce_want *)item(r, "pfc")->data)->pfc_mask, 0x18);
	run_free(r);

	/* ice: a lone PFC still needs the agent off first */
	r = run_new(ROCE_CONF("      pfc = [ 3 ];\n"), "ice");
	assert_int_equal(plan(r), 0);
	assert_keys(r, "fw-lldp-agent pfc");
	run_free(r);

	/* ice: enable alone touches no DCB: no agent item */
	r = run_new(ROCE_CONF("      enable = true;\n"), "ice");
	assert_int_equal(plan(r), 0);
	assert_keys(r, "enable");
	run_free(r);

	/* ice, dcbx = "firmware" alone: the agent is wanted on */
	r = run_new(ROCE_CONF("      dcbx = \"firmware\";\n"), "ice");
	assert_int_equal(plan(r), 0);
	assert_keys(r, "fw-lldp-agent dcbx");
	assert_true(((const struct halo_roce_want *)item(r, "fw-lldp-agent")->data)->on);
	run_free(r);

	/* trust = "pcp": one trust item, no DSCP entries wanted */
	r = run_new(ROCE_CONF("      trust = \"pcp\";\n"), "bnxt_en");
	assert_int_equal(plan(r), 0);
	assert_keys(r, "trust");
	assert_false(((const struct halo_roce_want *)item(r, "trust")->data)->trust_dscp);
	assert_int_equal(((const struct halo_roce_want *)item(r, "trust")->data)->nic,
			 HALO_ROCE_NIC_OTHER);
	run_free(r);
}

static void plan_skips(void **state)
{
	struct run *r = run_new(ROCE_CONF(FULL), "ice");

	(void)state;
	/* --only without roce */
	r->ctx.only = HALO_SUB_LINKS;
	assert_int_equal(plan(r), 0);
	assert_int_equal(r->plan.n, 0);
	/* not selected by --interface */
	r->ctx.registry = &halo_registry;
	r->ctx.only = halo_registry_default_mask(&halo_registry);
	r->links[0].selected = false;
	assert_int_equal(plan(r), 0);
	assert_int_equal(r->plan.n, 0);
	/* no link yet: a warning, nothing planned, and no driver check */
	r->links[0].selected = true;
	r->links[0].found = false;
	r->links[0].driver = (char *)"veth";
	r->host.stage = HALO_HOST_BEFORE_MODULES;
	assert_int_equal(plan(r), 0);
	assert_int_equal(r->plan.n, 0);
	assert_int_equal(r->plan.n_warnings, 1);
	assert_non_null(strstr(r->plan.warnings[0], "interfaces/rdma0/roce: no link matches yet"));
	/* a check with no module to load: none will come, no "yet" */
	r->host.stage = HALO_HOST_FINAL;
	halo_plan_free(&r->plan);
	halo_plan_init(&r->plan);
	assert_int_equal(plan(r), 0);
	assert_int_equal(r->plan.n_warnings, 1);
	assert_string_equal(r->plan.warnings[0], "interfaces/rdma0/roce: no link matches: nothing "
						 "is applied or checked");
	/* no host table at all */
	r->ctx.host = NULL;
	assert_int_equal(plan(r), 0);
	assert_int_equal(r->plan.n, 0);
	run_free(r);

	/* an entry without a roce group */
	r = run_new("version = 1;\ninterfaces = ( { name = \"rdma0\"; mtu = 9000; } );\n", "veth");
	assert_int_equal(plan(r), 0);
	assert_int_equal(r->plan.n, 0);
	assert_int_equal(r->errs.n, 0);
	run_free(r);
}

/* ---- refused before anything changes ---- */

static void plan_errors(void **state)
{
	struct run *r = run_new(ROCE_CONF(FULL), "veth");

	(void)state;
	assert_int_equal(plan(r), -EINVAL);
	assert_int_equal(r->plan.n, 0);
	assert_int_equal(r->errs.n, 1);
	assert_string_equal(r->errs.msgs[0],
			    "halo.conf:4: interface \"rdma0\": roce: link rdma0 (driver veth) has no "
			    "RoCE; roce needs ice, mlx5_core or another RoCE NIC driver");
	run_free(r);

	/* no driver at all */
	r = run_new(ROCE_CONF(FULL), NULL);
	assert_int_equal(plan(r), -EINVAL);
	assert_non_null(strstr(r->errs.msgs[0], "(driver none) has no RoCE"));
	run_free(r);

	/* ice refuses host DCB under the firmware agent */
	r = run_new(ROCE_CONF("      dcbx = \"firmware\"; pfc = [ 3 ];\n"), "ice");
	assert_int_equal(plan(r), -EINVAL);
	assert_int_equal(r->plan.n, 0);
	assert_int_equal(r->errs.n, 1);
	assert_non_null(strstr(r->errs.msgs[0], "halo.conf:4: interface \"rdma0\": roce: ice refuses "
						"host PFC and APP changes while the firmware LLDP agent runs"));
	run_free(r);
	/* mlx5 has no such agent: the same config plans */
	r = run_new(ROCE_CONF("      dcbx = \"firmware\"; pfc = [ 3 ];\n"), "mlx5_core");
	assert_int_equal(plan(r), 0);
	assert_keys(r, "dcbx pfc");
	run_free(r);

	/* trust = "dscp" with no DSCP entry (the loader refuses it too;
	 * the planner keeps its own check for configs built otherwise) */
	r = run_new(ROCE_CONF(FULL), "ice");
	r->cfg->interfaces[0].roce.n_dscp_prio = 0;
	assert_int_equal(plan(r), -EINVAL);
	assert_int_equal(r->errs.n, 1);
	assert_non_null(strstr(r->errs.msgs[0], "halo.conf:4: interface \"rdma0\": roce.trust: "
						"\"dscp\" needs dscp_prio entries"));
	run_free(r);
}

/* Every entry is checked before any is planned: all errors at once. */
static void plan_errors_all_at_once(void **state)
{
	struct run *r = run_new("version = 1;\ninterfaces = (\n"
				"  { name = \"rdma0\"; roce = { pfc = [ 3 ]; }; },\n"
				"  { name = \"rdma1\"; roce = { pfc = [ 3 ]; }; }\n);\n", "veth");

	(void)state;
	r->links[1].driver = (char *)"e1000e";
	assert_int_equal(plan(r), -EINVAL);
	assert_int_equal(r->plan.n, 0);
	assert_int_equal(r->errs.n, 2);
	assert_non_null(strstr(r->errs.msgs[0], "\"rdma0\": roce: link rdma0 (driver veth)"));
	assert_non_null(strstr(r->errs.msgs[1], "\"rdma1\": roce: link rdma1 (driver e1000e)"));
	/* the good one alone plans */
	r->links[0].selected = false;
	r->links[1].driver = (char *)"mlx5_core";
	halo_errors_free(&r->errs);
	memset(&r->errs, 0, sizeof(r->errs));
	assert_int_equal(plan(r), 0);
	assert_int_equal(r->plan.n, 1);
	assert_string_equal(r->plan.items[0]->key, "roce/rdma1/pfc");
	run_free(r);
}

/* ---- the items over a fake NIC ---- */

/* ice with the firmware agent on, iWARP on: apply turns the agent off
 * before any DCB change (the fake refuses DCB while it runs), iWARP off
 * before RoCE on, then PFC and the DSCP entries; a second run is clean. */
static void ice_apply_order(void **state)
{
	struct run *r = run_new(ROCE_CONF(FULL), "ice");
	const char *lldp, *pfc;

	(void)state;
	assert_int_equal(plan(r), 0);
	nic_init(&r->nic, NIC_ICE);
	set_fw_lldp(&r->nic, true);
	r->nic.roce = false;
	r->nic.iwarp = true;
	/* check first: drift everywhere, nothing sent but reads */
	assert_int_equal(engine(r, HALO_MODE_CHECK), HALO_EXIT_CHANGED);
	assert_string_equal(r->nic.log, "");
	assert_int_equal(r->nic.dcb_sets, 0);
	assert_int_equal(item(r, "fw-lldp-agent")->outcome, HALO_OUTCOME_DRIFT);
	assert_string_equal(item(r, "fw-lldp-agent")->observed, "on");
	assert_non_null(strstr(item(r, "enable")->message, "enable_iwarp is on"));
	assert_non_null(strstr(item(r, "pfc")->message, "firmware LLDP agent manages DCB"));
	/* no vendor ECN sysfs under the scratch root */
	assert_int_equal(item(r, "ecn")->outcome, HALO_OUTCOME_UNSUPPORTED);

	assert_int_equal(engine(r, HALO_MODE_APPLY), HALO_EXIT_CHANGED);
	assert_int_equal(r->nic.refused, 0);
	assert_string_equal(r->nic.log, "lldp=off enable_iwarp=0 enable_roce=1 pfc=0x08 "
					"app+26:3 app+48:6 ");
	lldp = strstr(r->nic.log, "lldp=off");
	pfc = strstr(r->nic.log, "pfc=");
	assert_true(lldp && pfc && lldp < pfc);
	for (size_t i = 0; i < r->plan.n; i++)
		if (strcmp(r->plan.items[i]->key, "roce/rdma0/ecn") != 0)
			assert_int_equal(r->plan.items[i]->outcome, HALO_OUTCOME_CHANGED);
	assert_non_null(strstr(item(r, "enable")->note, "enable_iwarp turned off first"));
	assert_false(r->nic.fw_lldp);
	assert_false(r->nic.iwarp);
	assert_true(r->nic.roce);
	assert_int_equal(r->nic.pfc_en, 1 << 3);
	assert_int_equal(r->nic.n_app, 2);

	/* converged: a second apply sends no SETDCB and changes nothing */
	r->nic.dcb_sets = 0;
	r->nic.log[0] = '\0';
	assert_int_equal(engine(r, HALO_MODE_APPLY), 0);
	assert_int_equal(r->nic.dcb_sets, 0);
	assert_string_equal(r->nic.log, "");
	assert_int_equal(item(r, "dscp-prio")->outcome, HALO_OUTCOME_OK);
	assert_string_equal(item(r, "dscp-prio")->observed, "26:3, 48:6");
	run_free(r);
}

/* mlx5: enable_roce is driverinit (on by default), the PFC change waits
 * for the carrier, DSCP entries make trust DSCP, a foreign entry stays,
 * a stale priority of a wanted DSCP is replaced in place (no delete). */
static void mlx5_apply(void **state)
{
	struct run *r = run_new(ROCE_CONF(FULL), "mlx5_core");

	(void)state;
	assert_int_equal(plan(r), 0);
	nic_init(&r->nic, NIC_MLX5);
	r->nic.pfc_en = 1 << 4;
	r->nic.app[0] = (struct dcb_app){ IEEE_8021QAZ_APP_SEL_DSCP, 5, 10 };  /* not ours */
	r->nic.app[1] = (struct dcb_app){ IEEE_8021QAZ_APP_SEL_DSCP, 1, 48 };  /* stale */
	r->nic.n_app = 2;
	assert_int_equal(halo_owned_add(item(r, "dscp-prio")->owned, "48:1"), 0); /* ours once */
	assert_int_equal(engine(r, HALO_MODE_APPLY), HALO_EXIT_CHANGED);
	assert_string_equal(r->nic.log, "pfc=0x08 app+26:3 app+48:6 ");
	assert_int_equal(item(r, "enable")->outcome, HALO_OUTCOME_OK);
	assert_int_equal(item(r, "pfc")->outcome, HALO_OUTCOME_CHANGED);
	assert_non_null(strstr(item(r, "pfc")->note,
			       "mlx5 flaps the link on a PFC change: carrier back after"));
	assert_int_equal(item(r, "trust")->outcome, HALO_OUTCOME_OK);
	assert_int_equal(r->nic.n_app, 3);
	assert_true(app_find(&r->nic, &(struct dcb_app){ IEEE_8021QAZ_APP_SEL_DSCP, 5, 10 }) >= 0);
	/* the replaced entry is no longer recorded; its replacement is ours */
	assert_false(halo_owned_has(item(r, "dscp-prio")->owned, "48:1"));
	assert_true(halo_owned_has(item(r, "dscp-prio")->owned, "48:6"));
	run_free(r);
}

/* The wait for mlx5's flap says what it saw: a carrier that never went
 * (after its bound), or a carrier it could not read. */
static void mlx5_carrier_notes(void **state)
{
	struct run *r = run_new(ROCE_CONF(FULL), "mlx5_core");

	(void)state;
	assert_int_equal(plan(r), 0);
	nic_init(&r->nic, NIC_MLX5);
	r->nic.no_flap = true;
	assert_int_equal(engine(r, HALO_MODE_APPLY), HALO_EXIT_CHANGED);
	assert_string_equal(item(r, "pfc")->note,
			    "mlx5 flaps the link on a PFC change: the carrier stayed up for 2000 ms");

	nic_init(&r->nic, NIC_MLX5);
	r->nic.link_gone_after_pfc = true;
	assert_int_equal(engine(r, HALO_MODE_APPLY), HALO_EXIT_CHANGED);
	assert_string_equal(item(r, "pfc")->note, "mlx5 flaps the link on a PFC change: reading "
						  "its carrier: No such device");
	run_free(r);
}

/* An IEEE_SET the driver refuses part way: the entries before the refused
 * one stay in the table, and are recorded as ours. */
static void partial_add_recorded(void **state)
{
	struct run *r = run_new(ROCE_CONF(FULL), "mlx5_core");

	(void)state;
	assert_int_equal(plan(r), 0);
	nic_init(&r->nic, NIC_MLX5);
	r->nic.refuse_dscp = 48;
	assert_int_equal(engine(r, HALO_MODE_APPLY) & HALO_EXIT_FAILED, HALO_EXIT_FAILED);
	assert_int_equal(item(r, "dscp-prio")->outcome, HALO_OUTCOME_FAILED);
	assert_int_equal(r->nic.n_app, 1);
	assert_true(halo_owned_has(item(r, "dscp-prio")->owned, "26:3"));
	assert_false(halo_owned_has(item(r, "dscp-prio")->owned, "48:6"));
	run_free(r);
}

/* mlx5: the entry a remap replaced is no longer recorded as ours, even
 * when a later step fails and the item's record is written as it stands;
 * with a remap refused part way, what the refused entry did not replace
 * stays ours. */
static void mlx5_replaced_forgotten(void **state)
{
	struct run *r = run_new(ROCE_CONF(FULL), "mlx5_core");
	struct halo_owned *owned;

	(void)state;
	assert_int_equal(plan(r), 0);
	nic_init(&r->nic, NIC_MLX5);
	r->nic.pfc_en = 1 << 3;
	r->nic.app[0] = (struct dcb_app){ IEEE_8021QAZ_APP_SEL_DSCP, 1, 48 };  /* remapped */
	r->nic.app[1] = (struct dcb_app){ IEEE_8021QAZ_APP_SEL_DSCP, 2, 26 };  /* remapped */
	r->nic.app[2] = (struct dcb_app){ IEEE_8021QAZ_APP_SEL_DSCP, 5, 10 };  /* gone */
	r->nic.n_app = 3;
	owned = item(r, "dscp-prio")->owned;
	assert_int_equal(halo_owned_add(owned, "48:1"), 0);
	assert_int_equal(halo_owned_add(owned, "26:2"), 0);
	assert_int_equal(halo_owned_add(owned, "10:5"), 0);
	r->nic.refuse_del = true; /* the last step, the gone entry, fails */
	assert_int_equal(engine(r, HALO_MODE_APPLY) & HALO_EXIT_FAILED, HALO_EXIT_FAILED);
	assert_int_equal(item(r, "dscp-prio")->outcome, HALO_OUTCOME_FAILED);
	assert_false(halo_owned_has(owned, "48:1"));
	assert_false(halo_owned_has(owned, "26:2"));
	assert_true(halo_owned_has(owned, "48:6"));
	assert_true(halo_owned_has(owned, "10:5"));
	run_free(r);
}

/* A NIC without dcbnl (the kernel's EOPNOTSUPP): unsupported, not failed;
 * with required = true, failed (exit 4). */
static void unsupported_and_required(void **state)
{
	static const char *const dcb[] = { "dcbx", "pfc", "dscp-prio", "trust" };
	struct run *r = run_new(ROCE_CONF(FULL), "bnxt_en");

	(void)state;
	assert_int_equal(plan(r), 0);
	assert_keys(r, "enable dcbx pfc dscp-prio trust ecn");
	nic_init(&r->nic, NIC_NO_DCB);
	assert_int_equal(engine(r, HALO_MODE_CHECK), 0);
	for (size_t i = 0; i < ARRAY_SIZE(dcb); i++) {
		const struct halo_item *it = item(r, dcb[i]);

		assert_int_equal(it->outcome, HALO_OUTCOME_UNSUPPORTED);
		assert_string_equal(it->message, "rdma0 has no DCB (dcbnl: Operation not supported)");
		assert_null(it->observed);
	}
	/* no PCI function: no devlink instance to ask */
	assert_int_equal(item(r, "enable")->outcome, HALO_OUTCOME_UNSUPPORTED);
	assert_non_null(strstr(item(r, "enable")->message, "no devlink instance"));
	/* apply changes nothing either */
	assert_int_equal(engine(r, HALO_MODE_APPLY), 0);
	assert_int_equal(r->nic.dcb_sets, 0);
	run_free(r);

	r = run_new(ROCE_CONF(FULL "      required = true;\n"), "bnxt_en");
	assert_int_equal(plan(r), 0);
	nic_init(&r->nic, NIC_NO_DCB);
	assert_int_equal(engine(r, HALO_MODE_CHECK), HALO_EXIT_FAILED);
	for (size_t i = 0; i < ARRAY_SIZE(dcb); i++)
		assert_int_equal(item(r, dcb[i])->outcome, HALO_OUTCOME_FAILED);
	assert_int_equal(engine(r, HALO_MODE_APPLY), HALO_EXIT_FAILED);
	assert_int_equal(r->nic.dcb_sets, 0);
	run_free(r);
}

/* The agent refusal itself: with the agent item missing (dcbx planned
 * as firmware on mlx5 is fine, but ice's agent left on by hand between
 * the observation and the apply) the driver's EINVAL is a failed item
 * naming the request. */
static void ice_refusal_is_failed(void **state)
{
	struct run *r = run_new(ROCE_CONF("      pfc = [ 3 ];\n"), "ice");
	struct halo_item *lldp;

	(void)state;
	assert_int_equal(plan(r), 0);
	/* drop the agent item: what an apply in the wrong order would meet */
	lldp = halo_plan_find(&r->plan, "roce/rdma0/fw-lldp-agent");
	assert_non_null(lldp);
	assert_ptr_equal(r->plan.items[0], lldp);
	halo_item_free(lldp);
	memmove(r->plan.items, r->plan.items + 1, (r->plan.n - 1) * sizeof(*r->plan.items));
	r->plan.n--;
	nic_init(&r->nic, NIC_ICE);
	set_fw_lldp(&r->nic, true);
	assert_int_equal(engine(r, HALO_MODE_APPLY), HALO_EXIT_FAILED);
	assert_int_equal(r->nic.refused, 1);
	assert_int_equal(item(r, "pfc")->outcome, HALO_OUTCOME_FAILED);
	assert_non_null(strstr(item(r, "pfc")->message, "setting PFC (IEEE_SET)"));
	assert_non_null(strstr(item(r, "pfc")->message, strerror(EINVAL)));
	run_free(r);
}

/* An ice port the host table says is in a bond: every DCB change is
 * refused up front (the driver would refuse it), before anything is sent;
 * DCB already right is in sync. An mlx5 port in a bond is not ice's case. */
static void ice_bond_port(void **state)
{
	struct run *r = run_new(ROCE_CONF("      dcbx = \"host\"; pfc = [ 3 ];\n"), "ice");
	struct halo_errors errs = { 0 };
	struct halo_nlt *t;

	(void)state;
	snprintf(r->links[0].bond, sizeof(r->links[0].bond), "bond0");
	assert_int_equal(plan(r), 0);
	nic_init(&r->nic, NIC_ICE);
	set_fw_lldp(&r->nic, true);
	assert_int_equal(halo_netlink_transport(&r->ctx, &t), 0);
	halo_nlt_set_io(t, nic_io, &r->nic);
	assert_int_equal(halo_engine_observe(&r->ctx, &r->plan, 0, &errs), -EINVAL);
	assert_true(errs.n >= 2);
	assert_non_null(strstr(item(r, "pfc")->message, "rdma0 is a port of bond bond0"));
	assert_non_null(strstr(item(r, "fw-lldp-agent")->message, "DCB changes not allowed"));
	assert_int_equal(r->nic.dcb_sets, 0);
	halo_errors_free(&errs);

	/* agent off and PFC right: nothing to change, nothing refused */
	set_fw_lldp(&r->nic, false);
	r->nic.pfc_en = 1 << 3;
	assert_int_equal(engine(r, HALO_MODE_CHECK), 0);
	run_free(r);

	r = run_new(ROCE_CONF("      pfc = [ 3 ];\n"), "mlx5_core");
	snprintf(r->links[0].bond, sizeof(r->links[0].bond), "bond0");
	assert_int_equal(plan(r), 0);
	nic_init(&r->nic, NIC_MLX5);
	assert_int_equal(engine(r, HALO_MODE_APPLY), HALO_EXIT_CHANGED);
	assert_int_equal(r->nic.pfc_en, 1 << 3);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(plan_ice_order, free_live),
		cmocka_unit_test_teardown(plan_mlx5_and_subsets, free_live),
		cmocka_unit_test_teardown(plan_skips, free_live),
		cmocka_unit_test_teardown(plan_errors, free_live),
		cmocka_unit_test_teardown(plan_errors_all_at_once, free_live),
		cmocka_unit_test_teardown(ice_apply_order, free_live),
		cmocka_unit_test_teardown(mlx5_apply, free_live),
		cmocka_unit_test_teardown(mlx5_carrier_notes, free_live),
		cmocka_unit_test_teardown(partial_add_recorded, free_live),
		cmocka_unit_test_teardown(mlx5_replaced_forgotten, free_live),
		cmocka_unit_test_teardown(unsupported_and_required, free_live),
		cmocka_unit_test_teardown(ice_refusal_is_failed, free_live),
		cmocka_unit_test_teardown(ice_bond_port, free_live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
