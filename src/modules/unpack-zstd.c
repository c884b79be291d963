/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unpack-zstd.c: the zstd decoder of unpack.c, libzstd opened on first use.
 *
 * No <zstd.h> is needed to build: the six functions are declared here
 * with the signatures zstd.h documents for its stable API (zstd 1.4 and
 * later, libzstd.so.1), and the two buffer structs with its layout. The
 * library is on every system whose modules are .ko.zst: libkmod needs it.
 *
 * Accepted: one frame that declares its content size, ending with the
 * file. That is what `zstd` writes for a module, and the part on which
 * libkmod's readers agree: kmod 30 streams every frame it finds, kmod 34
 * decompresses the first frame's declared size at once. Anything else
 * is -EBADMSG, left to libkmod.
 */
#include "config.h"

#include <errno.h>

#include "modules/internal.h"
#include "util/dl.h"

/* ZSTD_inBuffer and ZSTD_outBuffer, as zstd.h lays them out. */
struct zstd_in {
	const void *src;
	size_t size;
	size_t pos;
};

struct zstd_out {
	void *dst;
	size_t size;
	size_t pos;
};

struct ZSTD_DCtx_s; /* ZSTD_DStream: opaque */

struct ZSTD_DCtx_s *ZSTD_createDStream(void);
size_t ZSTD_freeDStream(struct ZSTD_DCtx_s *zds);
size_t ZSTD_initDStream(struct ZSTD_DCtx_s *zds);
size_t ZSTD_decompressStream(struct ZSTD_DCtx_s *zds, struct zstd_out *output,
			     struct zstd_in *input);
unsigned ZSTD_isError(size_t code);
unsigned long long ZSTD_getFrameContentSize(const void *src, size_t src_size);

/* ZSTD_CONTENTSIZE_ERROR and _UNKNOWN are the two largest values. */
#define CONTENTSIZE_ERROR (0ULL - 2)

static HALO_DL_SYM(ZSTD_createDStream);
static HALO_DL_SYM(ZSTD_freeDStream);
static HALO_DL_SYM(ZSTD_initDStream);
static HALO_DL_SYM(ZSTD_decompressStream);
static HALO_DL_SYM(ZSTD_isError);
static HALO_DL_SYM(ZSTD_getFrameContentSize);

static const struct halo_dl_sym zstd_syms[] = {
	HALO_DL_ENTRY(ZSTD_createDStream),
	HALO_DL_ENTRY(ZSTD_freeDStream),
	HALO_DL_ENTRY(ZSTD_initDStream),
	HALO_DL_ENTRY(ZSTD_decompressStream),
	HALO_DL_ENTRY(ZSTD_isError),
	HALO_DL_ENTRY(ZSTD_getFrameContentSize),
};

static struct halo_dl libzstd = {
	.soname = "libzstd.so.1",
	.syms = zstd_syms,
	.n_syms = ARRAY_SIZE(zstd_syms),
};

struct zstd_dec {
	struct ZSTD_DCtx_s *ds;
	unsigned long long size;     /* the frame's declared content size */
	unsigned long long produced;
	bool started, done;
};

static int zstd_start(void **dec)
{
	_cleanup_free_ char *why = NULL;
	struct zstd_dec *d = *dec;
	int r;

	if (d) {
		/* Reused: a new session, whatever the last one left. */
		if (sym_ZSTD_isError(sym_ZSTD_initDStream(d->ds)))
			return -EINVAL;
		*d = (struct zstd_dec){ .ds = d->ds };
		return 0;
	}
	/* Why the library is missing does not matter here: libkmod, which
	 * the caller falls back to, says it. */
	r = halo_dl_open(&libzstd, &why);
	if (r < 0)
		return r;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->ds = sym_ZSTD_createDStream();
	if (!d->ds) {
		free(d);
		return -ENOMEM;
	}
	*dec = d;
	return 0;
}

static void zstd_end(void *dec)
{
	struct zstd_dec *d = dec;

	sym_ZSTD_freeDStream(d->ds);
	free(d);
}

static int zstd_step(void *dec, struct halo_unpack_io *io, bool last)
{
	struct zstd_dec *d = dec;
	struct zstd_in in = { io->in, io->in_len, 0 };
	struct zstd_out out = { io->out, io->out_len, 0 };
	size_t r;

	if (d->done) /* one frame: anything after it is more than one */
		return io->in_len > 0 ? -EBADMSG : last;
	if (!d->started) {
		/* The first read holds the whole frame header (at most 18
		 * bytes) of any file that has one. */
		d->size = sym_ZSTD_getFrameContentSize(io->in, io->in_len);
		if (d->size == 0 || d->size >= CONTENTSIZE_ERROR)
			return -EBADMSG;
		if (d->size > HALO_UNPACK_MAX)
			return -EFBIG;
		d->started = true;
	}
	r = sym_ZSTD_decompressStream(d->ds, &out, &in);
	if (sym_ZSTD_isError(r))
		return -EBADMSG;
	io->in += in.pos;
	io->in_len -= in.pos;
	io->out += out.pos;
	io->out_len -= out.pos;
	d->produced += out.pos;
	if (d->produced > d->size)
		return -EBADMSG;
	if (r != 0)
		return 0;
	/* 0: the frame is decoded and flushed. */
	d->done = true;
	if (d->produced != d->size || io->in_len > 0)
		return -EBADMSG;
	return last;
}

const struct halo_unpack_codec halo_unpack_zstd = {
	.start = zstd_start,
	.step = zstd_step,
	.end = zstd_end,
};
