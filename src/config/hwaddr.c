/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hwaddr.c: MAC address parsing and formatting, by hand so that exactly
 * one spelling is accepted (ether_aton() takes "a:b:c:d:e:f" too). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config/hwaddr.h"
#include "util/strv.h"

int halo_mac_parse(const char *s, struct halo_mac *ret)
{
	struct halo_mac m;

	for (int i = 0; i < HALO_MAC_LEN; i++) {
		int hi = halo_hex_digit(s[0]), lo = hi < 0 ? -1 : halo_hex_digit(s[1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		m.b[i] = (uint8_t)(hi << 4 | lo);
		s += 2;
		if (i < HALO_MAC_LEN - 1 && *s++ != ':')
			return -EINVAL;
	}
	if (*s)
		return -EINVAL;
	*ret = m;
	return 0;
}

void halo_mac_format(const struct halo_mac *m, char *buf, size_t len)
{
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x",
		 m->b[0], m->b[1], m->b[2], m->b[3], m->b[4], m->b[5]);
}

bool halo_mac_equal(const struct halo_mac *a, const struct halo_mac *b)
{
	return memcmp(a->b, b->b, HALO_MAC_LEN) == 0;
}

bool halo_mac_is_multicast(const struct halo_mac *m)
{
	return m->b[0] & 1;
}

bool halo_mac_is_zero(const struct halo_mac *m)
{
	static const uint8_t zero[HALO_MAC_LEN];

	return memcmp(m->b, zero, HALO_MAC_LEN) == 0;
}

bool halo_mac_equal_bytes(const struct halo_mac *m, const uint8_t *bytes, size_t len)
{
	return len == HALO_MAC_LEN && memcmp(m->b, bytes, HALO_MAC_LEN) == 0;
}
