/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unpack.c: a compressed module file (.ko.zst, .ko.xz) decompressed as it
 * is read, and its .modinfo found without libkmod.
 *
 * Ubuntu ships its modules as .ko.zst and Fedora as .ko.xz; leaving them
 * to libkmod made a --check on those systems map libkmod, libcrypto,
 * libzstd and liblzma for what native.c reads itself from a plain .ko.
 * Here only the one decompression library is opened (unpack-zstd.c,
 * unpack-xz.c), and only when a compressed module is met.
 *
 * The decompressed bytes are kept only as far as the ELF section header
 * table (at the end of a module, where ld -r puts it: the module
 * signature after it is dropped), further only if a section lies beyond
 * it; the rest of the stream is still decompressed, without keeping it,
 * because a stream that is truncated or corrupt anywhere is libkmod's to
 * judge (the view then names the file). Anything unusual (a second zstd
 * frame, no content size, a size past HALO_UNPACK_MAX) is left to libkmod
 * in the same way: what is answered here is what libkmod, old or new,
 * reads from the same file (docs/hardware.md "Module index").
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "modules/internal.h"

#define IN_CHUNK (64u << 10)
#define DROP_CHUNK (32u << 10)

struct halo_unpack {
	const struct halo_unpack_codec *codec;
	struct halo_unpack_pool *pool;
	size_t slot;            /* of the codec in the pool */
	void *dec;
	int fd;
	int64_t off;            /* where pread reads next; -1: read() */
	uint64_t in_left;       /* bytes of the file not read yet */
	unsigned char *in;      /* IN_CHUNK bytes */
	size_t in_pos, in_len;
	unsigned char *kept;    /* the first kept_len bytes of the contents */
	size_t kept_len, kept_cap;
	uint64_t produced;      /* contents decompressed, kept or not */
	bool ended;             /* the stream ended where the file does */
	unsigned stalls;        /* steps in a row without progress */
};

enum halo_modpack halo_modpack_of(const void *head, size_t len)
{
	static const unsigned char zstd[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	static const unsigned char xz[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
	static const unsigned char gzip[2] = { 0x1f, 0x8b };

	/* libkmod's kmod_file_open reads six bytes and compares in this
	 * order; a file shorter than that is no module to it either. */
	if (len < 6)
		return HALO_MODPACK_NONE;
	if (memcmp(head, zstd, sizeof(zstd)) == 0)
		return HALO_MODPACK_ZSTD;
	if (memcmp(head, xz, sizeof(xz)) == 0)
		return HALO_MODPACK_XZ;
	if (memcmp(head, gzip, sizeof(gzip)) == 0)
		return HALO_MODPACK_GZIP;
	return HALO_MODPACK_NONE;
}

static const struct halo_unpack_codec *const codecs[2] = {
	&halo_unpack_zstd, &halo_unpack_xz,
};

void halo_unpack_pool_clear(struct halo_unpack_pool *pool)
{
	for (size_t i = 0; i < ARRAY_SIZE(codecs); i++) {
		if (pool->dec[i])
			codecs[i]->end(pool->dec[i]);
		pool->dec[i] = NULL;
	}
}

void halo_unpack_free(struct halo_unpack *u)
{
	if (!u)
		return;
	/* Back to the pool, which makes it ready again before next use. */
	if (u->dec && u->pool && !u->pool->dec[u->slot])
		u->pool->dec[u->slot] = u->dec;
	else if (u->dec)
		u->codec->end(u->dec);
	free(u->in);
	free(u->kept);
	free(u);
}

int halo_unpack_new(struct halo_unpack_pool *pool, int fd, uint64_t len,
		    enum halo_modpack kind, struct halo_unpack **ret)
{
	_cleanup_(halo_unpack_freep) struct halo_unpack *u = NULL;
	int r;

	if (kind != HALO_MODPACK_ZSTD && kind != HALO_MODPACK_XZ)
		return -EPROTONOSUPPORT;
	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->slot = kind == HALO_MODPACK_ZSTD ? 0 : 1;
	u->codec = codecs[u->slot];
	u->pool = pool;
	if (pool) {
		u->dec = pool->dec[u->slot];
		pool->dec[u->slot] = NULL;
	}
	u->fd = fd;
	u->off = -1;
	u->in_left = len;
	u->in = malloc(IN_CHUNK);
	if (!u->in)
		return -ENOMEM;
	r = u->codec->start(&u->dec);
	if (r < 0)
		return r;
	*ret = TAKE_PTR(u);
	return 0;
}

/* More of the file into the input buffer, once it is used up. */
static int refill(struct halo_unpack *u)
{
	ssize_t n;

	if (u->in_pos < u->in_len || u->in_left == 0)
		return 0;
	do
		n = u->off < 0 ?
			    read(u->fd, u->in, u->in_left < IN_CHUNK ? (size_t)u->in_left : IN_CHUNK) :
			    pread(u->fd, u->in, u->in_left < IN_CHUNK ? (size_t)u->in_left : IN_CHUNK,
				  (off_t)u->off);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (u->off >= 0)
		u->off += n;
	/* Shorter than it was when opened: what is there is all there is. */
	u->in_left = n == 0 ? 0 : u->in_left - (uint64_t)n;
	u->in_pos = 0;
	u->in_len = (size_t)n;
	return 0;
}

/*
 * One decoding step into OUT (OUT_CAP > 0 bytes); *RET_OUT says how many
 * were written. Sets u->ended at the end of the stream; -EBADMSG when the
 * decoder stops making progress before it (a truncated stream).
 */
static int step(struct halo_unpack *u, unsigned char *out, size_t out_cap, size_t *ret_out)
{
	struct halo_unpack_io io;
	size_t in_before;
	int r;

	r = refill(u);
	if (r < 0)
		return r;
	in_before = u->in_len - u->in_pos;
	io = (struct halo_unpack_io){ .in = u->in + u->in_pos, .in_len = in_before,
				      .out = out, .out_len = out_cap };
	r = u->codec->step(u->dec, &io, u->in_left == 0);
	if (r < 0)
		return r;
	u->in_pos += in_before - io.in_len;
	*ret_out = out_cap - io.out_len;
	u->produced += *ret_out;
	if (u->produced > HALO_UNPACK_MAX)
		return -EFBIG;
	if (r == 1) {
		/* The stream ended: nothing of the file may follow it. */
		if (u->in_pos < u->in_len || u->in_left > 0)
			return -EBADMSG;
		u->ended = true;
		return 0;
	}
	/* A decoder may take one call without visible progress (liblzma
	 * says LZMA_BUF_ERROR only at the second); not three. */
	u->stalls = *ret_out == 0 && io.in_len == in_before ? u->stalls + 1 : 0;
	return u->stalls >= 3 ? -EBADMSG : 0;
}

int halo_unpack_until(struct halo_unpack *u, uint64_t want, const unsigned char **ret,
		      size_t *ret_len)
{
	if (want > HALO_UNPACK_MAX)
		return -EFBIG;
	while (u->kept_len < want && !u->ended) {
		size_t got;
		int r;

		if (u->kept_len == u->kept_cap) {
			/* Doubling, but never past WANT: what is kept is
			 * what was asked for, not the rest of the file. */
			uint64_t cap = u->kept_cap < IN_CHUNK ? IN_CHUNK : (uint64_t)u->kept_cap * 2;
			unsigned char *p;

			if (cap > want)
				cap = want;
			p = realloc(u->kept, (size_t)cap);
			if (!p)
				return -ENOMEM;
			u->kept = p;
			u->kept_cap = (size_t)cap;
		}
		r = step(u, u->kept + u->kept_len, u->kept_cap - u->kept_len, &got);
		if (r < 0)
			return r;
		u->kept_len += got;
	}
	*ret = u->kept;
	*ret_len = u->kept_len;
	return 0;
}

int halo_unpack_finish(struct halo_unpack *u)
{
	_cleanup_free_ unsigned char *drop = NULL;

	while (!u->ended) {
		size_t got;
		int r;

		if (!drop) {
			drop = malloc(DROP_CHUNK);
			if (!drop)
				return -ENOMEM;
		}
		r = step(u, drop, DROP_CHUNK, &got);
		if (r < 0)
			return r;
	}
	return 0;
}

/* HEAD_LEN bytes of the file already read as its first input: the next
 * read is at that offset, whatever FD's own. */
#define HEAD_MIN 64 /* a decoder's first input holds its whole header */
static void unpack_start_with(struct halo_unpack *u, const void *head, size_t head_len)
{
	if (head_len > u->in_left)
		head_len = (size_t)u->in_left;
	if (head_len > IN_CHUNK)
		head_len = IN_CHUNK;
	memcpy(u->in, head, head_len);
	u->in_pos = 0;
	u->in_len = head_len;
	u->in_left -= head_len;
	u->off = (int64_t)head_len;
}

int halo_modinfo_from_packed(struct halo_unpack_pool *pool, int fd, uint64_t len,
			     const void *head, size_t head_len, enum halo_modpack kind,
			     struct halo_modinfo *mi)
{
	_cleanup_(halo_unpack_freep) struct halo_unpack *u = NULL;
	const unsigned char *buf;
	const char *sec;
	size_t have, sec_len;
	uint64_t end;
	int r;

	r = halo_unpack_new(pool, fd, len, kind, &u);
	if (r == 0 && head && (head_len >= HEAD_MIN || head_len >= len))
		unpack_start_with(u, head, head_len);
	if (r == 0)
		r = halo_unpack_until(u, 64, &buf, &have);
	if (r < 0)
		return r;
	/* The header says where the section headers end; a prefix that far
	 * gives the whole file's answer whenever it finds the section or
	 * finds it missing (elfsection.c). */
	r = halo_elf_headers_end(buf, have, &end);
	if (r == 0)
		r = halo_unpack_until(u, end, &buf, &have);
	if (r == 0)
		r = halo_elf_section(buf, have, ".modinfo", &sec, &sec_len);
	if (r == -EBADMSG && !u->ended) {
		/* A section past the headers: the whole contents. */
		r = halo_unpack_until(u, HALO_UNPACK_MAX, &buf, &have);
		if (r == 0)
			r = halo_elf_section(buf, have, ".modinfo", &sec, &sec_len);
	}
	if (r < 0)
		return r;
	r = halo_unpack_finish(u);
	if (r < 0)
		return r;
	return halo_modinfo_add_section(mi, sec, sec_len);
}
