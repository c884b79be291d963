/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cidr.h: strict address and prefix parsing ("192.168.100.1/30"). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
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

/* The address alone, "a.b.c.d" (or IPv6), canonical; buf of at least 46
 * bytes. */
void halo_cidr_format_addr(const struct halo_cidr *c, char *buf, size_t len);

/* Same address (prefix ignored). */
bool halo_cidr_same_addr(const struct halo_cidr *a, const struct halo_cidr *b);

/* An IPv6 link-local address (fe80::/10): scoped to its link, so the same
 * one on several links is normal. */
bool halo_cidr_is_link_local(const struct halo_cidr *c);

/* Network address (host bits cleared). */
void halo_cidr_network(const struct halo_cidr *c, struct halo_cidr *ret);

/*
 * Why the address of C is never a host's address, whatever its prefix
 * (unspecified, loopback, multicast, broadcast, reserved, IPv4-mapped): the
 * rest of a sentence ("is ..."), or NULL.
 */
const char *halo_cidr_special(const struct halo_cidr *c);

/*
 * What the address of C is within its own prefix when it is no host there:
 * "network address" (IPv4, host bits zero), "broadcast address" (IPv4, host
 * bits one) or "subnet-router anycast address" (IPv6, host bits zero); NULL
 * otherwise, and always for IPv4 /31 and /32 (RFC 3021) and IPv6 /127 and
 * /128 (RFC 6164), where every address is a host's.
 */
const char *halo_cidr_subnet_role(const struct halo_cidr *c);
