/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * packcheck.c: is a compressed module file complete? Its container read
 * without decompressing it: the zstd frame's block headers, or the xz
 * stream's header, index and footer, must account for every byte of the
 * file. A file cut short, or with anything after its stream, fails.
 *
 * What this does not see is a damaged byte inside the compressed data:
 * only decoding it finds that (unpack.c, or modprobe when it loads the
 * module). Accepted is only the layout the kernel's modules_install
 * writes (one zstd frame with its content size, no dictionary; one xz
 * stream without padding); anything else is -EBADMSG, left to libkmod,
 * which decodes it whole (docs/hardware.md "Module index").
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "modules/internal.h"

/* The file: its first HEAD_LEN bytes in memory, the rest read with pread. */
struct packed_file {
	int fd;
	uint64_t len;
	const unsigned char *head;
	size_t head_len;
};

/* N bytes at OFF into BUF; -EBADMSG when the file ends before them. */
static int read_at(const struct packed_file *f, uint64_t off, void *buf, size_t n)
{
	ssize_t got;

	if (off > f->len || n > f->len - off)
		return -EBADMSG;
	if (off + n <= f->head_len) {
		memcpy(buf, f->head + off, n);
		return 0;
	}
	do
		got = pread(f->fd, buf, n, (off_t)off);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return -errno;
	/* Shorter than when it was measured: not the file it was. */
	return (size_t)got == n ? 0 : -EBADMSG;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* --- zstd (RFC 8878, section 3.1.1) ------------------------------------ */

#define ZSTD_BLOCK_MAX (128u << 10)

/* The frame header's length, from its descriptor byte; -EBADMSG for a
 * frame left to libkmod (reserved bit, a dictionary, no content size). */
static int zstd_header_len(unsigned char fhd, size_t *ret)
{
	static const size_t fcs_len[4] = { 0, 2, 4, 8 };
	unsigned fcs_flag = fhd >> 6, single = (fhd >> 5) & 1;

	if (fhd & 0x08 || (fhd & 0x03) != 0)
		return -EBADMSG;
	if (fcs_flag == 0 && !single)
		return -EBADMSG; /* no declared size: unpack-zstd.c refuses it too */
	*ret = 4 + 1 + (single ? 0 : 1) + (fcs_flag == 0 ? 1 : fcs_len[fcs_flag]);
	return 0;
}

static int zstd_complete(const struct packed_file *f)
{
	unsigned char fhd, b[3];
	uint64_t off;
	size_t hlen = 0;
	int r;

	r = read_at(f, 4, &fhd, 1);
	if (r == 0)
		r = zstd_header_len(fhd, &hlen);
	if (r < 0)
		return r;
	off = hlen;
	for (;;) {
		uint32_t h;
		unsigned type;
		uint64_t size;

		r = read_at(f, off, b, sizeof(b));
		if (r < 0)
			return r;
		h = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16;
		type = (h >> 1) & 3;
		size = h >> 3;
		if (type == 3 || size > ZSTD_BLOCK_MAX)
			return -EBADMSG;
		off += sizeof(b) + (type == 1 ? 1 : size); /* RLE: one byte */
		if (off > f->len)
			return -EBADMSG;
		if (h & 1)
			break;
	}
	if (fhd & 0x04)
		off += 4; /* the content checksum */
	return off == f->len ? 0 : -EBADMSG;
}

/* --- xz (the .xz file format 1.1.0, sections 2.1 and 4) ---------------- */

#define XZ_HEADER 12
#define XZ_FOOTER 12
#define XZ_INDEX_MAX 4096 /* a module's stream has one block or a few */

static uint32_t crc32_ieee(const unsigned char *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & -(c & 1));
	}
	return ~c;
}

/* A variable-length integer of the index at *POS, moved past it. */
static int xz_vli(const unsigned char *p, size_t end, size_t *pos, uint64_t *ret)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < 9; i++) {
		unsigned char c;

		if (*pos >= end)
			return -EBADMSG;
		c = p[(*pos)++];
		v |= (uint64_t)(c & 0x7f) << (7 * i);
		if (!(c & 0x80)) {
			if (c == 0 && i > 0)
				return -EBADMSG; /* not the shortest form */
			*ret = v;
			return 0;
		}
	}
	return -EBADMSG;
}

/* The index of SIZE bytes (its CRC32 included): the blocks it lists must
 * fill the stream between its header and the index exactly. */
static int xz_index_fits(const unsigned char *idx, size_t size, uint64_t blocks_len)
{
	uint64_t n, sum = 0;
	size_t pos = 1;
	int r;

	if (idx[0] != 0 || crc32_ieee(idx, size - 4) != le32(idx + size - 4))
		return -EBADMSG;
	r = xz_vli(idx, size - 4, &pos, &n);
	for (uint64_t i = 0; r == 0 && i < n; i++) {
		uint64_t unpadded, plain;

		r = xz_vli(idx, size - 4, &pos, &unpadded);
		if (r == 0)
			r = xz_vli(idx, size - 4, &pos, &plain);
		if (r == 0 && (unpadded == 0 || unpadded > blocks_len))
			r = -EBADMSG;
		if (r == 0)
			sum += (unpadded + 3) & ~(uint64_t)3;
	}
	if (r < 0)
		return r;
	/* What is left before the CRC32 is padding to four bytes, zeros. */
	if ((pos & 3) != 0 && size - 4 - pos != 4 - (pos & 3))
		return -EBADMSG;
	if ((pos & 3) == 0 && size - 4 != pos)
		return -EBADMSG;
	while (pos < size - 4)
		if (idx[pos++] != 0)
			return -EBADMSG;
	return sum == blocks_len ? 0 : -EBADMSG;
}

static int xz_complete(const struct packed_file *f)
{
	unsigned char header[XZ_HEADER], footer[XZ_FOOTER], idx[XZ_INDEX_MAX];
	uint64_t index_size;
	int r;

	if (f->len < XZ_HEADER + XZ_FOOTER)
		return -EBADMSG;
	r = read_at(f, 0, header, sizeof(header));
	if (r == 0)
		r = read_at(f, f->len - XZ_FOOTER, footer, sizeof(footer));
	if (r < 0)
		return r;
	/* The flags twice, each with its CRC32; the footer's magic. */
	if (header[6] != 0 || header[7] > 0x0f || crc32_ieee(header + 6, 2) != le32(header + 8) ||
	    footer[10] != 'Y' || footer[11] != 'Z' || memcmp(footer + 8, header + 6, 2) != 0 ||
	    crc32_ieee(footer + 4, 6) != le32(footer))
		return -EBADMSG;
	index_size = ((uint64_t)le32(footer + 4) + 1) * 4;
	if (index_size > sizeof(idx) || index_size < 8 ||
	    index_size > f->len - XZ_HEADER - XZ_FOOTER)
		return -EBADMSG;
	r = read_at(f, f->len - XZ_FOOTER - index_size, idx, (size_t)index_size);
	if (r < 0)
		return r;
	return xz_index_fits(idx, (size_t)index_size,
			     f->len - XZ_HEADER - XZ_FOOTER - index_size);
}

int halo_packed_complete(int fd, uint64_t len, const void *head, size_t head_len,
			 enum halo_modpack kind)
{
	const struct packed_file f = {
		.fd = fd, .len = len, .head = head, .head_len = head ? head_len : 0,
	};

	switch (kind) {
	case HALO_MODPACK_ZSTD:
		return zstd_complete(&f);
	case HALO_MODPACK_XZ:
		return xz_complete(&f);
	default:
		return -EBADMSG;
	}
}
