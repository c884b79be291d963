/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cidr.c: strict address/prefix parsing. inet_pton and friends accept
 * "010.1.1.1" (octal elsewhere) or trailing junk in some libcs; a provisioner
 * must read exactly what the operator meant, so IPv4 is parsed by hand. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "config/cidr.h"

/* Decimal without sign or leading zeros, at most MAX; advances *P. */
static int parse_dec(const char **p, unsigned max, unsigned *ret)
{
	const char *s = *p;
	unsigned v = 0;
	size_t n = 0;

	while (s[n] >= '0' && s[n] <= '9') {
		v = v * 10 + (unsigned)(s[n] - '0');
		if (++n > 3 || v > max)
			return -EINVAL;
	}
	if (n == 0 || (n > 1 && s[0] == '0'))
		return -EINVAL;
	*p = s + n;
	*ret = v;
	return 0;
}

static int parse_ipv4(const char *s, uint8_t out[4])
{
	for (int i = 0; i < 4; i++) {
		unsigned v;

		if (parse_dec(&s, 255, &v) < 0)
			return -EINVAL;
		out[i] = (uint8_t)v;
		if (i < 3 && *s++ != '.')
			return -EINVAL;
	}
	return *s ? -EINVAL : 0;
}

int halo_cidr_parse(const char *s, bool require_prefix, struct halo_cidr *ret)
{
	struct halo_cidr c = { 0 };
	char addr[INET6_ADDRSTRLEN + 1];
	const char *slash = strchr(s, '/');
	size_t alen = slash ? (size_t)(slash - s) : strlen(s);
	unsigned plen;

	if (alen == 0 || alen >= sizeof(addr))
		return -EINVAL;
	memcpy(addr, s, alen);
	addr[alen] = '\0';
	if (strchr(addr, ':')) {
		/* inet_pton(AF_INET6) is strict: no zone ids, no spaces. */
		if (inet_pton(AF_INET6, addr, c.addr) != 1)
			return -EINVAL;
		c.family = AF_INET6;
	} else {
		if (parse_ipv4(addr, c.addr) < 0)
			return -EINVAL;
		c.family = AF_INET;
	}
	if (slash) {
		const char *p = slash + 1;

		if (parse_dec(&p, c.family == AF_INET ? 32 : 128, &plen) < 0 || *p)
			return -EINVAL;
	} else if (require_prefix) {
		return -EINVAL;
	} else {
		plen = c.family == AF_INET ? 32 : 128;
	}
	c.prefixlen = (uint8_t)plen;
	*ret = c;
	return 0;
}

/* Decimal V at P; past it. */
static char *put_dec(char *p, unsigned v)
{
	if (v >= 100)
		*p++ = (char)('0' + v / 100);
	if (v >= 10)
		*p++ = (char)('0' + v / 10 % 10);
	*p++ = (char)('0' + v % 10);
	return p;
}

/* The address as inet_ntop writes it ("" for no family it knows); past
 * it. IPv4, what links plan and observe for every address, without its
 * printf. */
static char *put_addr(char *p, const struct halo_cidr *c)
{
	if (c->family != AF_INET) {
		if (!inet_ntop(c->family, c->addr, p, INET6_ADDRSTRLEN))
			*p = '\0';
		return p + strlen(p);
	}
	for (int i = 0; i < 4; i++) {
		if (i)
			*p++ = '.';
		p = put_dec(p, c->addr[i]);
	}
	return p;
}

/* TEXT (N bytes) into BUF of LEN bytes, cut short as snprintf would. */
static void put_cut(char *buf, size_t len, const char *text, size_t n)
{
	if (len == 0)
		return;
	if (n > len - 1)
		n = len - 1;
	memcpy(buf, text, n);
	buf[n] = '\0';
}

void halo_cidr_format(const struct halo_cidr *c, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN + sizeof("/255")], *p = put_addr(a, c);

	*p++ = '/';
	p = put_dec(p, c->prefixlen);
	put_cut(buf, len, a, (size_t)(p - a));
}

void halo_cidr_format_addr(const struct halo_cidr *c, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];

	put_cut(buf, len, a, (size_t)(put_addr(a, c) - a));
}

bool halo_cidr_is_link_local(const struct halo_cidr *c)
{
	return c->family == AF_INET6 && c->addr[0] == 0xfe && (c->addr[1] & 0xc0) == 0x80;
}

bool halo_cidr_same_addr(const struct halo_cidr *a, const struct halo_cidr *b)
{
	size_t n = a->family == AF_INET ? 4 : 16;

	return a->family == b->family && memcmp(a->addr, b->addr, n) == 0;
}

void halo_cidr_network(const struct halo_cidr *c, struct halo_cidr *ret)
{
	struct halo_cidr n = *c;
	unsigned bits = c->family == AF_INET ? 32 : 128;

	for (unsigned i = c->prefixlen; i < bits; i++)
		n.addr[i / 8] &= (uint8_t)~(0x80u >> (i % 8));
	*ret = n;
}

/* The first N bits of C's address equal those of PREFIX (N <= 32). */
static bool in_v4(const struct halo_cidr *c, uint32_t prefix, unsigned n)
{
	uint32_t a = (uint32_t)c->addr[0] << 24 | (uint32_t)c->addr[1] << 16 |
		     (uint32_t)c->addr[2] << 8 | c->addr[3];

	return n == 0 || (a >> (32 - n)) == (prefix >> (32 - n));
}

static const char *special_v4(const struct halo_cidr *c)
{
	static const uint8_t zero[4], ones[4] = { 255, 255, 255, 255 };

	if (memcmp(c->addr, zero, 4) == 0)
		return "is the unspecified address 0.0.0.0, not a host address";
	if (memcmp(c->addr, ones, 4) == 0)
		return "is the limited broadcast address, not a host address";
	/* "This network" (RFC 1122 3.2.1.3): a source during bootstrap only. */
	if (in_v4(c, 0x00000000u, 8))
		return "is in 0.0.0.0/8 (\"this network\", RFC 1122), not a host address";
	if (in_v4(c, 0x7f000000u, 8))
		return "is a loopback address (127.0.0.0/8), not a host address on a network";
	if (in_v4(c, 0xe0000000u, 4))
		return "is a multicast address (224.0.0.0/4), not a host address";
	/* Linux would configure class E, but it is reserved (RFC 1112 4),
	 * and switches, NIC firmware and other stacks drop or refuse it: a
	 * cluster addressed there half works. */
	if (in_v4(c, 0xf0000000u, 4))
		return "is in the reserved class E range (240.0.0.0/4), not a host address";
	return NULL;
}

static const char *special_v6(const struct halo_cidr *c)
{
	static const uint8_t zero[16];
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };

	if (memcmp(c->addr, zero, 16) == 0)
		return "is the unspecified address ::, not a host address";
	if (memcmp(c->addr, zero, 15) == 0 && c->addr[15] == 1)
		return "is the loopback address ::1, not a host address on a network";
	if (c->addr[0] == 0xff)
		return "is a multicast address (ff00::/8), not a host address";
	if (memcmp(c->addr, mapped, 12) == 0)
		return "is an IPv4-mapped address (::ffff:0:0/96); write the IPv4 address itself";
	return NULL;
}

const char *halo_cidr_special(const struct halo_cidr *c)
{
	return c->family == AF_INET ? special_v4(c) : special_v6(c);
}

/* All host bits of C equal to BIT. */
static bool host_bits_all(const struct halo_cidr *c, unsigned bits, bool bit)
{
	for (unsigned i = c->prefixlen; i < bits; i++)
		if (!!(c->addr[i / 8] & (0x80u >> (i % 8))) != bit)
			return false;
	return true;
}

const char *halo_cidr_subnet_role(const struct halo_cidr *c)
{
	if (c->family == AF_INET) {
		if (c->prefixlen >= 31)
			return NULL;
		if (host_bits_all(c, 32, false))
			return "network address";
		if (host_bits_all(c, 32, true))
			return "broadcast address";
		return NULL;
	}
	if (c->prefixlen >= 127)
		return NULL;
	return host_bits_all(c, 128, false) ? "subnet-router anycast address" : NULL;
}
