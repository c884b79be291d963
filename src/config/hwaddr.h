/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hwaddr.h: Ethernet MAC addresses as bytes ("aa:bb:cc:dd:ee:ff"). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HALO_MAC_LEN 6
/* "aa:bb:cc:dd:ee:ff" and its NUL. */
#define HALO_MAC_STRLEN 18

struct halo_mac {
	uint8_t b[HALO_MAC_LEN];
};

/* Exactly six colon-separated pairs of hex digits, either case; nothing
 * else (no '-', no dots, no spaces). 0 or -EINVAL, *RET untouched then. */
int halo_mac_parse(const char *s, struct halo_mac *ret);

/* Lower case "aa:bb:cc:dd:ee:ff", as the kernel and ip(8) print it; BUF of
 * at least HALO_MAC_STRLEN bytes. */
void halo_mac_format(const struct halo_mac *m, char *buf, size_t len);

bool halo_mac_equal(const struct halo_mac *a, const struct halo_mac *b);

/* The group bit (a multicast or broadcast address, never an interface's). */
bool halo_mac_is_multicast(const struct halo_mac *m);
bool halo_mac_is_zero(const struct halo_mac *m);

/* M against a link's address of LEN bytes (IFLA_ADDRESS may be longer,
 * e.g. 20 bytes for IPoIB, which never equals a MAC). */
bool halo_mac_equal_bytes(const struct halo_mac *m, const uint8_t *bytes, size_t len);
