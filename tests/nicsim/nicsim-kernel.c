/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nicsim-kernel.c: what the simulator asks of the real kernel, on netlink
 * sockets of its own opened through libc's socket() (never the program's
 * and never counted as its requests): generic netlink family ids, and the
 * link side effects of the simulated drivers.
 *
 * ice resets the port after every DCB change it commits
 * (ice_dcbnl_devreset: dev_close, dev_open): here the veth goes
 * administratively down and up, so the kernel itself drops what a real
 * down/up drops (static routes, IPv6 addresses; docs/hardware.md "Port
 * resets and carrier loss"). mlx5 toggles the port in firmware
 * (mlx5_toggle_port_link): the netdev stays UP and only the carrier goes;
 * a veth loses its carrier when its peer goes down, so the peer goes down
 * and up. The peer may live in another namespace: IFLA_LINK_NETNSID names
 * it, IFLA_TARGET_NETNSID reads it, and a child that enters that namespace
 * (a named one, under /run/netns) sets it (RTM_NEWLINK has no way to name
 * a device of another namespace: there the attribute moves the device).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/net_namespace.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nicsim.h"

#ifndef IFLA_TARGET_NETNSID
#define IFLA_TARGET_NETNSID 46
#endif

/* libc's own calls, past the wrappers this library exports. */
static struct {
	int (*socket)(int, int, int);
	int (*close)(int);
	ssize_t (*sendto)(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
	ssize_t (*recv)(int, void *, size_t, int);
} libc;

static void resolve(void)
{
	if (libc.socket)
		return;
	libc.close = dlsym(RTLD_NEXT, "close");
	libc.sendto = dlsym(RTLD_NEXT, "sendto");
	libc.recv = dlsym(RTLD_NEXT, "recv");
	libc.socket = dlsym(RTLD_NEXT, "socket");
}

int nicsim_kernel_request(int proto, struct nlmsghdr *req,
			  int (*cb)(const struct nlmsghdr *, void *), void *data)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	char buf[16384] __attribute__((aligned(4)));
	int fd, err = -EPROTO;
	bool done = false;

	resolve();
	fd = libc.socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, proto);
	if (fd < 0)
		return -errno;
	req->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	req->nlmsg_seq = (uint32_t)time(NULL);
	if (libc.sendto(fd, req, req->nlmsg_len, 0, (struct sockaddr *)&kernel,
			sizeof(kernel)) < 0) {
		err = -errno;
		libc.close(fd);
		return err;
	}
	while (!done) {
		ssize_t n = libc.recv(fd, buf, sizeof(buf), 0);
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;
		int len = (int)n;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		for (; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len)) {
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

				err = e->error;
				done = true;
				break;
			}
			if (nlh->nlmsg_type == NLMSG_DONE) {
				err = 0;
				done = true;
				break;
			}
			if (cb)
				cb(nlh, data);
		}
	}
	libc.close(fd);
	return err;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID &&
		    mnl_attr_validate(a, MNL_TYPE_U16) == 0)
			*(uint16_t *)data = mnl_attr_get_u16(a);
	return MNL_CB_OK;
}

/* All the lookups on one socket, in one datagram: the kernel answers each
 * GETFAMILY with exactly one message (the family, or the error of an
 * unknown one: no ACK is asked for), matched by sequence number. */
void nicsim_kernel_families(const char *const *names, uint16_t *ids, size_t n)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	char buf[8192] __attribute__((aligned(4))) = { 0 };
	uint32_t seq = (uint32_t)time(NULL);
	size_t off = 0, answered = 0;
	int fd;

	memset(ids, 0, n * sizeof(*ids));
	resolve();
	for (size_t i = 0; i < n; i++) {
		struct nlmsghdr *nlh;
		struct genlmsghdr *gh;

		if (off + MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(*gh)) +
		    MNL_ATTR_HDRLEN + MNL_ALIGN(strlen(names[i]) + 1) > sizeof(buf))
			return;
		nlh = mnl_nlmsg_put_header(buf + off);
		nlh->nlmsg_type = GENL_ID_CTRL;
		nlh->nlmsg_flags = NLM_F_REQUEST;
		nlh->nlmsg_seq = seq + (uint32_t)i;
		gh = mnl_nlmsg_put_extra_header(nlh, sizeof(*gh));
		gh->cmd = CTRL_CMD_GETFAMILY;
		gh->version = 1;
		mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, names[i]);
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	fd = libc.socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return;
	if (libc.sendto(fd, buf, off, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0) {
		libc.close(fd);
		return;
	}
	while (answered < n) {
		ssize_t r = libc.recv(fd, buf, sizeof(buf), 0);
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;
		int len = (int)r;

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		for (; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len)) {
			uint32_t i = nlh->nlmsg_seq - seq;

			if (i >= n)
				continue;
			answered++;
			if (nlh->nlmsg_type == GENL_ID_CTRL)
				family_cb(nlh, &ids[i]);
		}
	}
	libc.close(fd);
}

/* A link: its index, and the namespace id it is reached by (-1: ours). */
struct link_ref {
	int ifindex;
	int32_t netnsid;
};

/* RTM_NEWLINK setting IFF_UP on or off, in the caller's namespace. */
static int link_set(const struct link_ref *l, bool up)
{
	char buf[256] __attribute__((aligned(4))) = { 0 };
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifi;

	nlh->nlmsg_type = RTM_NEWLINK;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = l->ifindex;
	ifi->ifi_change = IFF_UP;
	ifi->ifi_flags = up ? IFF_UP : 0;
	return nicsim_kernel_request(NETLINK_ROUTE, nlh, NULL, NULL);
}

struct link_info {
	unsigned flags;
	int link;          /* IFLA_LINK, 0 when absent */
	int32_t link_netnsid;
	bool has_link_netnsid;
};

static int link_info_cb(const struct nlmsghdr *nlh, void *data)
{
	struct link_info *li = data;
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a;

	if (nlh->nlmsg_type != RTM_NEWLINK)
		return MNL_CB_OK;
	li->flags = ifi->ifi_flags;
	mnl_attr_for_each(a, nlh, sizeof(*ifi)) {
		if (mnl_attr_get_type(a) == IFLA_LINK &&
		    mnl_attr_validate(a, MNL_TYPE_U32) == 0)
			li->link = (int)mnl_attr_get_u32(a);
		if (mnl_attr_get_type(a) == IFLA_LINK_NETNSID &&
		    mnl_attr_validate(a, MNL_TYPE_U32) == 0) {
			li->link_netnsid = (int32_t)mnl_attr_get_u32(a);
			li->has_link_netnsid = true;
		}
	}
	return MNL_CB_OK;
}

static int link_get(const struct link_ref *l, struct link_info *li)
{
	char buf[256] __attribute__((aligned(4))) = { 0 };
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifi;

	memset(li, 0, sizeof(*li));
	nlh->nlmsg_type = RTM_GETLINK;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = l->ifindex;
	mnl_attr_put_u32(nlh, IFLA_EXT_MASK, RTEXT_FILTER_SKIP_STATS);
	if (l->netnsid >= 0)
		mnl_attr_put_u32(nlh, IFLA_TARGET_NETNSID, (uint32_t)l->netnsid);
	return nicsim_kernel_request(NETLINK_ROUTE, nlh, link_info_cb, li);
}

int nicsim_port_reset(struct nicsim_if *nic)
{
	struct link_ref self = { (int)if_nametoindex(nic->name), -1 };
	int err;

	if (nic->no_reset)
		return 0;
	if (!self.ifindex)
		return -ENODEV;
	/* dev_close, then dev_open: a port that was down comes up too. */
	err = link_set(&self, false);
	if (err < 0)
		return err;
	nic->port_resets++;
	return link_set(&self, true);
}

static int nsid_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, NLMSG_ALIGN(sizeof(struct rtgenmsg)))
		if (mnl_attr_get_type(a) == NETNSA_NSID &&
		    mnl_attr_validate(a, MNL_TYPE_U32) == 0)
			*(int32_t *)data = (int32_t)mnl_attr_get_u32(a);
	return MNL_CB_OK;
}

/* The id our namespace gives the namespace of FD (RTM_GETNSID), -1 none. */
static int32_t nsid_of(int fd)
{
	char buf[256] __attribute__((aligned(4))) = { 0 };
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct rtgenmsg *g;
	int32_t id = -1;

	nlh->nlmsg_type = RTM_GETNSID;
	g = mnl_nlmsg_put_extra_header(nlh, NLMSG_ALIGN(sizeof(*g)));
	g->rtgen_family = AF_UNSPEC;
	mnl_attr_put_u32(nlh, NETNSA_FD, (uint32_t)fd);
	if (nicsim_kernel_request(NETLINK_ROUTE, nlh, nsid_cb, &id) < 0)
		return -1;
	return id;
}

/* An fd of the named namespace our namespace knows as NSID, -1 none. */
static int netns_open(int32_t nsid)
{
	DIR *d = opendir("/run/netns");
	struct dirent *e;
	int found = -1;

	if (!d)
		return -1;
	while (found < 0 && (e = readdir(d))) {
		int fd;

		if (e->d_name[0] == '.')
			continue;
		fd = openat(dirfd(d), e->d_name, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (nsid_of(fd) == nsid)
			found = fd;
		else
			libc.close(fd);
	}
	closedir(d);
	return found;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* In a child (inside NSFD when it is not -1): L down, and up again MS
 * milliseconds later. Down at once, so the caller's reply comes while
 * the carrier is down (and up at once when MS is 0); or, with DELAY_MS,
 * down that long after the reply, from a grandchild. */
static int toggle(const struct link_ref *l, int nsfd, unsigned delay_ms, unsigned ms)
{
	int status = 0;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (nsfd >= 0 && setns(nsfd, CLONE_NEWNET) < 0)
			_exit(1);
		if (!delay_ms && link_set(l, false) < 0)
			_exit(1);
		if (!delay_ms && !ms)
			_exit(link_set(l, true) < 0);
		if (fork() == 0) {
			/* Hold no descriptor of the caller's: a shell reading
			 * the program's output through a pipe would wait for
			 * this process too. */
			for (int fd = 0; fd < 1024; fd++)
				libc.close(fd);
			setsid();
			if (delay_ms) {
				sleep_ms(delay_ms);
				if (link_set(l, false) < 0)
					_exit(1);
			}
			sleep_ms(ms);
			_exit(link_set(l, true) < 0);
		}
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

int nicsim_carrier_flap(struct nicsim_if *nic)
{
	struct link_ref self = { (int)if_nametoindex(nic->name), -1 }, peer;
	struct link_info li, pi;
	int err, nsfd = -1;

	resolve();
	if (!self.ifindex)
		return -ENODEV;
	err = link_get(&self, &li);
	if (err < 0)
		return err;
	/* The firmware brings the port back only if it was up: a netdev
	 * that is down stays down. */
	if (!(li.flags & IFF_UP))
		return 0;
	peer.ifindex = li.link;
	peer.netnsid = li.has_link_netnsid ? li.link_netnsid : -1;
	if (!peer.ifindex || (peer.ifindex == self.ifindex && peer.netnsid < 0))
		return 0; /* not a veth: no peer to take the carrier away */
	err = link_get(&peer, &pi);
	if (err < 0)
		return err;
	if (!(pi.flags & IFF_UP))
		return 0; /* no carrier to lose */
	if (peer.netnsid >= 0 && (nsfd = netns_open(peer.netnsid)) < 0)
		return -ENOENT; /* the peer's namespace has no name to enter */
	err = toggle(&peer, nsfd, nic->flap_delay_ms, nic->flap_ms);
	if (nsfd >= 0)
		libc.close(nsfd);
	if (err < 0)
		return err;
	nic->link_flaps++;
	return 0;
}
