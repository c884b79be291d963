/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cidr.h: strict address and prefix parsing ("192.168.100.1/30"). */
#pragma once

#include <stdbool.h>
#include <stdint.h>

struct halo_cidr {
	int family;        /* AF_INET or AF_INET6 */
	uint8_t addr[16];  /* network byte order; 4 bytes used for AF_INET */
	uint8_t prefixlen;
};

/* "ADDR/LEN"; REQUIRE_PREFIX false also accepts a bare address (host
 * prefix). No leading zeros in IPv4 octets, no spaces. 0 or -EINVAL. */
int halo_cidr_parse(const char *s, bool require_prefix, struct halo_cidr *ret);

/* Canonical text "a.b.c.d/len" (or IPv6); buf of at least 50 bytes. */
void halo_cidr_format(const struct halo_cidr *c, char *buf, size_t len);

/* Same address (prefix ignored). */
bool halo_cidr_same_addr(const struct halo_cidr *a, const struct halo_cidr *b);

/* Network address (host bits cleared). */
void halo_cidr_network(const struct halo_cidr *c, struct halo_cidr *ret);
