/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for src/netlink/ethtool.c: PRIVFLAGS_GET / _SET requests byte by
 * byte against <linux/ethtool_netlink.h>; the bitset parser on the
 * compact, verbose and bit-list forms of net/ethtool/bitset.c and on
 * malformed ones; a fake kernel answering through the transport's seam
 * (ice's flags, no ethtool family, errors with extended ACK); the real
 * kernel's ethtool family.
 */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "netlink-test.h"
#include "netlink/ethtool.h"

#define BUFSZ 4096
#define FAMILY 0x15

/* ice's private flags, in its order (ice_ethtool.c ice_gstrings_priv_flags). */
static const char *const ice_flags[] = {
	"link-down-on-close", "fw-lldp-agent", "vf-true-promisc-support",
	"mdd-auto-reset-vf", "vf-vlan-pruning", "legacy-rx",
};
#define N_ICE 6

static void uapi_layouts(void **state)
{
	(void)state;
	assert_int_equal(ETHTOOL_MSG_PRIVFLAGS_GET, 13);
	assert_int_equal(ETHTOOL_MSG_PRIVFLAGS_SET, 14);
	assert_int_equal(ETHTOOL_MSG_PRIVFLAGS_GET_REPLY, 14);
	assert_int_equal(ETHTOOL_A_PRIVFLAGS_HEADER, 1);
	assert_int_equal(ETHTOOL_A_PRIVFLAGS_FLAGS, 2);
	assert_int_equal(ETHTOOL_A_HEADER_DEV_NAME, 2);
	assert_int_equal(ETHTOOL_A_BITSET_NOMASK, 1);
	assert_int_equal(ETHTOOL_A_BITSET_SIZE, 2);
	assert_int_equal(ETHTOOL_A_BITSET_BITS, 3);
	assert_int_equal(ETHTOOL_A_BITSET_VALUE, 4);
	assert_int_equal(ETHTOOL_A_BITSET_MASK, 5);
	assert_int_equal(ETHTOOL_A_BITSET_BITS_BIT, 1);
	assert_int_equal(ETHTOOL_A_BITSET_BIT_INDEX, 1);
	assert_int_equal(ETHTOOL_A_BITSET_BIT_NAME, 2);
	assert_int_equal(ETHTOOL_A_BITSET_BIT_VALUE, 3);
	assert_int_equal(ETH_GSTRING_LEN, 32);
}

/* nlmsghdr, genlmsghdr, HEADER { DEV_NAME "rdma0" }: next at 36. */
static size_t check_start(const struct nlmsghdr *nlh, uint8_t cmd, uint16_t flags)
{
	const uint8_t *b = (const uint8_t *)nlh;
	size_t off = check_genl_request(nlh, FAMILY, cmd, ETHTOOL_GENL_VERSION, flags);

	assert_true(u16_at(b, 22) & NLA_F_NESTED);
	off = check_nest(b, off, ETHTOOL_A_PRIVFLAGS_HEADER, 12);
	assert_memory_equal(b + off + 4, "rdma0\0\0\0", 8);
	return check_attr(b, off, ETHTOOL_A_HEADER_DEV_NAME, 6);
}

static void encode(void **state)
{
	char buf[BUFSZ] __attribute__((aligned(4)));
	const uint8_t *b = (const uint8_t *)buf;
	struct nlmsghdr *nlh = NULL;
	size_t off;

	(void)state;
	memset(buf, 0xaa, sizeof(buf));
	assert_int_equal(halo_ethtool_req_privflags_get(buf, sizeof(buf), FAMILY, "rdma0",
							&nlh), 0);
	assert_ptr_equal(nlh, buf);
	off = check_start(nlh, ETHTOOL_MSG_PRIVFLAGS_GET, NLM_F_REQUEST | NLM_F_ACK);
	assert_int_equal(nlh->nlmsg_len, off);
	assert_int_equal(off, 36);

	/* FLAGS { BITS { BIT { NAME, [VALUE] } } }: verbose, no NOMASK, no
	 * SIZE, no INDEX; only the flag that changes. */
	for (int on = 1; on >= 0; on--) {
		memset(buf, 0xaa, sizeof(buf));
		assert_int_equal(halo_ethtool_req_privflag_set(buf, sizeof(buf), FAMILY,
							       "rdma0", "fw-lldp-agent",
							       on, &nlh), 0);
		off = check_start(nlh, ETHTOOL_MSG_PRIVFLAGS_SET, NLM_F_REQUEST | NLM_F_ACK);
		off = check_nest(b, off, ETHTOOL_A_PRIVFLAGS_FLAGS, 28 + 4 * on);
		off = check_nest(b, off, ETHTOOL_A_BITSET_BITS, 24 + 4 * on);
		off = check_nest(b, off, ETHTOOL_A_BITSET_BITS_BIT, 20 + 4 * on);
		assert_memory_equal(b + off + 4, "fw-lldp-agent\0\0\0", 16);
		off = check_attr(b, off, ETHTOOL_A_BITSET_BIT_NAME, 14);
		if (on)
			off = check_attr(b, off, ETHTOOL_A_BITSET_BIT_VALUE, 0);
		assert_int_equal(nlh->nlmsg_len, off);
	}
}

static void encode_errors(void **state)
{
	char buf[BUFSZ] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = NULL;

	(void)state;
	assert_int_equal(halo_ethtool_req_privflags_get(buf, sizeof(buf), FAMILY, "", &nlh),
			 -EINVAL);
	assert_int_equal(halo_ethtool_req_privflags_get(buf, sizeof(buf), FAMILY,
							"0123456789abcdef", &nlh), -EINVAL);
	assert_int_equal(halo_ethtool_req_privflag_set(buf, sizeof(buf), FAMILY, "rdma0", "",
						       true, &nlh), -EINVAL);
	assert_int_equal(halo_ethtool_req_privflag_set(buf, sizeof(buf), FAMILY, "rdma0",
						       "0123456789abcdef0123456789abcdef",
						       true, &nlh), -EINVAL);
	assert_int_equal(halo_ethtool_req_privflags_get(buf, 32, FAMILY, "rdma0", &nlh),
			 -EMSGSIZE);
	assert_int_equal(halo_ethtool_req_privflag_set(buf, 60, FAMILY, "rdma0",
						       "fw-lldp-agent", true, &nlh), -EMSGSIZE);
	assert_null(nlh);
}

/* ---- replies as bitset.c builds them ---- */

enum form { VERBOSE, LIST, COMPACT, COMPACT_NOMASK };

/* PRIVFLAGS_GET_REPLY with N of ice's flags, VALUES on. */
static struct nlmsghdr *flags_reply(char *buf, uint32_t seq, enum form form,
				    uint32_t n, uint32_t values)
{
	struct nlmsghdr *nlh = genl_reply(buf, FAMILY, seq, ETHTOOL_MSG_PRIVFLAGS_GET_REPLY,
					  ETHTOOL_GENL_VERSION);
	struct nlattr *hdr, *flags, *bits, *bit;
	uint32_t mask = n < 32 ? (1u << n) - 1 : ~0u;

	hdr = mnl_attr_nest_start(nlh, ETHTOOL_A_PRIVFLAGS_HEADER);
	mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_DEV_INDEX, 2);
	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, "rdma0");
	mnl_attr_nest_end(nlh, hdr);
	flags = mnl_attr_nest_start(nlh, ETHTOOL_A_PRIVFLAGS_FLAGS);
	if (form == LIST || form == COMPACT_NOMASK)
		mnl_attr_put(nlh, ETHTOOL_A_BITSET_NOMASK, 0, "");
	mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_SIZE, n);
	if (form == COMPACT || form == COMPACT_NOMASK) {
		/* Up to two words (a size of 33 is tested). */
		uint32_t m[2] = { mask, n > 32 ? (1u << (n - 32)) - 1 : 0 };
		uint32_t v[2] = { values & mask, 0 };

		mnl_attr_put(nlh, ETHTOOL_A_BITSET_VALUE, (n + 31) / 32 * 4, v);
		if (form == COMPACT)
			mnl_attr_put(nlh, ETHTOOL_A_BITSET_MASK, (n + 31) / 32 * 4, m);
	} else {
		bits = mnl_attr_nest_start(nlh, ETHTOOL_A_BITSET_BITS);
		for (uint32_t i = 0; i < n; i++) {
			bool on = i < 32 && (values & (1u << i));

			if (form == LIST && !on)
				continue;
			bit = mnl_attr_nest_start(nlh, ETHTOOL_A_BITSET_BITS_BIT);
			mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_BIT_INDEX, i);
			mnl_attr_put_strz(nlh, ETHTOOL_A_BITSET_BIT_NAME,
					  i < N_ICE ? ice_flags[i] : "extra");
			if (form == VERBOSE && on)
				mnl_attr_put(nlh, ETHTOOL_A_BITSET_BIT_VALUE, 0, "");
			mnl_attr_nest_end(nlh, bit);
		}
		mnl_attr_nest_end(nlh, bits);
	}
	mnl_attr_nest_end(nlh, flags);
	return nlh;
}

static void parse_forms(void **state)
{
	char buf[BUFSZ] __attribute__((aligned(4)));
	struct halo_ethtool_privflags f;
	struct nlmsghdr *nlh;

	(void)state;
	/* Verbose, value/mask (what the kernel sends without COMPACT). */
	memset(buf, 0, sizeof(buf));
	nlh = flags_reply(buf, 1, VERBOSE, N_ICE, 0x03);
	assert_int_equal(halo_ethtool_parse_privflags(nlh, nlh->nlmsg_len, &f), 0);
	assert_int_equal(f.n, N_ICE);
	assert_int_equal(f.values, 0x03);
	assert_int_equal(f.named, 0x3f);
	assert_int_equal(halo_ethtool_privflag_find(&f, "fw-lldp-agent"), 1);
	assert_int_equal(halo_ethtool_privflag_find(&f, "legacy-rx"), 5);
	assert_string_equal(f.names[2], "vf-true-promisc-support");
	assert_int_equal(halo_ethtool_privflag_find(&f, "fw-lldp"), -ENOENT);

	/* Verbose bit list (NOMASK): the bits listed are the ones on. */
	memset(buf, 0, sizeof(buf));
	nlh = flags_reply(buf, 1, LIST, N_ICE, 0x22);
	assert_int_equal(halo_ethtool_parse_privflags(nlh, nlh->nlmsg_len, &f), 0);
	assert_int_equal(f.values, 0x22);
	assert_int_equal(f.named, 0x22); /* only those are named */

	/* Compact, with and without a mask: values, no names. */
	memset(buf, 0, sizeof(buf));
	nlh = flags_reply(buf, 1, COMPACT, N_ICE, 0x02);
	assert_int_equal(halo_ethtool_parse_privflags(nlh, nlh->nlmsg_len, &f), 0);
	assert_int_equal(f.n, N_ICE);
	assert_int_equal(f.values, 0x02);
	assert_int_equal(f.named, 0);
	assert_int_equal(halo_ethtool_privflag_find(&f, "fw-lldp-agent"), -ENOENT);
	memset(buf, 0, sizeof(buf));
	nlh = flags_reply(buf, 1, COMPACT_NOMASK, 32, 0x80000001u);
	assert_int_equal(halo_ethtool_parse_privflags(nlh, nlh->nlmsg_len, &f), 0);
	assert_int_equal(f.values, 0x80000001u);

	/* A device without private flags. */
	for (enum form form = VERBOSE; form <= COMPACT_NOMASK; form++) {
		memset(buf, 0, sizeof(buf));
		nlh = flags_reply(buf, 1, form, 0, 0);
		assert_int_equal(halo_ethtool_parse_privflags(nlh, nlh->nlmsg_len, &f), 0);
		assert_int_equal(f.n, 0);
		assert_int_equal(f.values, 0);
	}
}

/* The offset of the FLAGS nest's payload: after the 16 + 4 headers and
 * the HEADER nest (4 + 8 + 12) and the FLAGS header. */
#define FLAGS_AT (20 + 24 + 4)

static void parse_malformed(void **state)
{
	char buf[BUFSZ] __attribute__((aligned(4)));
	struct halo_ethtool_privflags f, before;
	struct nlmsghdr *nlh;
	size_t full;

	(void)state;
	memset(&f, 0x5a, sizeof(f));
	before = f;

	/* Every truncation of a verbose and of a compact reply. */
	for (enum form form = VERBOSE; form <= COMPACT; form++) {
		memset(buf, 0, sizeof(buf));
		nlh = flags_reply(buf, 1, form, N_ICE, 0x03);
		full = nlh->nlmsg_len;
		for (size_t len = 0; len < full; len++)
			assert_int_equal(halo_ethtool_parse_privflags(nlh, len, &f), -EBADMSG);
		for (size_t len = 0; len < full; len++) {
			nlh->nlmsg_len = (uint32_t)len;
			assert_int_equal(halo_ethtool_parse_privflags(nlh, full, &f), -EBADMSG);
		}
	}
	assert_memory_equal(&f, &before, sizeof(f));

	/* More flags than the kernel can have. */
	memset(buf, 0, sizeof(buf));
	nlh = flags_reply(buf, 1, VERBOSE, 33, 1);
	assert_int_equal(halo_ethtool_parse_privflags(nlh, nlh->nlmsg_len, &f), -EBADMSG);
	memset(buf, 0, sizeof(buf));
	nlh = flags_reply(buf, 1, COMPACT, 33, 1);
	assert_int_equal(halo_ethtool_parse_privflags(nlh, nlh->nlmsg_len, &f), -EBADMSG);

	/* SIZE smaller than the bits listed: index out of range. */
	memset(buf, 0, sizeof(buf));
	nlh = flags_reply(buf, 1, VERBOSE, N_ICE, 0x03);
	assert_int_equal(u16_at(buf, FLAGS_AT + 2), ETHTOOL_A_BITSET_SIZE);
	buf[FLAGS_AT + 4] = 5;
	assert_int_equal(halo_ethtool_parse_privflags(nlh, nlh->nlmsg_len, &f), -EBADMSG);
	/* SIZE as a u16. */
	buf[FLAGS_AT + 4] = N_ICE;
	buf[FLAGS_AT] = 6;
	assert_int_equal(halo_ethtool_parse_privflags(nlh, nlh->nlmsg_len, &f), -EBADMSG);

	/* Compact VALUE of the wrong length for SIZE. */
	memset(buf, 0, sizeof(buf));
	nlh = flags_reply(buf, 1, COMPACT, N_ICE, 0x03);
	buf[FLAGS_AT + 4] = 40; /* two words wanted, one given */
	assert_int_equal(halo_ethtool_parse_privflags(nlh, nlh->nlmsg_len, &f), -EBADMSG);

	/* A bit without its index; a name without its NUL. */
	{
		struct nlattr *flags, *bits, *bit;

		for (int c = 0; c < 2; c++) {
			char name[ETH_GSTRING_LEN];

			memset(buf, 0, sizeof(buf));
			nlh = flags_reply(buf, 1, VERBOSE, 0, 0);
			nlh->nlmsg_len = FLAGS_AT - 4;
			flags = mnl_attr_nest_start(nlh, ETHTOOL_A_PRIVFLAGS_FLAGS);
			mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_SIZE, 2);
			bits = mnl_attr_nest_start(nlh, ETHTOOL_A_BITSET_BITS);
			bit = mnl_attr_nest_start(nlh, ETHTOOL_A_BITSET_BITS_BIT);
			if (c == 0) {
				mnl_attr_put_strz(nlh, ETHTOOL_A_BITSET_BIT_NAME, "fw-lldp-agent");
			} else {
				memset(name, 'n', sizeof(name));
				mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_BIT_INDEX, 1);
				mnl_attr_put(nlh, ETHTOOL_A_BITSET_BIT_NAME, sizeof(name), name);
			}
			mnl_attr_nest_end(nlh, bit);
			mnl_attr_nest_end(nlh, bits);
			mnl_attr_nest_end(nlh, flags);
			assert_int_equal(halo_ethtool_parse_privflags(nlh, nlh->nlmsg_len, &f),
					 -EBADMSG);
		}
	}

	/* Both forms at once; flags without values; no FLAGS at all. */
	memset(buf, 0, sizeof(buf));
	nlh = flags_reply(buf, 1, VERBOSE, N_ICE, 0x03);
	{
		uint32_t v = 1;
		size_t len = nlh->nlmsg_len;
		struct nlattr *flags = (struct nlattr *)(buf + FLAGS_AT - 4);

		mnl_attr_put(nlh, ETHTOOL_A_BITSET_VALUE, 4, &v);
		flags->nla_len += (uint16_t)(nlh->nlmsg_len - len);
		assert_int_equal(halo_ethtool_parse_privflags(nlh, nlh->nlmsg_len, &f), -EBADMSG);
	}
	memset(buf, 0, sizeof(buf));
	nlh = flags_reply(buf, 1, VERBOSE, 0, 0);
	nlh->nlmsg_len = FLAGS_AT - 4;
	mnl_attr_nest_end(nlh, mnl_attr_nest_start(nlh, ETHTOOL_A_PRIVFLAGS_FLAGS));
	assert_int_equal(halo_ethtool_parse_privflags(nlh, nlh->nlmsg_len, &f), -EBADMSG);
	nlh->nlmsg_len = FLAGS_AT - 4;
	{
		struct nlattr *flags = mnl_attr_nest_start(nlh, ETHTOOL_A_PRIVFLAGS_FLAGS);

		mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_SIZE, 3);
		mnl_attr_nest_end(nlh, flags);
	}
	assert_int_equal(halo_ethtool_parse_privflags(nlh, nlh->nlmsg_len, &f), -EBADMSG);
	nlh->nlmsg_len = FLAGS_AT - 4;
	assert_int_equal(halo_ethtool_parse_privflags(nlh, nlh->nlmsg_len, &f), -EBADMSG);

	/* Another command. */
	memset(buf, 0, sizeof(buf));
	nlh = flags_reply(buf, 1, VERBOSE, N_ICE, 0x03);
	buf[16] = ETHTOOL_MSG_PRIVFLAGS_NTF;
	assert_int_equal(halo_ethtool_parse_privflags(nlh, nlh->nlmsg_len, &f), -EBADMSG);
	assert_memory_equal(&f, &before, sizeof(f));
}

/* ---- the fake kernel ---- */

/* ethtool answering PRIVFLAGS_GET with ice's flags, VALUES on, in FORM. */
struct fake {
	struct fake_genl g;
	enum form form;
	uint32_t values;
};

static struct nlmsghdr *fake_reply(const struct fake_genl *g, char *buf, uint32_t seq)
{
	const struct fake *f = (const struct fake *)g;

	return flags_reply(buf, seq, f->form, N_ICE, f->values);
}

static void through_transport(void **state)
{
	struct fake *f = fake_genl_new(sizeof(*f), ETHTOOL_GENL_NAME, FAMILY, fake_reply);
	unsigned long counter = 0;
	struct halo_nlt *t = NULL;
	struct halo_ethtool_privflags fl;
	bool on = false;

	(void)state;
	t = fake_transport(fake_genl_io, &f->g, &counter);
	f->g.answer = FAKE_REPLY;
	f->form = VERBOSE;
	f->values = 0x02;
	assert_int_equal(halo_ethtool_privflag_get(t, "rdma0", "fw-lldp-agent", &on), 0);
	assert_true(on);
	assert_int_equal(counter, 2);
	check_start((struct nlmsghdr *)f->g.k.req, ETHTOOL_MSG_PRIVFLAGS_GET, NLM_F_REQUEST);
	f->values = 0x3d;
	assert_int_equal(halo_ethtool_privflag_get(t, "rdma0", "fw-lldp-agent", &on), 0);
	assert_false(on);
	assert_int_equal(halo_ethtool_privflags_get(t, "rdma0", &fl), 0);
	assert_int_equal(fl.values, 0x3d);
	assert_int_equal(halo_ethtool_privflag_get(t, "rdma0", "no-such-flag", &on), -ENOENT);
	/* A compact answer names nothing: the flag cannot be found. */
	f->form = COMPACT;
	assert_int_equal(halo_ethtool_privflag_get(t, "rdma0", "fw-lldp-agent", &on), -ENOENT);
	assert_int_equal(counter, 6);

	f->g.answer = FAKE_ACK;
	assert_int_equal(halo_ethtool_privflag_set(t, "rdma0", "fw-lldp-agent", false), 0);
	check_start((struct nlmsghdr *)f->g.k.req, ETHTOOL_MSG_PRIVFLAGS_SET, NLM_F_REQUEST | NLM_F_ACK);
	assert_int_equal(((struct nlmsghdr *)f->g.k.req)->nlmsg_len, 36 + 32);
	assert_int_equal(halo_ethtool_privflags_get(t, "rdma0", &fl), -EBADMSG);

	f->g.answer = FAKE_ERROR;
	f->g.k.error = -EINVAL;
	f->g.k.extack = "cannot find bit \"fw-lldp-agent\"";
	assert_int_equal(halo_ethtool_privflag_set(t, "rdma0", "fw-lldp-agent", true), -EINVAL);
	assert_string_equal(halo_nlt_extack(t), f->g.k.extack);
	f->g.k.error = -EOPNOTSUPP;
	f->g.k.extack = NULL;
	assert_int_equal(halo_ethtool_privflag_get(t, "rdma0", "fw-lldp-agent", &on), -EOPNOTSUPP);
	assert_int_equal(counter, 10);
	halo_nlt_free(t);

	/* No ethtool netlink in the kernel. */
	counter = 0;
	t = fake_transport(fake_genl_io, &f->g, &counter);
	f->g.no_family = true;
	assert_int_equal(halo_ethtool_privflag_get(t, "rdma0", "fw-lldp-agent", &on), -ENOENT);
	assert_int_equal(halo_ethtool_privflag_set(t, "rdma0", "fw-lldp-agent", true), -ENOENT);
	assert_int_equal(counter, 2);
	halo_nlt_free(t);
	free(f);
}

/* The real kernel: loopback has no private flags, a missing device is
 * ENODEV. */
static void kernel(void **state)
{
	struct halo_nlt *t = NULL;
	struct halo_ethtool_privflags fl;
	unsigned long counter = 0;
	bool on;
	int err;

	(void)state;
	assert_int_equal(halo_nlt_new(&counter, &t), 0);
	err = halo_ethtool_privflags_get(t, "lo", &fl);
	if (err == -ENOENT) { /* no ethtool netlink: the family lookup's answer */
		print_message("# no ethtool family in this kernel\n");
		assert_int_equal(counter, 1);
		halo_nlt_free(t);
		return;
	}
	if (err == 0)
		assert_int_equal(fl.n, 0);
	else
		assert_int_equal(err, -EOPNOTSUPP);
	assert_int_equal(halo_ethtool_privflag_get(t, "lo", "fw-lldp-agent", &on),
			 err == 0 ? -ENOENT : err);
	assert_int_equal(halo_ethtool_privflag_get(t, "halo-nosuch0", "fw-lldp-agent", &on),
			 -ENODEV);
	halo_nlt_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(uapi_layouts),
		cmocka_unit_test(encode),
		cmocka_unit_test(encode_errors),
		cmocka_unit_test(parse_forms),
		cmocka_unit_test(parse_malformed),
		cmocka_unit_test(through_transport),
		cmocka_unit_test(kernel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
