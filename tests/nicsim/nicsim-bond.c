/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nicsim-bond.c: bonds on a kernel without the bonding driver.
 *
 * The build machines' kernel has no bonding (`ip link add type bond` is
 * "Unknown device type"), but it has bridges, whose ports carry a real
 * IFLA_MASTER. A test makes the bond a bridge and names it in
 * NICSIM_BONDS (names separated by spaces or commas): every rtnetlink
 * RTM_NEWLINK the kernel sends about it then says IFLA_INFO_KIND "bond",
 * as rtnl_link_info_fill would for a bonding master. Nothing else of the
 * message changes: "bridge" and "bond" take the same aligned room, so the
 * kind is rewritten in place, and the bridge's own IFLA_INFO_DATA stays
 * (a reader of the kind does not read it).
 */
#define _GNU_SOURCE
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "nicsim.h"

static bool listed(const char *name, size_t len)
{
	const char *list = nicsim_env()->bonds;

	for (const char *p = list; p && *p;) {
		size_t n = strcspn(p, " ,");

		if (n && n == len && memcmp(p, name, n) == 0)
			return true;
		p += n;
		p += strspn(p, " ,");
	}
	return false;
}

/* The attribute TYPE among the LEN bytes at P, or NULL (the kernel's
 * messages are well formed; a malformed one is left alone). */
static struct nlattr *attr_find(void *p, size_t len, unsigned short type)
{
	size_t off = 0;

	while (len - off >= NLA_HDRLEN) {
		struct nlattr *a = (struct nlattr *)((char *)p + off);

		if (a->nla_len < NLA_HDRLEN || a->nla_len > len - off)
			return NULL;
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
		off += NLA_ALIGN(a->nla_len);
	}
	return NULL;
}

static void rewrite_link(struct nlmsghdr *nlh)
{
	size_t hdr = NLMSG_LENGTH(sizeof(struct ifinfomsg));
	void *attrs = (char *)nlh + NLMSG_ALIGN(hdr);
	size_t len = nlh->nlmsg_len - NLMSG_ALIGN(hdr);
	struct nlattr *name, *info, *kind;

	if (nlh->nlmsg_len < NLMSG_ALIGN(hdr))
		return;
	name = attr_find(attrs, len, IFLA_IFNAME);
	info = attr_find(attrs, len, IFLA_LINKINFO);
	if (!name || !info || !listed((char *)(name + 1), strnlen((char *)(name + 1),
					      name->nla_len - NLA_HDRLEN)))
		return;
	kind = attr_find(info + 1, info->nla_len - NLA_HDRLEN, IFLA_INFO_KIND);
	if (!kind || kind->nla_len != NLA_HDRLEN + sizeof("bridge") ||
	    memcmp(kind + 1, "bridge", sizeof("bridge")) != 0)
		return;
	kind->nla_len = NLA_HDRLEN + sizeof("bond");
	memset(kind + 1, 0, sizeof("bridge"));
	memcpy(kind + 1, "bond", sizeof("bond"));
}

void nicsim_bond_rewrite(void *buf, size_t len)
{
	size_t off = 0;

	if (!nicsim_env()->bonds)
		return;
	while (len - off >= NLMSG_HDRLEN) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)buf + off);

		if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > len - off)
			return;
		if (nlh->nlmsg_type == RTM_NEWLINK)
			rewrite_link(nlh);
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
}
