/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nicsim: a simulated E810 or ConnectX NIC at the lowest seam, an
 * LD_PRELOAD library over the netlink socket calls. The program's own
 * encoding, sockets and parsing run unchanged: a request about a simulated
 * interface is answered here, in the kernel's shapes; every other message
 * goes to the kernel as it was sent. See README.md for the interface.
 *
 * Sockets stay real kernel sockets (bind and getsockname are the kernel's):
 * the library only remembers which fds are NETLINK_ROUTE or NETLINK_GENERIC
 * and keeps a queue of reply datagrams per fd, served before the kernel's.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "nicsim.h"

#define EXPORT __attribute__((visibility("default")))
#define MAX_FDS 4096
#define NOT_OURS (-2)
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
/* Above the kernel's generic netlink id range (ids stay below 1024). */
#define PRIVATE_DEVLINK_ID 0x7ff0
#define PRIVATE_ETHTOOL_ID 0x7ff1

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

struct fdstate {
	/* A NETLINK_ROUTE or NETLINK_GENERIC socket of the program's (false,
	 * as the zeroed table starts: nothing to set for 4096 fds at load). */
	bool watched;
	int proto;                 /* its protocol, while watched */
	uint32_t port;             /* its netlink port id; 0: not asked yet */
	/* NICSIM_CAP_ACK, NICSIM_EXT_ACK as the kernel holds them for the
	 * socket: none when socket() made it (netlink_create sets no flag),
	 * then as the program's setsockopt calls, seen by the wrapper below,
	 * set them (netlink_setsockopt). Kept here, they need no getsockopt
	 * pair before every ACK. */
	unsigned sockflags;
	struct nicsim_dgram *head, *tail;
};

static struct {
	pthread_mutex_t lock;
	bool loaded, configured;
	struct nicsim_if ifs[NICSIM_MAX_IFS];
	size_t n;
	bool fam_resolved;
	struct nicsim_families fam;
	struct fdstate fds[MAX_FDS];
	/* NICSIM_DEFER_GETS: reads counted but not written yet, per NIC. */
	unsigned long pending_get[NICSIM_MAX_IFS][NICSIM_PROTO_N];
	bool pending;
	/* NICSIM_DEFER_GETS: the state file as last read or written here;
	 * while it is that same file, memory is current and it is not
	 * parsed again (a writer's rename makes a new inode). */
	struct stat seen[NICSIM_MAX_IFS];
	bool seen_valid[NICSIM_MAX_IFS];
} g = { .lock = PTHREAD_MUTEX_INITIALIZER };

static int (*real_socket)(int, int, int);
static int (*real_close)(int);
static ssize_t (*real_send)(int, const void *, size_t, int);
static ssize_t (*real_sendto)(int, const void *, size_t, int,
			      const struct sockaddr *, socklen_t);
static ssize_t (*real_sendmsg)(int, const struct msghdr *, int);
static ssize_t (*real_recv)(int, void *, size_t, int);
static ssize_t (*real_recvfrom)(int, void *, size_t, int, struct sockaddr *,
				socklen_t *);
static ssize_t (*real_recvmsg)(int, struct msghdr *, int);
static int (*real_poll)(struct pollfd *, nfds_t, int);
static int (*real_setsockopt)(int, int, int, const void *, socklen_t);
static int (*real_setns)(int, int);
static int (*real_unshare)(int);

static void resolve_real(void)
{
	static bool done;

	if (done)
		return;
	real_socket = dlsym(RTLD_NEXT, "socket");
	real_close = dlsym(RTLD_NEXT, "close");
	real_send = dlsym(RTLD_NEXT, "send");
	real_sendto = dlsym(RTLD_NEXT, "sendto");
	real_sendmsg = dlsym(RTLD_NEXT, "sendmsg");
	real_recv = dlsym(RTLD_NEXT, "recv");
	real_recvfrom = dlsym(RTLD_NEXT, "recvfrom");
	real_recvmsg = dlsym(RTLD_NEXT, "recvmsg");
	real_poll = dlsym(RTLD_NEXT, "poll");
	real_setsockopt = dlsym(RTLD_NEXT, "setsockopt");
	real_setns = dlsym(RTLD_NEXT, "setns");
	real_unshare = dlsym(RTLD_NEXT, "unshare");
	done = true;
}

/* The environment, read once (nicsim.h): getenv walks all of it, and it
 * was asked several times for every request. */
static struct nicsim_env env;
static bool env_read;

const struct nicsim_env *nicsim_env(void)
{
	const char *defer;

	if (env_read)
		return &env;
	env.config = getenv("NICSIM_CONFIG");
	env.state = getenv("NICSIM_STATE");
	env.log = getenv("NICSIM_LOG");
	env.bonds = getenv("NICSIM_BONDS");
	defer = getenv("NICSIM_DEFER_GETS");
	env.drop_gets = defer && strcmp(defer, "drop") == 0;
	env.defer_gets = env.drop_gets || (defer && strcmp(defer, "1") == 0);
	env_read = true;
	return &env;
}

__attribute__((constructor)) static void nicsim_init(void)
{
	resolve_real();
	nicsim_env();
}

/*
 * Interface indexes, looked up (if_nametoindex: a socket, an ioctl and a
 * close) once per process and name rather than for every request. Only a
 * link that exists is remembered: one that appears later is seen at once.
 * What could make a remembered index wrong is a link renamed, deleted or
 * recreated, or another namespace: the process's own link changes
 * (RTM_NEWLINK, RTM_SETLINK, RTM_DELLINK on its rtnetlink sockets, the
 * module trap's renames included) and namespace switches (setns, unshare)
 * pass through this library and forget them all. A test changes the
 * simulated links only between processes, never behind a running one.
 */
static struct {
	char name[IFNAMSIZ];
	unsigned index;
} known_ifs[NICSIM_MAX_IFS];
static size_t n_known_ifs;
/* Set without the lock: the setns wrapper also runs in a child forked
 * while the lock is held (nicsim-kernel.c enters a peer's namespace). */
static bool known_ifs_stale;

static void ifindex_forget(void)
{
	__atomic_store_n(&known_ifs_stale, true, __ATOMIC_RELEASE);
}

unsigned nicsim_ifindex(const char *name)
{
	unsigned index;

	if (__atomic_exchange_n(&known_ifs_stale, false, __ATOMIC_ACQUIRE))
		n_known_ifs = 0;
	for (size_t i = 0; i < n_known_ifs; i++)
		if (strcmp(known_ifs[i].name, name) == 0)
			return known_ifs[i].index;
	index = if_nametoindex(name);
	if (index && n_known_ifs < NICSIM_MAX_IFS && strlen(name) < IFNAMSIZ) {
		strcpy(known_ifs[n_known_ifs].name, name);
		known_ifs[n_known_ifs++].index = index;
	}
	return index;
}

/* Whether NLH may rename, delete or recreate a link. */
static bool changes_links(int proto, const struct nlmsghdr *nlh)
{
	return proto == NETLINK_ROUTE &&
	       (nlh->nlmsg_type == RTM_NEWLINK || nlh->nlmsg_type == RTM_SETLINK ||
		nlh->nlmsg_type == RTM_DELLINK);
}

__attribute__((format(printf, 1, 2)))
static void logf_(const char *fmt, ...)
{
	const char *path = nicsim_env()->log;
	va_list ap;
	FILE *f;

	if (!path || !*path || !(f = fopen(path, "ae")))
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

/* A bad NICSIM_CONFIG is the test's mistake: say so and stop (exit 99,
 * automake's hard error) rather than answer like a real kernel. */
static void load_config(void)
{
	const char *path = nicsim_env()->config;
	char err[512];

	if (g.loaded)
		return;
	g.loaded = true;
	if (!path || !*path)
		return;
	if (nicsim_config_load(path, g.ifs, NICSIM_MAX_IFS, &g.n, err, sizeof(err)) < 0) {
		fprintf(stderr, "nicsim: %s\n", err);
		_exit(99);
	}
	g.configured = true;
}

static void resolve_families(void)
{
	static const char *const names[] = { "devlink", "ethtool" };
	uint16_t ids[ARRAY_LEN(names)];

	if (g.fam_resolved)
		return;
	nicsim_kernel_families(names, ids, ARRAY_LEN(names));
	g.fam.devlink = ids[0];
	g.fam.devlink_ours = g.fam.devlink == 0;
	if (g.fam.devlink_ours)
		g.fam.devlink = PRIVATE_DEVLINK_ID;
	g.fam.ethtool = ids[1];
	g.fam.ethtool_ours = g.fam.ethtool == 0;
	if (g.fam.ethtool_ours)
		g.fam.ethtool = PRIVATE_ETHTOOL_ID;
	g.fam_resolved = true;
}

/* ---- one request ---- */

static int find_if(const char *name)
{
	for (size_t i = 0; name && i < g.n; i++)
		if (strcmp(g.ifs[i].name, name) == 0 && nicsim_ifindex(name))
			return (int)i;
	return -1;
}

/* Whether MSG is for the simulator; *ret_idx the interface it is about. */
static bool is_ours(int proto, const struct nlmsghdr *msg, int *ret_idx)
{
	*ret_idx = -1;
	if (proto == NETLINK_ROUTE) {
		*ret_idx = find_if(nicsim_dcb_ifname(msg));
		return *ret_idx >= 0;
	}
	if (msg->nlmsg_type < NLMSG_MIN_TYPE)
		return false;
	resolve_families();
	return nicsim_genl_route(g.ifs, g.n, &g.fam, msg, ret_idx) == 0;
}

static uint32_t sock_port_of_kernel(int fd)
{
	struct sockaddr_nl sa;
	socklen_t len = sizeof(sa);

	if (getsockname(fd, (struct sockaddr *)&sa, &len) == 0 && sa.nl_pid)
		return sa.nl_pid;
	/* Unbound: the kernel would autobind at the first send; so do we. */
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	(void)bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	len = sizeof(sa);
	if (getsockname(fd, (struct sockaddr *)&sa, &len) == 0)
		return sa.nl_pid;
	return 0;
}

/* A bound netlink socket keeps its port id (a second bind is EINVAL), so
 * it is asked of the kernel once per socket. */
static uint32_t sock_port(int fd)
{
	if (!g.fds[fd].port)
		g.fds[fd].port = sock_port_of_kernel(fd);
	return g.fds[fd].port;
}

static unsigned sock_flags(int fd)
{
	return g.fds[fd].sockflags;
}

static bool defer_gets(void)
{
	return nicsim_env()->defer_gets;
}

/* NICSIM_DEFER_GETS=drop: reads are not counted at all. */
static bool drop_gets(void)
{
	return nicsim_env()->drop_gets;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       a->st_size == b->st_size && a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* Remembers the state file of NIC I as it is now (after a save). */
static void note_seen(size_t i)
{
	g.seen_valid[i] = defer_gets() && nicsim_state_stat(&g.ifs[i], &g.seen[i]) == 0;
}

static void load_state(size_t i)
{
	struct stat st;
	int err;

	if (g.seen_valid[i] && nicsim_state_stat(&g.ifs[i], &st) == 0 &&
	    same_file(&st, &g.seen[i]))
		return;
	/* The file as it was read (its fstat), not a stat() after. */
	err = nicsim_state_load(&g.ifs[i], &st);
	if (err > 0)
		g.seen_valid[i] = defer_gets();
	if (err > 0 && defer_gets())
		g.seen[i] = st;
	if (err < 0)
		fprintf(stderr, "nicsim: %s/%s.json: unreadable state (%s), kept the last one\n",
			nicsim_env()->state, g.ifs[i].name, strerror(-err));
	/* The file lacks the reads not written yet; what is kept in memory
	 * (no file, a bad one) has them. */
	for (int p = 0; err > 0 && p < NICSIM_PROTO_N; p++)
		g.ifs[i].get[p] += g.pending_get[i][p];
}

static void load_states(void)
{
	for (size_t i = 0; i < g.n; i++)
		load_state(i);
}

/* Loads the state of what REQ (on a PROTO socket, about interface IDX)
 * reads or changes, and only that: a dcbnl request or one about a device
 * touches that device's NIC alone (each file is a stat, and maybe a
 * parse); a generic netlink control message (GETFAMILY) none; anything
 * else, a dump above all, may walk every NIC. */
static void load_states_for(int proto, const struct nlmsghdr *req, int idx)
{
	if (proto == NETLINK_GENERIC && req->nlmsg_type == GENL_ID_CTRL)
		return;
	if (idx >= 0 && (proto == NETLINK_ROUTE || !nicsim_is_dump(req)))
		load_state((size_t)idx);
	else
		load_states();
}

static void save_state(size_t i)
{
	int err = nicsim_state_save(&g.ifs[i]);

	if (err < 0)
		fprintf(stderr, "nicsim: cannot write the state of %s: %s\n",
			g.ifs[i].name, strerror(-err));
	memset(g.pending_get[i], 0, sizeof(g.pending_get[i]));
	if (err >= 0)
		note_seen(i);
	else
		g.seen_valid[i] = false;
}

/*
 * NICSIM_DEFER_GETS=1 (an extension for benchmarks): a request that only
 * read leaves the state file alone; the reads it counted are written at
 * the next change or when the process exits. The file then lags by the
 * reads of a running process, and a killed one loses them. Without it,
 * every request is written, as the pinned interface says.
 * NICSIM_DEFER_GETS=drop: the same, but reads are not counted, so a
 * process that only reads (a benchmark's --check) writes nothing at all.
 */
static bool only_gets_changed(size_t i, const struct nicsim_if *before)
{
	struct nicsim_if was = *before;

	if (!defer_gets())
		return false;
	memcpy(was.get, g.ifs[i].get, sizeof(was.get));
	if (memcmp(&was, &g.ifs[i], sizeof(was)) != 0)
		return false;
	if (drop_gets()) {
		memcpy(g.ifs[i].get, before->get, sizeof(before->get));
		return true;
	}
	for (int p = 0; p < NICSIM_PROTO_N; p++)
		g.pending_get[i][p] += g.ifs[i].get[p] - before->get[p];
	g.pending = true;
	return true;
}

__attribute__((destructor)) static void nicsim_flush(void)
{
	if (!g.pending)
		return;
	pthread_mutex_lock(&g.lock);
	load_states();
	for (size_t i = 0; i < g.n; i++)
		for (int p = 0; p < NICSIM_PROTO_N; p++)
			if (g.pending_get[i][p]) {
				save_state(i);
				break;
			}
	g.pending = false;
	pthread_mutex_unlock(&g.lock);
}

static void handle(int fd, int proto, const struct nlmsghdr *req, int idx)
{
	static struct nicsim_if before[NICSIM_MAX_IFS];
	struct nicsim_out out = { .head = NULL, .tail = &out.head };
	uint32_t port = sock_port(fd);
	const char *msg = NULL;
	int err;

	load_states_for(proto, req, idx);
	memcpy(before, g.ifs, sizeof(g.ifs[0]) * g.n);
	if (proto == NETLINK_ROUTE)
		err = nicsim_dcb_handle(&g.ifs[idx], req, port, &out, &msg);
	else
		err = nicsim_genl_handle(g.ifs, g.n, idx, &g.fam, req, port, &out, &msg);
	if (err < 0) {
		nicsim_out_free(&out);
		nicsim_out_ack(&out, req, port, err, msg, sock_flags(fd));
	} else if ((req->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP &&
		   proto == NETLINK_GENERIC) {
		nicsim_out_done(&out, req, port);
	} else if (req->nlmsg_flags & NLM_F_ACK) {
		nicsim_out_ack(&out, req, port, 0, NULL, sock_flags(fd));
	}
	/* dcbmsg's cmd is its second byte, genlmsghdr's its first. */
	logf_("%s %s type=%u cmd=%u err=%d\n", idx >= 0 ? g.ifs[idx].name : "-",
	      proto == NETLINK_ROUTE ? "dcbnl" : "genl", req->nlmsg_type,
	      ((const uint8_t *)mnl_nlmsg_get_payload(req))[proto == NETLINK_ROUTE],
	      err);
	for (size_t i = 0; i < g.n; i++) {
		if (memcmp(&before[i], &g.ifs[i], sizeof(g.ifs[i])) == 0 ||
		    only_gets_changed(i, &before[i]))
			continue;
		save_state(i);
	}
	if (out.head) {
		struct fdstate *s = &g.fds[fd];

		if (s->tail)
			s->tail->next = out.head;
		else
			s->head = out.head;
		for (s->tail = out.head; s->tail->next; s->tail = s->tail->next)
			;
	}
}

/* The planted fault (planted=addr-clears-pfc): an RTM_NEWADDR or
 * RTM_NEWROUTE for a port that has it turns the port's PFC off, as no
 * driver does; the message itself goes on to the kernel. */
static void planted_faults(int proto, const struct nlmsghdr *nlh)
{
	int ifindex = 0;

	if (proto != NETLINK_ROUTE)
		return;
	if (nlh->nlmsg_type == RTM_NEWADDR &&
	    nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(struct ifaddrmsg))) {
		ifindex = (int)((const struct ifaddrmsg *)NLMSG_DATA(nlh))->ifa_index;
	} else if (nlh->nlmsg_type == RTM_NEWROUTE &&
		   nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(struct rtmsg))) {
		const struct nlattr *a;

		mnl_attr_for_each(a, nlh, sizeof(struct rtmsg))
			if (mnl_attr_get_type(a) == RTA_OIF &&
			    mnl_attr_get_payload_len(a) == sizeof(uint32_t))
				ifindex = (int)mnl_attr_get_u32(a);
	}
	if (ifindex <= 0)
		return;
	for (size_t i = 0; i < g.n; i++) {
		if (!g.ifs[i].planted_addr_clears_pfc ||
		    (int)nicsim_ifindex(g.ifs[i].name) != ifindex)
			continue;
		load_state(i);
		if (g.ifs[i].pfc_en == 0)
			continue;
		g.ifs[i].pfc_en = 0;
		logf_("%s planted: PFC off after an address or route change\n", g.ifs[i].name);
		save_state(i);
	}
}

/* NOT_OURS when no message of the datagram is for the simulator (the
 * caller sends it as it was); otherwise the simulator answers its own and
 * the rest go to the kernel in one datagram, and LEN is returned. */
static ssize_t try_send(int fd, const void *buf, size_t len, const struct sockaddr *to)
{
	const struct nlmsghdr *nlh;
	unsigned char *rest = NULL;
	size_t rest_len = 0, n_msg;
	bool any = false, links_changed = false;
	/* Each message's interface (NOT_OURS: the kernel's), found once: a
	 * simulated one is looked up in the namespace by name. */
	int left, idx, ours[64];
	ssize_t r = (ssize_t)len;

	if (fd < 0 || fd >= MAX_FDS || !g.fds[fd].watched || len > INT32_MAX)
		return NOT_OURS;
	if (to && ((const struct sockaddr_nl *)to)->nl_pid != 0)
		return NOT_OURS; /* to another process, not the kernel */
	pthread_mutex_lock(&g.lock);
	load_config();
	if (!g.configured) {
		pthread_mutex_unlock(&g.lock);
		return NOT_OURS;
	}
	left = (int)len;
	n_msg = 0;
	for (nlh = buf; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left), n_msg++) {
		bool mine;

		if (changes_links(g.fds[fd].proto, nlh)) {
			links_changed = true;
			ifindex_forget();
		}
		mine = is_ours(g.fds[fd].proto, nlh, &idx);
		if (n_msg < ARRAY_LEN(ours))
			ours[n_msg] = mine ? idx : NOT_OURS;
		if (mine)
			any = true;
		else
			planted_faults(g.fds[fd].proto, nlh);
	}
	if (!any) {
		/* Forgotten again: the loop may have looked a name up before
		 * the kernel (the caller's send, next) changes the link. */
		if (links_changed)
			ifindex_forget();
		pthread_mutex_unlock(&g.lock);
		return NOT_OURS;
	}
	left = (int)len;
	n_msg = 0;
	for (nlh = buf; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left), n_msg++) {
		bool mine = n_msg < ARRAY_LEN(ours) ? ours[n_msg] != NOT_OURS
						    : is_ours(g.fds[fd].proto, nlh, &idx);

		if (mine) {
			handle(fd, g.fds[fd].proto, nlh,
			       n_msg < ARRAY_LEN(ours) ? ours[n_msg] : idx);
			continue;
		}
		if (!rest && !(rest = malloc(len))) {
			r = -1;
			errno = ENOMEM;
			break;
		}
		size_t n = NLMSG_ALIGN(nlh->nlmsg_len);

		if (n > (size_t)left)
			n = nlh->nlmsg_len;
		memcpy(rest + rest_len, nlh, n);
		rest_len += n;
	}
	pthread_mutex_unlock(&g.lock);
	if (rest_len && r >= 0) {
		struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };

		if (real_sendto(fd, rest, rest_len, 0, (struct sockaddr *)&kernel,
				sizeof(kernel)) < 0)
			r = -1;
	}
	if (links_changed)
		ifindex_forget();
	free(rest);
	return r;
}

/* Copies the next queued datagram into IOV; NOT_OURS when there is none.
 * MSG_PEEK leaves it queued; MSG_TRUNC returns its real length. */
static ssize_t try_recv(int fd, const struct iovec *iov, size_t iovlen, int flags,
			struct sockaddr *from, socklen_t *fromlen, int *ret_msgflags)
{
	struct nicsim_dgram *d;
	size_t off = 0;
	ssize_t r;

	if (fd < 0 || fd >= MAX_FDS || !g.fds[fd].watched)
		return NOT_OURS;
	pthread_mutex_lock(&g.lock);
	d = g.fds[fd].head;
	if (!d) {
		pthread_mutex_unlock(&g.lock);
		return NOT_OURS;
	}
	for (size_t i = 0; i < iovlen && off < d->len; i++) {
		size_t n = d->len - off < iov[i].iov_len ? d->len - off : iov[i].iov_len;

		memcpy(iov[i].iov_base, d->data + off, n);
		off += n;
	}
	if (ret_msgflags)
		*ret_msgflags = off < d->len ? MSG_TRUNC : 0;
	if (from && fromlen) {
		struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
		socklen_t n = *fromlen < sizeof(kernel) ? *fromlen : sizeof(kernel);

		memcpy(from, &kernel, n);
		*fromlen = sizeof(kernel);
	}
	r = (flags & MSG_TRUNC) ? (ssize_t)d->len : (ssize_t)off;
	if (!(flags & MSG_PEEK)) {
		g.fds[fd].head = d->next;
		if (!d->next)
			g.fds[fd].tail = NULL;
		nicsim_dgram_free(d);
	}
	pthread_mutex_unlock(&g.lock);
	return r;
}

/* ---- the wrapped calls ---- */

EXPORT int socket(int domain, int type, int protocol)
{
	int fd;

	resolve_real();
	fd = real_socket(domain, type, protocol);
	if (fd >= 0 && fd < MAX_FDS) {
		pthread_mutex_lock(&g.lock);
		g.fds[fd].watched = domain == AF_NETLINK &&
				    (protocol == NETLINK_ROUTE || protocol == NETLINK_GENERIC);
		g.fds[fd].proto = protocol;
		g.fds[fd].port = 0;
		g.fds[fd].sockflags = 0;
		pthread_mutex_unlock(&g.lock);
	}
	return fd;
}

EXPORT int close(int fd)
{
	resolve_real();
	if (fd >= 0 && fd < MAX_FDS && g.fds[fd].watched) {
		struct nicsim_out q;

		pthread_mutex_lock(&g.lock);
		q.head = g.fds[fd].head;
		nicsim_out_free(&q);
		g.fds[fd].head = g.fds[fd].tail = NULL;
		g.fds[fd].watched = false;
		g.fds[fd].port = 0;
		g.fds[fd].sockflags = 0;
		pthread_mutex_unlock(&g.lock);
	}
	return real_close(fd);
}

/* NETLINK_CAP_ACK and NETLINK_EXT_ACK followed as netlink_setsockopt sets
 * them: an int, any value but 0 sets the flag, a shorter option clears it;
 * only a call the kernel took counts. */
EXPORT int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	unsigned flag = name == NETLINK_CAP_ACK ? NICSIM_CAP_ACK :
			name == NETLINK_EXT_ACK ? NICSIM_EXT_ACK : 0;
	int r, v = 0;

	resolve_real();
	r = real_setsockopt(fd, level, name, val, len);
	if (r < 0 || level != SOL_NETLINK || !flag || fd < 0 || fd >= MAX_FDS)
		return r;
	if (len >= sizeof(int))
		memcpy(&v, val, sizeof(v));
	pthread_mutex_lock(&g.lock);
	if (g.fds[fd].watched)
		g.fds[fd].sockflags = v ? g.fds[fd].sockflags | flag
					: g.fds[fd].sockflags & ~flag;
	pthread_mutex_unlock(&g.lock);
	return r;
}

/* Another network namespace: other links, other indexes. */
EXPORT int setns(int fd, int nstype)
{
	int r;

	resolve_real();
	r = real_setns(fd, nstype);
	if (r == 0 && (nstype == 0 || (nstype & CLONE_NEWNET)))
		ifindex_forget();
	return r;
}

EXPORT int unshare(int flags)
{
	int r;

	resolve_real();
	r = real_unshare(flags);
	if (r == 0 && (flags & CLONE_NEWNET))
		ifindex_forget();
	return r;
}

EXPORT ssize_t sendto(int fd, const void *buf, size_t len, int flags,
		      const struct sockaddr *to, socklen_t tolen)
{
	ssize_t r;

	resolve_real();
	r = try_send(fd, buf, len, to && tolen >= sizeof(struct sockaddr_nl) ? to : NULL);
	return r == NOT_OURS ? real_sendto(fd, buf, len, flags, to, tolen) : r;
}

EXPORT ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	ssize_t r;

	resolve_real();
	r = try_send(fd, buf, len, NULL);
	return r == NOT_OURS ? real_send(fd, buf, len, flags) : r;
}

EXPORT ssize_t sendmsg(int fd, const struct msghdr *m, int flags)
{
	unsigned char *buf;
	size_t len = 0, off = 0;
	ssize_t r;

	resolve_real();
	if (fd < 0 || fd >= MAX_FDS || !g.fds[fd].watched || !nicsim_env()->config)
		return real_sendmsg(fd, m, flags);
	for (size_t i = 0; i < m->msg_iovlen; i++)
		len += m->msg_iov[i].iov_len;
	buf = malloc(len ? len : 1);
	if (!buf)
		return real_sendmsg(fd, m, flags);
	for (size_t i = 0; i < m->msg_iovlen; i++) {
		memcpy(buf + off, m->msg_iov[i].iov_base, m->msg_iov[i].iov_len);
		off += m->msg_iov[i].iov_len;
	}
	r = try_send(fd, buf, len, m->msg_name && m->msg_namelen >= sizeof(struct sockaddr_nl)
		     ? m->msg_name : NULL);
	free(buf);
	return r == NOT_OURS ? real_sendmsg(fd, m, flags) : r;
}

/* What the kernel answered on an rtnetlink socket, N bytes of BUF (LEN):
 * links named in NICSIM_BONDS shown as bonds (nicsim-bond.c). */
static ssize_t from_kernel(int fd, void *buf, size_t len, ssize_t n)
{
	if (n > 0 && fd >= 0 && fd < MAX_FDS && g.fds[fd].watched &&
	    g.fds[fd].proto == NETLINK_ROUTE)
		nicsim_bond_rewrite(buf, (size_t)n < len ? (size_t)n : len);
	return n;
}

EXPORT ssize_t recvfrom(int fd, void *buf, size_t len, int flags,
			struct sockaddr *from, socklen_t *fromlen)
{
	struct iovec iov = { buf, len };
	ssize_t r;

	resolve_real();
	r = try_recv(fd, &iov, 1, flags, from, fromlen, NULL);
	if (r == NOT_OURS)
		return from_kernel(fd, buf, len, real_recvfrom(fd, buf, len, flags, from, fromlen));
	return r;
}

EXPORT ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	struct iovec iov = { buf, len };
	ssize_t r;

	resolve_real();
	r = try_recv(fd, &iov, 1, flags, NULL, NULL, NULL);
	if (r == NOT_OURS)
		return from_kernel(fd, buf, len, real_recv(fd, buf, len, flags));
	return r;
}

EXPORT ssize_t recvmsg(int fd, struct msghdr *m, int flags)
{
	socklen_t namelen = m->msg_namelen;
	int mflags = 0;
	ssize_t r;

	resolve_real();
	r = try_recv(fd, m->msg_iov, m->msg_iovlen, flags,
		     m->msg_name, m->msg_name ? &namelen : NULL, &mflags);
	if (r == NOT_OURS && m->msg_iovlen == 1)
		return from_kernel(fd, m->msg_iov[0].iov_base, m->msg_iov[0].iov_len,
				   real_recvmsg(fd, m, flags));
	if (r == NOT_OURS)
		return real_recvmsg(fd, m, flags);
	m->msg_namelen = m->msg_name ? namelen : 0;
	m->msg_controllen = 0;
	m->msg_flags = mflags;
	return r;
}

/* A queued reply makes the fd readable. */
EXPORT int poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	int ready = 0, r;

	resolve_real();
	pthread_mutex_lock(&g.lock);
	for (nfds_t i = 0; i < nfds; i++)
		if (fds[i].fd >= 0 && fds[i].fd < MAX_FDS && g.fds[fds[i].fd].head &&
		    (fds[i].events & POLLIN))
			ready++;
	pthread_mutex_unlock(&g.lock);
	if (!ready)
		return real_poll(fds, nfds, timeout);
	r = real_poll(fds, nfds, 0);
	if (r < 0)
		return r;
	r = 0;
	pthread_mutex_lock(&g.lock);
	for (nfds_t i = 0; i < nfds; i++) {
		if (fds[i].fd >= 0 && fds[i].fd < MAX_FDS && g.fds[fds[i].fd].head &&
		    (fds[i].events & POLLIN))
			fds[i].revents |= POLLIN;
		if (fds[i].revents)
			r++;
	}
	pthread_mutex_unlock(&g.lock);
	return r;
}
