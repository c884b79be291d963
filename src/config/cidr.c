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

void halo_cidr_format(const struct halo_cidr *c, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];

	if (!inet_ntop(c->family, c->addr, a, sizeof(a)))
		a[0] = '\0';
	snprintf(buf, len, "%s/%u", a, c->prefixlen);
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
