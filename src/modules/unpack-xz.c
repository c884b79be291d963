/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unpack-xz.c: the xz decoder of unpack.c, liblzma opened on first use.
 *
 * No <lzma.h> is needed to build: the three functions are declared here
 * with the signatures lzma.h documents, and lzma_stream with its layout
 * (internal.h: liblzma.so.5 keeps both stable). The
 * library is on every system whose modules are .ko.xz: libkmod needs it.
 *
 * Decoded as libkmod decodes it (lzma_stream_decoder with
 * LZMA_CONCATENATED: every stream of the file, padding allowed, each
 * one's check verified), so the contents are the same bytes; only the
 * decoder's memory is bounded here, where libkmod has no bound.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>

#include "modules/internal.h"
#include "util/dl.h"

int lzma_stream_decoder(struct halo_lzma_stream *strm, uint64_t memlimit, uint32_t flags);
int lzma_code(struct halo_lzma_stream *strm, int action);
void lzma_end(struct halo_lzma_stream *strm);

/* lzma_ret, lzma_action and the decoder flag used (lzma.h). */
enum {
	XZ_OK = 0,
	XZ_STREAM_END = 1,
	XZ_MEM_ERROR = 5,
	XZ_MEMLIMIT_ERROR = 6,
	XZ_RUN = 0,
	XZ_FINISH = 3,
	XZ_CONCATENATED = 0x08,
};

/* A module's dictionary is 1 MiB (the kernel's Makefile.modinst) or a
 * preset's, at most 64 MiB; more is no module's. */
#define XZ_MEMLIMIT (128u << 20)

static HALO_DL_SYM(lzma_stream_decoder);
static HALO_DL_SYM(lzma_code);
static HALO_DL_SYM(lzma_end);

static const struct halo_dl_sym xz_syms[] = {
	HALO_DL_ENTRY(lzma_stream_decoder),
	HALO_DL_ENTRY(lzma_code),
	HALO_DL_ENTRY(lzma_end),
};

static struct halo_dl liblzma = {
	.soname = "liblzma.so.5",
	.syms = xz_syms,
	.n_syms = ARRAY_SIZE(xz_syms),
};

static int xz_start(void **dec)
{
	_cleanup_free_ char *why = NULL;
	struct halo_lzma_stream *s = *dec;
	int r;

	if (!s) {
		/* Why the library is missing does not matter here: libkmod,
		 * which the caller falls back to, says it. */
		r = halo_dl_open(&liblzma, &why);
		if (r < 0)
			return r;
		s = calloc(1, sizeof(*s));
		if (!s)
			return -ENOMEM;
		*dec = s;
	}
	/* On a stream used before, liblzma starts afresh and keeps what it
	 * allocated. */
	r = sym_lzma_stream_decoder(s, XZ_MEMLIMIT, XZ_CONCATENATED);
	if (r != XZ_OK)
		return r == XZ_MEM_ERROR ? -ENOMEM : -EINVAL;
	return 0;
}

static void xz_end(void *dec)
{
	sym_lzma_end(dec);
	free(dec);
}

static int xz_step(void *dec, struct halo_unpack_io *io, bool last)
{
	struct halo_lzma_stream *s = dec;
	int r;

	s->next_in = io->in;
	s->avail_in = io->in_len;
	s->next_out = io->out;
	s->avail_out = io->out_len;
	/* LZMA_FINISH once the file has no more to give, as libkmod does. */
	r = sym_lzma_code(s, last ? XZ_FINISH : XZ_RUN);
	io->in = s->next_in;
	io->in_len = s->avail_in;
	io->out = s->next_out;
	io->out_len = s->avail_out;
	switch (r) {
	case XZ_OK:
		return 0;
	case XZ_STREAM_END:
		return 1;
	case XZ_MEM_ERROR:
		return -ENOMEM;
	case XZ_MEMLIMIT_ERROR:
		return -EFBIG;
	default:
		/* Corrupt, unsupported options, or (LZMA_BUF_ERROR) ended
		 * before its end. */
		return -EBADMSG;
	}
}

const struct halo_unpack_codec halo_unpack_xz = {
	.start = xz_start,
	.step = xz_step,
	.end = xz_end,
};
