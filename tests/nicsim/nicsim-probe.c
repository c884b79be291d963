/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nicsim-probe: sends one dcbnl, devlink or ethtool request given on the
 * command line and prints the reply, one fact a line, so a shell test can
 * drive a NIC (the simulator under LD_PRELOAD, or the real kernel) without
 * halo-provision. Every reply's seq and port id are checked against the
 * request's, as a careful client would. Sizes each datagram with
 * MSG_PEEK|MSG_TRUNC first, as libnl does, then reads it with recvmsg.
 *
 *   dcb-get IF [N] | dcb-dcbx IF | dcb-set-dcbx IF MODE
 *   dcb-pfc IF PRIOS|none [delay]   read-modify-write of struct ieee_pfc
 *   dcb-app-add IF SEL:PROTO:PRIO... | dcb-app-del IF SEL:PROTO:PRIO...
 *   dcb-raw-set IF ATTRHEX          IEEE_SET with one raw DCB_ATTR_IEEE_PFC
 *   dcb-ets IF BW TSA PRIO_TC [WILLING]   IEEE_SET of a whole struct ieee_ets
 *   family NAME
 *   devlink-get pci/ADDR PARAM | devlink-dump | devlink-info pci/ADDR
 *   devlink-set pci/ADDR PARAM true|false [runtime|driverinit]
 *   privflags-get IF|@INDEX [compact] | privflags-set IF FLAG on|off [compact]
 *   renamed OLD NEW COMMAND ARGS...   COMMAND, then the (down) link OLD
 *                                    renamed NEW by RTM_NEWLINK, then COMMAND
 *                                    again: one process, as a tool renaming
 *                                    a link between two requests
 *
 * Exit: 0 ACK 0, 1 an error ACK ("error -N NAME: message" printed), 2 usage,
 * 3 a reply that does not look like the kernel's.
 */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/dcbnl.h>
#include <linux/devlink.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif
#ifndef NLM_F_ACK_TLVS
#define NLM_F_ACK_TLVS 0x200
#endif
#ifndef NLM_F_CAPPED
#define NLM_F_CAPPED 0x100
#endif

static const char *sel_names[] = { "0", "ethertype", "stream", "dgram", "any", "dscp" };

static bool quiet; /* parse replies, print nothing */
#define say(...) do { if (!quiet) printf(__VA_ARGS__); } while (0)

typedef void (*msg_fn)(const struct nlmsghdr *nlh);

struct ctx {
	struct mnl_socket *nl;
	uint32_t port, seq;
	int err;
	char extack[256];
	unsigned n_msgs;
};

static int open_sock(struct ctx *c, int proto)
{
	int one = 1, fd;

	c->nl = mnl_socket_open(proto);
	if (!c->nl || mnl_socket_bind(c->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("nicsim-probe: socket");
		return -1;
	}
	fd = mnl_socket_get_fd(c->nl);
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	c->port = mnl_socket_get_portid(c->nl);
	return 0;
}

static void keep_extack(struct ctx *c, const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	size_t off = sizeof(*e);
	const struct nlattr *a;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	mnl_attr_for_each(a, nlh, off)
		if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
		    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
			snprintf(c->extack, sizeof(c->extack), "%s", mnl_attr_get_str(a));
}

/* Sends REQ, reads up to its ACK or DONE; 0, 1 (error ACK) or 3. */
static int transact(struct ctx *c, struct nlmsghdr *req, msg_fn fn)
{
	char buf[65536] __attribute__((aligned(4)));
	bool done = false;

	req->nlmsg_flags |= NLM_F_REQUEST;
	if ((req->nlmsg_flags & NLM_F_DUMP) != NLM_F_DUMP)
		req->nlmsg_flags |= NLM_F_ACK;
	req->nlmsg_seq = c->seq = (uint32_t)time(NULL);
	if (mnl_socket_sendto(c->nl, req, req->nlmsg_len) < 0) {
		perror("nicsim-probe: send");
		return 3;
	}
	c->err = 0;
	c->extack[0] = '\0';
	while (!done) {
		char small[16];
		ssize_t want = recv(mnl_socket_get_fd(c->nl), small, sizeof(small),
				    MSG_PEEK | MSG_TRUNC);
		ssize_t n;
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;
		int len;

		if (want < 0 || want > (ssize_t)sizeof(buf)) {
			fprintf(stderr, "nicsim-probe: peek: %zd\n", want);
			return 3;
		}
		n = mnl_socket_recvfrom(c->nl, buf, sizeof(buf));
		if (n != want) {
			fprintf(stderr, "nicsim-probe: peeked %zd bytes, read %zd\n", want, n);
			return 3;
		}
		len = (int)n;
		for (; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len)) {
			if (nlh->nlmsg_seq != c->seq || nlh->nlmsg_pid != c->port) {
				fprintf(stderr, "nicsim-probe: reply seq %u pid %u, want %u %u\n",
					nlh->nlmsg_seq, nlh->nlmsg_pid, c->seq, c->port);
				return 3;
			}
			c->n_msgs++;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

				c->err = e->error;
				keep_extack(c, nlh);
				done = true;
				nlh = mnl_nlmsg_next(nlh, &len);
				break;
			}
			if (nlh->nlmsg_type == NLMSG_DONE) {
				done = true;
				nlh = mnl_nlmsg_next(nlh, &len);
				break;
			}
			if (fn)
				fn(nlh);
		}
		if (len != 0) {
			/* The ACK or DONE ends the answer: nothing after it. */
			fprintf(stderr, "nicsim-probe: %d stray bytes\n", len);
			return 3;
		}
	}
	if (c->err) {
		printf("error %d %s%s%s\n", c->err, strerror(-c->err),
		       c->extack[0] ? ": " : "", c->extack);
		return 1;
	}
	return 0;
}

/* ---- dcbnl ---- */

static struct nlmsghdr *dcb_req(char *buf, uint16_t type, uint8_t cmd, const char *ifname)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct dcbmsg *d;

	nlh->nlmsg_type = type;
	d = mnl_nlmsg_put_extra_header(nlh, sizeof(*d));
	d->dcb_family = AF_UNSPEC;
	d->cmd = cmd;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, ifname);
	return nlh;
}

static struct ieee_pfc last_pfc;
static bool have_pfc;

static void print_pfc_en(uint8_t en)
{
	bool first = true;

	say("pfc_en ");
	for (int p = 0; p < 8; p++)
		if (en & (1u << p)) {
			say("%s%d", first ? "" : ",", p);
			first = false;
		}
	say("%s\n", first ? "none" : "");
}

static void print_u8s(const char *name, const uint8_t *v)
{
	say("%s", name);
	for (int i = 0; i < IEEE_8021QAZ_MAX_TCS; i++)
		say("%c%u", i ? ',' : ' ', v[i]);
	say("\n");
}

static void print_ets(const struct ieee_ets *e)
{
	say("ets_willing %u\nets_cap %u\n", e->willing, e->ets_cap);
	print_u8s("ets_bw", e->tc_tx_bw);
	print_u8s("ets_tsa", e->tc_tsa);
	print_u8s("ets_prio_tc", e->prio_tc);
}

/* "a,b,..." into eight bytes. */
static int parse_u8s(const char *s, uint8_t *v)
{
	char list[128], *save = NULL;
	int n = 0;

	snprintf(list, sizeof(list), "%s", s);
	for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (n == IEEE_8021QAZ_MAX_TCS)
			return -1;
		v[n++] = (uint8_t)strtoul(t, NULL, 0);
	}
	return n == IEEE_8021QAZ_MAX_TCS ? 0 : -1;
}

static void dcb_reply(const struct nlmsghdr *nlh)
{
	const struct dcbmsg *d = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a, *b, *app;

	say("reply %s cmd %u\n", nlh->nlmsg_type == RTM_SETDCB ? "setdcb" :
	       nlh->nlmsg_type == RTM_GETDCB ? "getdcb" : "?", d->cmd);
	mnl_attr_for_each(a, nlh, sizeof(*d)) {
		switch (mnl_attr_get_type(a)) {
		case DCB_ATTR_IFNAME:
			say("ifname %s\n", mnl_attr_get_str(a));
			break;
		case DCB_ATTR_DCBX:
			say("dcbx 0x%x\n", mnl_attr_get_u8(a));
			break;
		case DCB_ATTR_STATE:
			say("state %u\n", mnl_attr_get_u8(a));
			break;
		case DCB_ATTR_IEEE:
			if (mnl_attr_get_payload_len(a) == 1) {
				say("verdict %d\n", (int8_t)mnl_attr_get_u8(a));
				break;
			}
			mnl_attr_for_each_nested(b, a) {
				if (mnl_attr_get_type(b) == DCB_ATTR_IEEE_PFC) {
					if (mnl_attr_get_payload_len(b) != sizeof(last_pfc)) {
						say("pfc_size %u\n", mnl_attr_get_payload_len(b));
						continue;
					}
					memcpy(&last_pfc, mnl_attr_get_payload(b), sizeof(last_pfc));
					have_pfc = true;
					say("pfc_cap %u\n", last_pfc.pfc_cap);
					print_pfc_en(last_pfc.pfc_en);
					say("pfc_mbc %u\npfc_delay %u\n", last_pfc.mbc, last_pfc.delay);
				} else if (mnl_attr_get_type(b) == DCB_ATTR_IEEE_ETS) {
					say("ets_size %u\n", mnl_attr_get_payload_len(b));
					if (mnl_attr_get_payload_len(b) == sizeof(struct ieee_ets))
						print_ets(mnl_attr_get_payload(b));
				} else if (mnl_attr_get_type(b) == DCB_ATTR_IEEE_APP_TABLE) {
					mnl_attr_for_each_nested(app, b) {
						const struct dcb_app *x = mnl_attr_get_payload(app);

						if (mnl_attr_get_payload_len(app) < sizeof(*x))
							continue;
						if (x->selector < 6)
							say("app %s %u %u\n", sel_names[x->selector],
							       x->protocol, x->priority);
						else
							say("app %u %u %u\n", x->selector,
							       x->protocol, x->priority);
					}
				}
			}
			break;
		}
	}
}

static int parse_app(const char *s, struct dcb_app *app)
{
	char sel[16];
	unsigned prot, prio;
	int sl;

	if (sscanf(s, "%15[a-z0-9]:%u:%u", sel, &prot, &prio) != 3)
		return -1;
	sl = -1;
	for (int i = 1; i < 6; i++)
		if (strcmp(sel, sel_names[i]) == 0)
			sl = i;
	if (sl < 0)
		sl = atoi(sel);
	*app = (struct dcb_app){ .selector = (uint8_t)sl, .priority = (uint8_t)prio,
				 .protocol = (uint16_t)prot };
	return 0;
}

static int cmd_dcb(struct ctx *c, int argc, char **argv)
{
	char buf[8192] __attribute__((aligned(4))) = { 0 };
	const char *cmd = argv[0], *ifname = argv[1];
	struct nlmsghdr *nlh;
	struct nlattr *ieee, *tab;
	int r;

	if (open_sock(c, NETLINK_ROUTE) < 0)
		return 3;
	if (strcmp(cmd, "dcb-get") == 0) {
		/* dcb-get IFNAME [N]: N reads from one process. */
		long n = argc == 3 ? strtol(argv[2], NULL, 10) : 1;

		r = 0;
		for (long i = 0; i < n && r == 0; i++)
			r = transact(c, dcb_req(buf, RTM_GETDCB, DCB_CMD_IEEE_GET, ifname), dcb_reply);
		return r;
	}
	if (strcmp(cmd, "dcb-dcbx") == 0)
		return transact(c, dcb_req(buf, RTM_GETDCB, DCB_CMD_GDCBX, ifname), dcb_reply);
	if (strcmp(cmd, "dcb-state") == 0)
		return transact(c, dcb_req(buf, RTM_GETDCB, DCB_CMD_GSTATE, ifname), dcb_reply);
	if (strcmp(cmd, "dcb-set-dcbx") == 0 && argc == 3) {
		nlh = dcb_req(buf, RTM_SETDCB, DCB_CMD_SDCBX, ifname);
		mnl_attr_put_u8(nlh, DCB_ATTR_DCBX, (uint8_t)strtoul(argv[2], NULL, 0));
		return transact(c, nlh, dcb_reply);
	}
	if (strcmp(cmd, "dcb-pfc") == 0 && argc >= 3) {
		/* Read-modify-write, as iproute2's dcb pfc set: fields other
		 * than pfc_en (and delay when given) are kept. */
		quiet = true;
		r = transact(c, dcb_req(buf, RTM_GETDCB, DCB_CMD_IEEE_GET, ifname), dcb_reply);
		quiet = false;
		if (r || !have_pfc)
			return r ? r : 3;
		last_pfc.pfc_en = 0;
		if (strcmp(argv[2], "none") != 0) {
			char list[64], *save = NULL;

			snprintf(list, sizeof(list), "%s", argv[2]);
			for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
				last_pfc.pfc_en |= (uint8_t)(1u << (atoi(t) & 7));
		}
		if (argc >= 4)
			last_pfc.delay = (uint16_t)atoi(argv[3]);
		memset(buf, 0, sizeof(buf));
		nlh = dcb_req(buf, RTM_SETDCB, DCB_CMD_IEEE_SET, ifname);
		ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
		mnl_attr_put(nlh, DCB_ATTR_IEEE_PFC, sizeof(last_pfc), &last_pfc);
		mnl_attr_nest_end(nlh, ieee);
		return transact(c, nlh, dcb_reply);
	}
	if (strcmp(cmd, "dcb-ets") == 0 && argc >= 5) {
		/* dcb-ets IF BW TSA PRIO_TC [WILLING]: a whole struct ieee_ets
		 * (eight comma-separated numbers each). */
		struct ieee_ets ets = { .ets_cap = IEEE_8021QAZ_MAX_TCS };

		if (parse_u8s(argv[2], ets.tc_tx_bw) < 0 || parse_u8s(argv[3], ets.tc_tsa) < 0 ||
		    parse_u8s(argv[4], ets.prio_tc) < 0)
			return 2;
		ets.willing = argc >= 6 ? (uint8_t)atoi(argv[5]) : 0;
		nlh = dcb_req(buf, RTM_SETDCB, DCB_CMD_IEEE_SET, ifname);
		ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
		mnl_attr_put(nlh, DCB_ATTR_IEEE_ETS, sizeof(ets), &ets);
		mnl_attr_nest_end(nlh, ieee);
		return transact(c, nlh, dcb_reply);
	}
	if (strcmp(cmd, "dcb-raw-pfc") == 0 && argc == 3) {
		/* A DCB_ATTR_IEEE_PFC of the given length (a short one must
		 * be refused with ERANGE). */
		unsigned char raw[256] = { 0 };
		size_t len = strtoul(argv[2], NULL, 0);

		if (len > sizeof(raw))
			return 2;
		nlh = dcb_req(buf, RTM_SETDCB, DCB_CMD_IEEE_SET, ifname);
		ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
		mnl_attr_put(nlh, DCB_ATTR_IEEE_PFC, len, raw);
		mnl_attr_nest_end(nlh, ieee);
		return transact(c, nlh, dcb_reply);
	}
	if ((strcmp(cmd, "dcb-app-add") == 0 || strcmp(cmd, "dcb-app-del") == 0) && argc >= 3) {
		nlh = dcb_req(buf, RTM_SETDCB, strcmp(cmd, "dcb-app-add") == 0 ?
			      DCB_CMD_IEEE_SET : DCB_CMD_IEEE_DEL, ifname);
		ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
		tab = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE_APP_TABLE);
		for (int i = 2; i < argc; i++) {
			struct dcb_app app;

			if (parse_app(argv[i], &app) < 0)
				return 2;
			mnl_attr_put(nlh, DCB_ATTR_IEEE_APP, sizeof(app), &app);
		}
		mnl_attr_nest_end(nlh, tab);
		mnl_attr_nest_end(nlh, ieee);
		return transact(c, nlh, dcb_reply);
	}
	return 2;
}

/* ---- generic netlink ---- */

static uint16_t family_id;

static void family_reply(const struct nlmsghdr *nlh)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID) {
			family_id = mnl_attr_get_u16(a);
			say("id %u\n", family_id);
		} else if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_NAME) {
			say("name %s\n", mnl_attr_get_str(a));
		}
	}
}

static int family(struct ctx *c, const char *name, bool print)
{
	char buf[256] __attribute__((aligned(4))) = { 0 };
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;
	int r;

	nlh->nlmsg_type = GENL_ID_CTRL;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	quiet = !print;
	r = transact(c, nlh, family_reply);
	quiet = false;
	return r;
}

static struct nlmsghdr *genl_req(char *buf, uint16_t id, uint8_t cmd, uint8_t version)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = id;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

static void devlink_reply(const struct nlmsghdr *nlh)
{
	const struct nlattr *a, *p, *l, *v, *x;
	const char *bus = "?", *dev = "?";

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		uint16_t t = mnl_attr_get_type(a);

		if (t == DEVLINK_ATTR_BUS_NAME)
			bus = mnl_attr_get_str(a);
		else if (t == DEVLINK_ATTR_DEV_NAME)
			dev = mnl_attr_get_str(a);
		else if (t != DEVLINK_ATTR_PARAM)
			continue;
		if (t != DEVLINK_ATTR_PARAM) {
			continue;
		}
		mnl_attr_for_each_nested(p, a) {
			if (mnl_attr_get_type(p) == DEVLINK_ATTR_PARAM_NAME)
				printf("param %s/%s %s", bus, dev, mnl_attr_get_str(p));
			if (mnl_attr_get_type(p) != DEVLINK_ATTR_PARAM_VALUES_LIST)
				continue;
			mnl_attr_for_each_nested(l, p) {
				int cmode = -1;
				bool data = false;

				mnl_attr_for_each_nested(v, l) {
					x = v;
					if (mnl_attr_get_type(x) == DEVLINK_ATTR_PARAM_VALUE_CMODE)
						cmode = mnl_attr_get_u8(x);
					if (mnl_attr_get_type(x) == DEVLINK_ATTR_PARAM_VALUE_DATA)
						data = true;
				}
				printf(" %s %s", cmode == DEVLINK_PARAM_CMODE_RUNTIME ? "runtime" :
				       cmode == DEVLINK_PARAM_CMODE_DRIVERINIT ? "driverinit" :
				       "permanent", data ? "true" : "false");
			}
			printf("\n");
		}
	}
}

/* "driver NAME", "serial S", "board-serial S", then "fixed|running|stored
 * NAME VALUE" a line, in the reply's order. */
static void info_reply(const struct nlmsghdr *nlh)
{
	static const char *const kinds[] = { "fixed", "running", "stored" };
	const struct nlattr *a, *v;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		uint16_t t = mnl_attr_get_type(a);
		const char *name = "?", *value = "?";

		if (t == DEVLINK_ATTR_INFO_DRIVER_NAME)
			say("driver %s\n", mnl_attr_get_str(a));
		else if (t == DEVLINK_ATTR_INFO_SERIAL_NUMBER)
			say("serial %s\n", mnl_attr_get_str(a));
		else if (t == DEVLINK_ATTR_INFO_BOARD_SERIAL_NUMBER)
			say("board-serial %s\n", mnl_attr_get_str(a));
		if (t < DEVLINK_ATTR_INFO_VERSION_FIXED || t > DEVLINK_ATTR_INFO_VERSION_STORED)
			continue;
		mnl_attr_for_each_nested(v, a) {
			if (mnl_attr_get_type(v) == DEVLINK_ATTR_INFO_VERSION_NAME)
				name = mnl_attr_get_str(v);
			else if (mnl_attr_get_type(v) == DEVLINK_ATTR_INFO_VERSION_VALUE)
				value = mnl_attr_get_str(v);
		}
		say("%s %s %s\n", kinds[t - DEVLINK_ATTR_INFO_VERSION_FIXED], name, value);
	}
}

static int split_handle(const char *h, char *bus, char *dev)
{
	const char *slash = strchr(h, '/');

	if (!slash || slash - h >= 16 || strlen(slash + 1) >= 64)
		return -1;
	memcpy(bus, h, (size_t)(slash - h));
	bus[slash - h] = '\0';
	strcpy(dev, slash + 1);
	return 0;
}

static int cmd_devlink(struct ctx *c, int argc, char **argv)
{
	char buf[4096] __attribute__((aligned(4))) = { 0 }, bus[16], dev[64];
	struct nlmsghdr *nlh;
	int r;

	if (open_sock(c, NETLINK_GENERIC) < 0)
		return 3;
	r = family(c, DEVLINK_GENL_NAME, false);
	if (r)
		return r;
	if (strcmp(argv[0], "devlink-dump") == 0) {
		nlh = genl_req(buf, family_id, DEVLINK_CMD_PARAM_GET, DEVLINK_GENL_VERSION);
		nlh->nlmsg_flags = NLM_F_DUMP;
		return transact(c, nlh, devlink_reply);
	}
	if (argc < 2 || split_handle(argv[1], bus, dev) < 0)
		return 2;
	if (strcmp(argv[0], "devlink-info") == 0) {
		nlh = genl_req(buf, family_id, DEVLINK_CMD_INFO_GET, DEVLINK_GENL_VERSION);
		mnl_attr_put_strz(nlh, DEVLINK_ATTR_BUS_NAME, bus);
		mnl_attr_put_strz(nlh, DEVLINK_ATTR_DEV_NAME, dev);
		return transact(c, nlh, info_reply);
	}
	if (argc < 3)
		return 2;
	if (strcmp(argv[0], "devlink-get") == 0) {
		nlh = genl_req(buf, family_id, DEVLINK_CMD_PARAM_GET, DEVLINK_GENL_VERSION);
		mnl_attr_put_strz(nlh, DEVLINK_ATTR_BUS_NAME, bus);
		mnl_attr_put_strz(nlh, DEVLINK_ATTR_DEV_NAME, dev);
		mnl_attr_put_strz(nlh, DEVLINK_ATTR_PARAM_NAME, argv[2]);
		return transact(c, nlh, devlink_reply);
	}
	if (strcmp(argv[0], "devlink-set") == 0 && argc >= 4) {
		uint8_t cmode = argc >= 5 && strcmp(argv[4], "driverinit") == 0 ?
				DEVLINK_PARAM_CMODE_DRIVERINIT : DEVLINK_PARAM_CMODE_RUNTIME;

		nlh = genl_req(buf, family_id, DEVLINK_CMD_PARAM_SET, DEVLINK_GENL_VERSION);
		mnl_attr_put_strz(nlh, DEVLINK_ATTR_BUS_NAME, bus);
		mnl_attr_put_strz(nlh, DEVLINK_ATTR_DEV_NAME, dev);
		mnl_attr_put_strz(nlh, DEVLINK_ATTR_PARAM_NAME, argv[2]);
		mnl_attr_put_u8(nlh, DEVLINK_ATTR_PARAM_TYPE, 6 /* NLA_FLAG: bool */);
		if (strcmp(argv[3], "true") == 0)
			mnl_attr_put(nlh, DEVLINK_ATTR_PARAM_VALUE_DATA, 0, NULL);
		mnl_attr_put_u8(nlh, DEVLINK_ATTR_PARAM_VALUE_CMODE, cmode);
		return transact(c, nlh, NULL);
	}
	return 2;
}

static void privflags_reply(const struct nlmsghdr *nlh)
{
	const struct nlattr *a, *b, *bits, *bit, *x;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == ETHTOOL_A_PRIVFLAGS_HEADER) {
			mnl_attr_for_each_nested(b, a) {
				if (mnl_attr_get_type(b) == ETHTOOL_A_HEADER_DEV_NAME)
					printf("dev %s\n", mnl_attr_get_str(b));
				if (mnl_attr_get_type(b) == ETHTOOL_A_HEADER_DEV_INDEX)
					printf("index %u\n", mnl_attr_get_u32(b));
			}
		}
		if (mnl_attr_get_type(a) != ETHTOOL_A_PRIVFLAGS_FLAGS)
			continue;
		mnl_attr_for_each_nested(b, a) {
			switch (mnl_attr_get_type(b)) {
			case ETHTOOL_A_BITSET_SIZE:
				printf("size %u\n", mnl_attr_get_u32(b));
				break;
			case ETHTOOL_A_BITSET_VALUE:
				printf("value 0x%x\n", *(const uint32_t *)mnl_attr_get_payload(b));
				break;
			case ETHTOOL_A_BITSET_MASK:
				printf("mask 0x%x\n", *(const uint32_t *)mnl_attr_get_payload(b));
				break;
			case ETHTOOL_A_BITSET_BITS:
				bits = b;
				mnl_attr_for_each_nested(bit, bits) {
					const char *name = "?";
					bool on = false;

					mnl_attr_for_each_nested(x, bit) {
						if (mnl_attr_get_type(x) == ETHTOOL_A_BITSET_BIT_NAME)
							name = mnl_attr_get_str(x);
						if (mnl_attr_get_type(x) == ETHTOOL_A_BITSET_BIT_VALUE)
							on = true;
					}
					printf("flag %s %s\n", name, on ? "on" : "off");
				}
				break;
			}
		}
	}
}

static void put_dev(struct nlmsghdr *nlh, const char *dev, bool compact)
{
	struct nlattr *h = mnl_attr_nest_start(nlh, ETHTOOL_A_PRIVFLAGS_HEADER);

	if (dev[0] == '@')
		mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_DEV_INDEX, (uint32_t)atoi(dev + 1));
	else
		mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, dev);
	if (compact)
		mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_FLAGS, ETHTOOL_FLAG_COMPACT_BITSETS);
	mnl_attr_nest_end(nlh, h);
}

static int cmd_ethtool(struct ctx *c, int argc, char **argv)
{
	char buf[4096] __attribute__((aligned(4))) = { 0 };
	bool compact = strcmp(argv[argc - 1], "compact") == 0;
	struct nlmsghdr *nlh;
	struct nlattr *set, *bits, *bit;
	int r;

	if (open_sock(c, NETLINK_GENERIC) < 0)
		return 3;
	r = family(c, ETHTOOL_GENL_NAME, false);
	if (r)
		return r;
	if (strcmp(argv[0], "privflags-get") == 0) {
		nlh = genl_req(buf, family_id, ETHTOOL_MSG_PRIVFLAGS_GET, ETHTOOL_GENL_VERSION);
		put_dev(nlh, argv[1], compact);
		return transact(c, nlh, privflags_reply);
	}
	if (strcmp(argv[0], "privflags-set") == 0 && argc >= 4) {
		nlh = genl_req(buf, family_id, ETHTOOL_MSG_PRIVFLAGS_SET, ETHTOOL_GENL_VERSION);
		put_dev(nlh, argv[1], false);
		set = mnl_attr_nest_start(nlh, ETHTOOL_A_PRIVFLAGS_FLAGS);
		bits = mnl_attr_nest_start(nlh, ETHTOOL_A_BITSET_BITS);
		bit = mnl_attr_nest_start(nlh, ETHTOOL_A_BITSET_BITS_BIT);
		mnl_attr_put_strz(nlh, ETHTOOL_A_BITSET_BIT_NAME, argv[2]);
		if (strcmp(argv[3], "on") == 0)
			mnl_attr_put(nlh, ETHTOOL_A_BITSET_BIT_VALUE, 0, NULL);
		mnl_attr_nest_end(nlh, bit);
		mnl_attr_nest_end(nlh, bits);
		mnl_attr_nest_end(nlh, set);
		return transact(c, nlh, NULL);
	}
	return 2;
}

/* One COMMAND ARGS... on a socket of its own (closed after). */
static int run(int argc, char **argv)
{
	struct ctx c = { 0 };
	int r;

	if (strncmp(argv[0], "dcb-", 4) == 0 && argc >= 2)
		r = cmd_dcb(&c, argc, argv);
	else if (strcmp(argv[0], "family") == 0 && argc == 2)
		r = open_sock(&c, NETLINK_GENERIC) < 0 ? 3 : family(&c, argv[1], true);
	else if (strncmp(argv[0], "devlink-", 8) == 0)
		r = cmd_devlink(&c, argc, argv);
	else if (strncmp(argv[0], "privflags-", 10) == 0 && argc >= 2)
		r = cmd_ethtool(&c, argc, argv);
	else
		r = 2;
	if (c.nl)
		mnl_socket_close(c.nl);
	return r;
}

/* RTM_NEWLINK naming link OLD (by its index) NEW. */
static int rename_link(const char *old, const char *new)
{
	char buf[256] __attribute__((aligned(4))) = { 0 };
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifi;
	struct ctx c = { 0 };
	int r;

	nlh->nlmsg_type = RTM_NEWLINK;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = (int)if_nametoindex(old);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, new);
	r = open_sock(&c, NETLINK_ROUTE) < 0 ? 3 : transact(&c, nlh, NULL);
	if (c.nl)
		mnl_socket_close(c.nl);
	return r;
}

int main(int argc, char **argv)
{
	int r;

	if (argc < 2) {
		fprintf(stderr, "usage: nicsim-probe COMMAND ARGS... (see the source's header)\n");
		return 2;
	}
	argv++;
	argc--;
	if (strcmp(argv[0], "renamed") == 0 && argc >= 4) {
		r = run(argc - 3, argv + 3);
		if (r != 2) {
			r = rename_link(argv[1], argv[2]);
			printf("renamed %s %s: %d\n", argv[1], argv[2], r);
			r = run(argc - 3, argv + 3);
		}
	} else {
		r = run(argc, argv);
	}
	if (r == 2)
		fprintf(stderr, "nicsim-probe: bad arguments (see the source's header)\n");
	return r;
}
