/* SPDX-License-Identifier: GPL-2.0-or-later */
/* digest.c: SHA-256 (FIPS 180-4). One-shot only: config files are small. */
#include <string.h>

#include "config/digest.h"

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

/* One round, with the eight working variables named in place rather than
 * shifted along: eight rounds bring them back to their names. */
#define ROUND(a, b, c, d, e, f, g, h, i)                                        \
	do {                                                                    \
		uint32_t t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) +           \
			      ((e & f) ^ (~e & g)) + K[i] + w[i];                   \
		uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) +               \
			      ((a & b) ^ (a & c) ^ (b & c));                        \
		d += t1;                                                        \
		h = t1 + t2;                                                    \
	} while (0)

static void block(uint32_t hash[8], const uint8_t *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h;

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = hash[0]; b = hash[1]; c = hash[2]; d = hash[3];
	e = hash[4]; f = hash[5]; g = hash[6]; h = hash[7];
	for (int i = 0; i < 64; i += 8) {
		ROUND(a, b, c, d, e, f, g, h, i);
		ROUND(h, a, b, c, d, e, f, g, i + 1);
		ROUND(g, h, a, b, c, d, e, f, i + 2);
		ROUND(f, g, h, a, b, c, d, e, i + 3);
		ROUND(e, f, g, h, a, b, c, d, i + 4);
		ROUND(d, e, f, g, h, a, b, c, i + 5);
		ROUND(c, d, e, f, g, h, a, b, i + 6);
		ROUND(b, c, d, e, f, g, h, a, i + 7);
	}
	hash[0] += a; hash[1] += b; hash[2] += c; hash[3] += d;
	hash[4] += e; hash[5] += f; hash[6] += g; hash[7] += h;
}

#undef ROUND

void halo_sha256(const void *data, size_t len, uint8_t ret[HALO_SHA256_LEN])
{
	uint32_t h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	const uint8_t *p = data;
	uint8_t tail[128] = { 0 };
	size_t full = len / 64 * 64, rest = len - full, tlen;
	uint64_t bits = (uint64_t)len * 8;

	for (size_t off = 0; off < full; off += 64)
		block(h, p + off);
	if (rest)
		memcpy(tail, p + full, rest);
	tail[rest] = 0x80;
	/* The length needs 8 bytes after the 0x80: one or two more blocks. */
	tlen = rest + 1 + 8 <= 64 ? 64 : 128;
	for (int i = 0; i < 8; i++)
		tail[tlen - 1 - i] = (uint8_t)(bits >> (8 * i));
	for (size_t off = 0; off < tlen; off += 64)
		block(h, tail + off);
	for (int i = 0; i < 8; i++) {
		ret[4 * i] = (uint8_t)(h[i] >> 24);
		ret[4 * i + 1] = (uint8_t)(h[i] >> 16);
		ret[4 * i + 2] = (uint8_t)(h[i] >> 8);
		ret[4 * i + 3] = (uint8_t)h[i];
	}
}

void halo_sha256_hex(const void *data, size_t len, char ret[2 * HALO_SHA256_LEN + 1])
{
	static const char hex[] = "0123456789abcdef";
	uint8_t d[HALO_SHA256_LEN];

	halo_sha256(data, len, d);
	for (size_t i = 0; i < HALO_SHA256_LEN; i++) {
		ret[2 * i] = hex[d[i] >> 4];
		ret[2 * i + 1] = hex[d[i] & 15];
	}
	ret[2 * HALO_SHA256_LEN] = '\0';
}
