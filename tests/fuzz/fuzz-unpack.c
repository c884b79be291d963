/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-unpack.c: a compressed module's .modinfo read without libkmod
 * (src/modules/unpack.c with its zstd and xz decoders), a file of the
 * --root tree and so hostile input. Input: the file (.ko.zst or .ko.xz,
 * told by its magic as libkmod tells it).
 *
 * Properties: the reader answers 0, or fails with -EBADMSG, -ENOENT,
 * -EFBIG; and it answers 0 exactly when the whole stream decompresses
 * cleanly and the whole contents have a .modinfo, with the same entries:
 * keeping only a prefix of the contents never changes the answer, nor
 * does a decoder reused after any earlier input. And packcheck.c on the
 * same file: complete (0) or not (-EBADMSG), never complete both whole
 * and one byte shorter, with its head handed in or not.
 */
#include "config.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz/fuzz.h"
#include "modules/internal.h"
#include "util/strv.h"

/* The whole contents, decompressed and kept: 0 with *RET_MI filled from
 * their .modinfo, else the error. */
static int whole(int fd, uint64_t len, enum halo_modpack kind, struct halo_modinfo *mi)
{
	_cleanup_(halo_unpack_freep) struct halo_unpack *u = NULL;
	const unsigned char *buf;
	const char *sec;
	size_t have, sec_len;
	int r;

	FUZZ_CHECK(lseek(fd, 0, SEEK_SET) == 0);
	r = halo_unpack_new(NULL, fd, len, kind, &u);
	if (r == 0)
		r = halo_unpack_until(u, HALO_UNPACK_MAX, &buf, &have);
	if (r == 0)
		r = halo_unpack_finish(u);
	if (r == 0)
		r = halo_elf_section(buf, have, ".modinfo", &sec, &sec_len);
	if (r == 0)
		r = halo_modinfo_add_section(mi, sec, sec_len);
	return r;
}

/* Decoders reused from input to input, as a run reuses them from module
 * to module; the oracle above makes a fresh one each time. */
static struct halo_unpack_pool pool;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct halo_modinfo a = { 0 }, b = { 0 };
	enum halo_modpack kind = halo_modpack_of(data, size);
	int fd, ra, rb, rc;

	if (kind != HALO_MODPACK_ZSTD && kind != HALO_MODPACK_XZ)
		return 0;
	fd = memfd_create("fuzz-unpack", MFD_CLOEXEC);
	FUZZ_CHECK(fd >= 0);
	FUZZ_CHECK(write(fd, data, size) == (ssize_t)size);
	FUZZ_CHECK(lseek(fd, 0, SEEK_SET) == 0);
	ra = halo_modinfo_from_packed(&pool, fd, size, NULL, 0, kind, &a);
	FUZZ_CHECK(ra == 0 || ra == -EBADMSG || ra == -ENOENT || ra == -EFBIG);
	rb = whole(fd, size, kind, &b);
	FUZZ_CHECK((ra == 0) == (rb == 0));
	rc = halo_packed_complete(fd, size, NULL, 0, kind);
	FUZZ_CHECK(rc == 0 || rc == -EBADMSG);
	FUZZ_CHECK(halo_packed_complete(fd, size, data, size < 4096 ? size : 4096, kind) == rc);
	if (rc == 0)
		FUZZ_CHECK(halo_packed_complete(fd, size - 1, NULL, 0, kind) == -EBADMSG);
	if (ra == 0) {
		FUZZ_CHECK(halo_strv_len(a.parms) == halo_strv_len(b.parms));
		for (size_t i = 0; a.parms && a.parms[i]; i++)
			FUZZ_CHECK(strcmp(a.parms[i], b.parms[i]) == 0);
	}
	halo_strv_free(a.parms);
	halo_strv_free(b.parms);
	close(fd);
	return 0;
}
