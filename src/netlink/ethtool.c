/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ethtool.c: private flags through ethtool netlink (see ethtool.h). The
 * request header is ETHTOOL_A_PRIVFLAGS_HEADER { ETHTOOL_A_HEADER_DEV_NAME };
 * the flags are the bitset ETHTOOL_A_PRIVFLAGS_FLAGS.
 */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <net/if.h>
#include <string.h>

#include "netlink/transport.h"
#include "netlink/attrs.h"
#include "netlink/ethtool.h"
#include "netlink/request.h"

static int req_start(void *buf, size_t size, uint16_t family, uint8_t cmd,
		     const char *ifname, struct nlmsghdr **ret_nlh)
{
	struct nlmsghdr *nlh;
	struct nlattr *hdr;
	int err;

	if (!ifname || !*ifname || strlen(ifname) >= IF_NAMESIZE)
		return -EINVAL;
	err = halo_genl_req_start(buf, size, family, cmd, ETHTOOL_GENL_VERSION, &nlh);
	if (err < 0)
		return err;
	hdr = mnl_attr_nest_start_check(nlh, size, ETHTOOL_A_PRIVFLAGS_HEADER);
	if (!hdr || !mnl_attr_put_strz_check(nlh, size, ETHTOOL_A_HEADER_DEV_NAME,
					     ifname))
		return -EMSGSIZE;
	mnl_attr_nest_end(nlh, hdr);
	*ret_nlh = nlh;
	return 0;
}

int halo_ethtool_req_privflags_get(void *buf, size_t size, uint16_t family,
				   const char *ifname, struct nlmsghdr **ret_nlh)
{
	return req_start(buf, size, family, ETHTOOL_MSG_PRIVFLAGS_GET, ifname,
			 ret_nlh);
}

int halo_ethtool_req_privflag_set(void *buf, size_t size, uint16_t family,
				  const char *ifname, const char *flag, bool on,
				  struct nlmsghdr **ret_nlh)
{
	struct nlattr *flags, *bits, *bit;
	struct nlmsghdr *nlh;
	int err;

	if (!flag || !*flag || strlen(flag) >= ETH_GSTRING_LEN)
		return -EINVAL;
	err = req_start(buf, size, family, ETHTOOL_MSG_PRIVFLAGS_SET, ifname, &nlh);
	if (err < 0)
		return err;
	/* Verbose, no NOMASK: a bit listed is set to its VALUE (a flag
	 * present for on), every bit not listed is left alone. */
	flags = mnl_attr_nest_start_check(nlh, size, ETHTOOL_A_PRIVFLAGS_FLAGS);
	bits = flags ? mnl_attr_nest_start_check(nlh, size, ETHTOOL_A_BITSET_BITS) : NULL;
	bit = bits ? mnl_attr_nest_start_check(nlh, size, ETHTOOL_A_BITSET_BITS_BIT) : NULL;
	if (!bit || !mnl_attr_put_strz_check(nlh, size, ETHTOOL_A_BITSET_BIT_NAME, flag))
		return -EMSGSIZE;
	if (on && !mnl_attr_put_check(nlh, size, ETHTOOL_A_BITSET_BIT_VALUE, 0, ""))
		return -EMSGSIZE;
	mnl_attr_nest_end(nlh, bit);
	mnl_attr_nest_end(nlh, bits);
	mnl_attr_nest_end(nlh, flags);
	*ret_nlh = nlh;
	return 0;
}

/* ---- parsing ---- */

/* One verbose BIT. */
struct bit {
	bool has_index, value;
	uint32_t index;
	char name[ETH_GSTRING_LEN];
};

static int bit_cb(const struct nlattr *a, void *userdata)
{
	struct bit *b = userdata;
	int err;

	switch (mnl_attr_get_type(a)) {
	case ETHTOOL_A_BITSET_BIT_INDEX:
		b->has_index = true;
		return halo_attr_u32(a, &b->index);
	case ETHTOOL_A_BITSET_BIT_NAME:
		err = halo_attr_str(a, b->name, sizeof(b->name));
		return err;
	case ETHTOOL_A_BITSET_BIT_VALUE:
		b->value = true;
		return halo_attr_flag(a);
	default:
		return 0;
	}
}

struct bitset {
	struct halo_ethtool_privflags f;
	bool has_size, nomask;
	const struct nlattr *value, *mask, *bits;
};

/* The bitset's attributes, kept for after the walk: SIZE may come after
 * the parts whose lengths it decides. */
static int bitset_cb(const struct nlattr *a, void *userdata)
{
	struct bitset *s = userdata;

	switch (mnl_attr_get_type(a)) {
	case ETHTOOL_A_BITSET_NOMASK:
		s->nomask = true;
		return halo_attr_flag(a);
	case ETHTOOL_A_BITSET_SIZE:
		s->has_size = true;
		return halo_attr_u32(a, &s->f.n);
	case ETHTOOL_A_BITSET_VALUE:
		s->value = a;
		return 0;
	case ETHTOOL_A_BITSET_MASK:
		s->mask = a;
		return 0;
	case ETHTOOL_A_BITSET_BITS:
		s->bits = a;
		return 0;
	default:
		return 0;
	}
}

static int bits_cb(const struct nlattr *a, void *userdata)
{
	struct bitset *s = userdata;
	struct bit b = { 0 };
	int err;

	if (mnl_attr_get_type(a) != ETHTOOL_A_BITSET_BITS_BIT)
		return 0;
	err = halo_attr_walk_nested(a, bit_cb, &b);
	if (err < 0)
		return err;
	if (!b.has_index || b.index >= s->f.n)
		return -EBADMSG;
	/* A bit list (NOMASK) names the bits that are on. */
	if (b.value || s->nomask)
		s->f.values |= 1u << b.index;
	if (b.name[0]) {
		s->f.named |= 1u << b.index;
		memcpy(s->f.names[b.index], b.name, sizeof(b.name));
	}
	return 0;
}

/* A compact VALUE or MASK: exactly the words SIZE needs. */
static int words(const struct nlattr *a, uint32_t n, uint32_t *ret)
{
	uint32_t w = 0;

	if (mnl_attr_get_payload_len(a) != (n + 31) / 32 * 4)
		return -EBADMSG;
	if (n)
		memcpy(&w, mnl_attr_get_payload(a), sizeof(w));
	*ret = n < 32 ? w & ((1u << n) - 1) : w;
	return 0;
}

int halo_ethtool_parse_bitset(const void *attrs, size_t len,
			      struct halo_ethtool_privflags *ret)
{
	struct bitset s = { 0 };
	int err = halo_attr_walk(attrs, len, bitset_cb, &s);

	if (err < 0)
		return err;
	if (!s.has_size || s.f.n > HALO_ETHTOOL_PRIVFLAGS_MAX)
		return -EBADMSG;
	if (s.value) {
		uint32_t mask = 0;

		if (s.bits)
			return -EBADMSG; /* both forms at once */
		err = words(s.value, s.f.n, &s.f.values);
		if (err == 0 && s.mask)
			err = words(s.mask, s.f.n, &mask);
		if (err < 0)
			return err;
		/* A value/mask pair: the bits outside the mask are unknown,
		 * and read as off. */
		if (s.mask && !s.nomask)
			s.f.values &= mask;
	} else if (s.bits) {
		err = halo_attr_walk_nested(s.bits, bits_cb, &s);
		if (err < 0)
			return err;
	} else if (s.f.n) {
		return -EBADMSG; /* flags without their values */
	}
	*ret = s.f;
	return 0;
}

struct reply {
	struct halo_ethtool_privflags *f;
	bool flags;
};

static int reply_cb(const struct nlattr *a, void *userdata)
{
	struct reply *r = userdata;

	if (mnl_attr_get_type(a) != ETHTOOL_A_PRIVFLAGS_FLAGS)
		return 0;
	r->flags = true;
	return halo_ethtool_parse_bitset(mnl_attr_get_payload(a),
					 mnl_attr_get_payload_len(a), r->f);
}

int halo_ethtool_parse_privflags(const void *nlh, size_t len,
				 struct halo_ethtool_privflags *ret)
{
	struct halo_ethtool_privflags f;
	struct reply r = { .f = &f };
	int err = halo_attr_genl(nlh, len, ETHTOOL_MSG_PRIVFLAGS_GET_REPLY,
				 ETHTOOL_MSG_PRIVFLAGS_GET_REPLY, reply_cb, &r);

	if (err < 0)
		return err;
	if (!r.flags)
		return -EBADMSG;
	*ret = f;
	return 0;
}

int halo_ethtool_privflag_find(const struct halo_ethtool_privflags *f, const char *name)
{
	for (uint32_t i = 0; i < f->n && i < HALO_ETHTOOL_PRIVFLAGS_MAX; i++)
		if ((f->named & (1u << i)) && strcmp(f->names[i], name) == 0)
			return (int)i;
	return -ENOENT;
}

/* ---- requests ---- */

#define REQ_SIZE 256

static int parse_flags(const void *nlh, size_t len, void *ret)
{
	return halo_ethtool_parse_privflags(nlh, len, ret);
}

int halo_ethtool_privflags_get(struct halo_nlt *t, const char *ifname,
			       struct halo_ethtool_privflags *ret)
{
	char buf[REQ_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	uint16_t family;
	int err = halo_nlt_family(t, ETHTOOL_GENL_NAME, &family);

	if (err < 0)
		return err;
	err = halo_ethtool_req_privflags_get(buf, sizeof(buf), family, ifname, &nlh);
	if (err < 0)
		return err;
	return halo_req_one(t, HALO_NLT_GENERIC, nlh, parse_flags, sizeof(*ret), ret);
}

int halo_ethtool_privflag_get(struct halo_nlt *t, const char *ifname,
			      const char *flag, bool *ret_on)
{
	struct halo_ethtool_privflags f;
	int i = halo_ethtool_privflags_get(t, ifname, &f);

	if (i < 0)
		return i;
	i = halo_ethtool_privflag_find(&f, flag);
	if (i < 0)
		return i;
	*ret_on = f.values & (1u << i);
	return 0;
}

int halo_ethtool_privflag_set(struct halo_nlt *t, const char *ifname,
			      const char *flag, bool on)
{
	char buf[REQ_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	uint16_t family;
	int err = halo_nlt_family(t, ETHTOOL_GENL_NAME, &family);

	if (err < 0)
		return err;
	err = halo_ethtool_req_privflag_set(buf, sizeof(buf), family, ifname, flag,
					    on, &nlh);
	if (err < 0)
		return err;
	return halo_nlt_request(t, HALO_NLT_GENERIC, nlh, NULL, NULL, NULL);
}
