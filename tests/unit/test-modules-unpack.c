/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for modules/unpack.c and its decoders (unpack-zstd.c,
 * unpack-xz.c): a compressed module's .modinfo read without libkmod.
 *
 * The modules are real: a fake module compiled with `gcc -c` (a .modinfo
 * section, as tests/fixtures/modules/mkfixture.sh makes them), compressed
 * with the zstd and xz tools as the kernel's Makefile.modinst does. Then
 * every way a file of the root can be wrong: cut at every length, each
 * byte damaged in turn, something after the stream, a second frame, no
 * declared size, a size past the bound. The reader answers what the plain
 * file says, or fails (and native.c leaves the module to libkmod); it
 * never crashes, and never answers something else. Then packcheck.c on
 * the same files and larger ones: complete, or cut and refused.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#if defined(__has_include)
#if __has_include(<lzma.h>)
#include <lzma.h>
#define HAVE_LZMA_HEADER 1
#endif
#endif

#include "modules/internal.h"
#include "util/strv.h"

#include "modules-fixture.h"

static char tmp[64];
/* One pool for every read: each decoder is reused after errors too. */
static struct halo_unpack_pool pool;

/* TMP/NAME */
static const char *at(const char *name)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	return path;
}

static _printf_(1, 2) void sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

static int group_setup(void **state)
{
	static const char src[] =
		"__attribute__((section(\".modinfo\"), used, aligned(1)))\n"
		"static const char modinfo[] =\n"
		"\t\"name=fake\\0\" \"license=GPL\\0\"\n"
		"\t\"parmtype=debug_mask:uint\\0\" \"parm=debug_mask:debug mask\\0\"\n"
		"\t\"parm=probe-vf:probe VFs\\0\" \"parmtype=probe-vf:bool\\0\";\n"
		"int fake_init(void) { return 0; }\n";
	char cmd[512];
	FILE *f;

	strcpy(tmp, "/tmp/halo-unpack-unit.XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	f = fopen(at("fake.c"), "w");
	if (!f || fputs(src, f) < 0 || fclose(f) != 0)
		return -1;
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && gcc -c -O0 -o fake.ko fake.c && "
		 "zstd -q -k fake.ko && xz -k --check=crc32 --lzma2=dict=1MiB fake.ko && "
		 "printf 'int x;\\n' >bare.c && gcc -c -o bare.ko bare.c && zstd -q bare.ko",
		 tmp);
	return system(cmd) == 0 ? 0 : -1;
}

static int group_teardown(void **state)
{
	halo_unpack_pool_clear(&pool);
	return fixture_remove(tmp);
}

/* What the reader says about FILE, or its first LEN bytes when LEN is not
 * 0, read as compression KIND (from its magic when HALO_MODPACK_NONE). */
static int read_packed(const char *file, uint64_t len, enum halo_modpack kind,
		       struct halo_modinfo *mi)
{
	unsigned char head[6] = { 0 };
	struct stat st;
	int fd, r;

	fd = open(at(file), O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	if (kind == HALO_MODPACK_NONE) {
		assert_int_equal(pread(fd, head, sizeof(head), 0), sizeof(head));
		kind = halo_modpack_of(head, sizeof(head));
	}
	r = halo_modinfo_from_packed(&pool, fd, len ? len : (uint64_t)st.st_size, NULL, 0, kind, mi);
	close(fd);
	return r;
}

/* The parameters of the plain fake.ko, read by elfsection.c. */
static char **plain_parms(void)
{
	_cleanup_free_ char *buf = NULL;
	struct halo_modinfo mi = { 0 };
	const char *sec;
	size_t len, n;
	FILE *f;

	f = fopen(at("fake.ko"), "r");
	assert_non_null(f);
	buf = malloc(1 << 16);
	assert_non_null(buf);
	n = fread(buf, 1, 1 << 16, f);
	fclose(f);
	assert_int_equal(halo_elf_section(buf, n, ".modinfo", &sec, &len), 0);
	assert_int_equal(halo_modinfo_add_section(&mi, sec, len), 0);
	return mi.parms;
}

static void assert_parms(char **got)
{
	_cleanup_strv_free_ char **want = plain_parms();

	assert_int_equal(halo_strv_len(got), 2);
	assert_int_equal(halo_strv_len(got), halo_strv_len(want));
	for (size_t i = 0; want[i]; i++)
		assert_string_equal(got[i], want[i]);
}

static void test_magic(void **state)
{
	assert_int_equal(halo_modpack_of("\x28\xb5\x2f\xfd\0\0", 6), HALO_MODPACK_ZSTD);
	assert_int_equal(halo_modpack_of("\xfd" "7zXZ\0", 6), HALO_MODPACK_XZ);
	assert_int_equal(halo_modpack_of("\x1f\x8b\x08\0\0\0", 6), HALO_MODPACK_GZIP);
	assert_int_equal(halo_modpack_of("\x7f" "ELF\2\1", 6), HALO_MODPACK_NONE);
	/* Shorter than libkmod's six bytes: no compressed module. */
	assert_int_equal(halo_modpack_of("\x28\xb5\x2f\xfd\0", 5), HALO_MODPACK_NONE);
}

static void test_zstd_and_xz(void **state)
{
	struct halo_modinfo a = { 0 }, b = { 0 };

	assert_int_equal(read_packed("fake.ko.zst", 0, HALO_MODPACK_NONE, &a), 0);
	assert_parms(a.parms);
	assert_string_equal(halo_modinfo_parm_type(&a, "debug_mask"), "uint");
	assert_string_equal(halo_modinfo_parm_type(&a, "probe_vf"), "bool");
	assert_int_equal(read_packed("fake.ko.xz", 0, HALO_MODPACK_NONE, &b), 0);
	assert_parms(b.parms);
	halo_strv_free(a.parms);
	halo_strv_free(b.parms);
}

/* FILE's first HEAD_LEN bytes read ahead (as native.c reads a module's
 * head) and handed in: the rest is read after them, none twice. LEN 0:
 * the whole file. */
static int read_packed_head(const char *file, uint64_t len, size_t head_len,
			    struct halo_modinfo *mi)
{
	unsigned char head[8192];
	struct stat st;
	ssize_t got;
	int fd, r;

	fd = open(at(file), O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_true(head_len <= sizeof(head));
	got = pread(fd, head, head_len, 0);
	assert_true(got >= 0);
	r = halo_modinfo_from_packed(&pool, fd, len ? len : (uint64_t)st.st_size, head,
				     (size_t)got, halo_modpack_of(head, (size_t)got), mi);
	close(fd);
	return r;
}

static void test_head_given(void **state)
{
	static const char *const files[] = { "fake.ko.zst", "fake.ko.xz" };
	static const size_t heads[] = { 6, 13, 100, 4096, 8192 };

	for (size_t f = 0; f < ARRAY_SIZE(files); f++) {
		struct stat st;

		for (size_t h = 0; h < ARRAY_SIZE(heads); h++) {
			struct halo_modinfo a = { 0 };

			assert_int_equal(read_packed_head(files[f], 0, heads[h], &a), 0);
			assert_parms(a.parms);
			halo_strv_free(a.parms);
		}
		/* Cut shorter than the head read: still a truncated stream. */
		assert_int_equal(stat(at(files[f]), &st), 0);
		for (off_t n = 7; n < st.st_size; n += 37) {
			struct halo_modinfo mi = { 0 };

			assert_int_equal(read_packed_head(files[f], (uint64_t)n, 8192, &mi),
					 -EBADMSG);
			assert_null(mi.parms);
		}
	}
}

/* A module without .modinfo: not found, so libkmod says what it says. */
static void test_no_modinfo(void **state)
{
	struct halo_modinfo mi = { 0 };

	assert_int_equal(read_packed("bare.ko.zst", 0, HALO_MODPACK_NONE, &mi), -ENOENT);
	assert_null(mi.parms);
}

/* FILE cut at every length: never an answer, never a crash. */
static void cut_everywhere(const char *file, enum halo_modpack kind)
{
	struct stat st;

	assert_int_equal(stat(at(file), &st), 0);
	assert_true(st.st_size > 100);
	for (off_t n = 1; n < st.st_size; n++) {
		struct halo_modinfo mi = { 0 };
		int r = read_packed(file, (uint64_t)n, kind, &mi);

		if (r != -EBADMSG)
			fail_msg("%s cut to %lld bytes: %d, not -EBADMSG", file, (long long)n, r);
		assert_null(mi.parms);
	}
}

static void test_truncated(void **state)
{
	cut_everywhere("fake.ko.zst", HALO_MODPACK_ZSTD);
	cut_everywhere("fake.ko.xz", HALO_MODPACK_XZ);
}

/* Each byte of FILE damaged in turn: an error, or (a byte no decoder
 * reads) the same answer. Most must be errors: the checks are there. */
static void damage_each_byte(const char *file)
{
	_cleanup_free_ unsigned char *orig = NULL;
	size_t errors = 0, same = 0;
	struct stat st;
	int fd;

	fd = open(at(file), O_RDWR | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	orig = malloc((size_t)st.st_size);
	assert_non_null(orig);
	assert_int_equal(pread(fd, orig, (size_t)st.st_size, 0), st.st_size);
	for (off_t i = 0; i < st.st_size; i++) {
		struct halo_modinfo mi = { 0 };
		unsigned char bad = orig[i] ^ 0x5a;
		int r;

		assert_int_equal(pwrite(fd, &bad, 1, i), 1);
		r = read_packed(file, 0, HALO_MODPACK_NONE, &mi);
		assert_int_equal(pwrite(fd, orig + i, 1, i), 1);
		if (r == 0) {
			assert_parms(mi.parms);
			same++;
		} else {
			assert_true(r == -EBADMSG || r == -ENOENT || r == -EPROTONOSUPPORT ||
				    r == -EFBIG);
			assert_null(mi.parms);
			errors++;
		}
		halo_strv_free(mi.parms);
	}
	close(fd);
	assert_true(errors > same * 4);
}

static void test_damaged(void **state)
{
	damage_each_byte("fake.ko.zst");
	damage_each_byte("fake.ko.xz");
}

/* What follows a stream, and streams the readers of libkmod disagree on. */
static void test_after_the_stream(void **state)
{
	struct halo_modinfo mi = { 0 };

	sh("cd '%s' && cat fake.ko.zst >junk.ko.zst && printf 'junk' >>junk.ko.zst", tmp);
	assert_int_equal(read_packed("junk.ko.zst", 0, HALO_MODPACK_NONE, &mi), -EBADMSG);
	/* Two frames: kmod 30 reads both, kmod 34 neither. */
	sh("cd '%s' && cat fake.ko.zst fake.ko.zst >two.ko.zst", tmp);
	assert_int_equal(read_packed("two.ko.zst", 0, HALO_MODPACK_NONE, &mi), -EBADMSG);
	/* No declared size (zstd reading a pipe): kmod 34 refuses it. */
	sh("cd '%s' && cat fake.ko | zstd -q -c >pipe.ko.zst", tmp);
	assert_int_equal(read_packed("pipe.ko.zst", 0, HALO_MODPACK_NONE, &mi), -EBADMSG);
	sh("cd '%s' && cat fake.ko.xz >junk.ko.xz && printf 'junk' >>junk.ko.xz", tmp);
	assert_int_equal(read_packed("junk.ko.xz", 0, HALO_MODPACK_NONE, &mi), -EBADMSG);
	assert_null(mi.parms);
	/* xz: stream padding and a second stream are valid .xz, and libkmod
	 * (LZMA_CONCATENATED) reads the same contents. */
	sh("cd '%s' && cat fake.ko.xz >pad.ko.xz && printf '\\0\\0\\0\\0' >>pad.ko.xz", tmp);
	assert_int_equal(read_packed("pad.ko.xz", 0, HALO_MODPACK_NONE, &mi), 0);
	assert_parms(mi.parms);
	halo_strv_free(mi.parms);
	mi.parms = NULL;
	sh("cd '%s' && cat fake.ko.xz fake.ko.xz >two.ko.xz", tmp);
	assert_int_equal(read_packed("two.ko.xz", 0, HALO_MODPACK_NONE, &mi), 0);
	assert_parms(mi.parms);
	halo_strv_free(mi.parms);
	/* Not ours to read. */
	assert_int_equal(read_packed("fake.ko", 0, HALO_MODPACK_GZIP, &mi), -EPROTONOSUPPORT);
}

/* A zstd frame header declaring 1 GiB: refused before decoding. */
static void test_size_bound(void **state)
{
	static const unsigned char frame[] = {
		0x28, 0xb5, 0x2f, 0xfd, /* magic */
		0xc0,                   /* 8-byte content size, not single segment */
		0x58,                   /* window 2^(10+11) */
		0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, /* 1 GiB */
		0x01, 0x00, 0x00,       /* a last raw block of 0 bytes */
	};
	struct halo_modinfo mi = { 0 };
	FILE *f = fopen(at("huge.ko.zst"), "w");

	assert_non_null(f);
	assert_int_equal(fwrite(frame, 1, sizeof(frame), f), sizeof(frame));
	assert_int_equal(fclose(f), 0);
	assert_int_equal(read_packed("huge.ko.zst", 0, HALO_MODPACK_NONE, &mi), -EFBIG);
}

/* Hand-made ELF files (64-bit, little-endian) with the section headers
 * at SHOFF and .modinfo at INFO_OFF; the file is LEN bytes. */
static void write_elf(const char *file, size_t shoff, size_t info_off, size_t len)
{
	static const char shstr[] = "\0.shstrtab\0.modinfo";
	static const char info[] = "parmtype=late:int\0parm=late:found past the headers";
	_cleanup_free_ unsigned char *b = calloc(1, len);
	const struct { uint32_t name, type; uint64_t off, size; } sh[] = {
		{ 0, 0, 0, 0 },
		{ 1, 3, 64, sizeof(shstr) },
		{ 11, 1, info_off, sizeof(info) },
	};
	FILE *f;

	assert_non_null(b);
	memcpy(b, "\x7f" "ELF\2\1\1", 7);
	for (int i = 0; i < 8; i++)
		b[40 + i] = (unsigned char)(shoff >> (8 * i));
	b[58] = 64;
	b[60] = 3;
	b[62] = 1;
	memcpy(b + 64, shstr, sizeof(shstr));
	memcpy(b + info_off, info, sizeof(info));
	for (size_t i = 0; i < 3; i++) {
		unsigned char *h = b + shoff + i * 64;

		for (int k = 0; k < 4; k++) {
			h[k] = (unsigned char)(sh[i].name >> (8 * k));
			h[4 + k] = (unsigned char)(sh[i].type >> (8 * k));
		}
		for (int k = 0; k < 8; k++) {
			h[24 + k] = (unsigned char)(sh[i].off >> (8 * k));
			h[32 + k] = (unsigned char)(sh[i].size >> (8 * k));
		}
	}
	f = fopen(at(file), "w");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* .modinfo past the section headers: the reader goes on for it. */
static void test_section_past_headers(void **state)
{
	struct halo_modinfo mi = { 0 };

	write_elf("late.ko", 128, 100000, 100100);
	sh("cd '%s' && zstd -q -f late.ko && xz -k -f late.ko", tmp);
	assert_int_equal(read_packed("late.ko.zst", 0, HALO_MODPACK_NONE, &mi), 0);
	assert_string_equal(halo_modinfo_parm_type(&mi, "late"), "int");
	halo_strv_free(mi.parms);
	mi.parms = NULL;
	assert_int_equal(read_packed("late.ko.xz", 0, HALO_MODPACK_NONE, &mi), 0);
	assert_string_equal(halo_modinfo_parm_type(&mi, "late"), "int");
	halo_strv_free(mi.parms);
	mi.parms = NULL;
	/* Headers that would end past the bound: not decompressed that far. */
	write_elf("far.ko", 128, 400, 600);
	sh("cd '%s' && printf '\\0\\0\\0\\10' | dd of=far.ko bs=1 seek=43 conv=notrunc status=none"
	   " && zstd -q -f far.ko", tmp);
	assert_int_equal(read_packed("far.ko.zst", 0, HALO_MODPACK_NONE, &mi), -EFBIG);
}

/* Only what was asked for is kept: a large module's first bytes. */
static void test_keeps_what_is_asked(void **state)
{
	_cleanup_(halo_unpack_freep) struct halo_unpack *u = NULL;
	const unsigned char *buf;
	uint64_t end;
	size_t len;
	int fd;

	write_elf("big.ko", 200000, 1000, 200300);
	sh("cd '%s' && zstd -q -f big.ko", tmp);
	fd = open(at("big.ko.zst"), O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(halo_unpack_new(NULL, fd, (uint64_t)lseek(fd, 0, SEEK_END),
					 HALO_MODPACK_ZSTD, &u), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(halo_unpack_until(u, 64, &buf, &len), 0);
	assert_int_equal(len, 64);
	assert_int_equal(halo_elf_headers_end(buf, len, &end), 0);
	assert_int_equal(end, 200000 + 3 * 64);
	assert_int_equal(halo_unpack_until(u, 70000, &buf, &len), 0);
	assert_int_equal(len, 70000);
	assert_int_equal(halo_unpack_finish(u), 0);
	close(fd);
}

static void test_lzma_layout(void **state)
{
#ifdef HAVE_LZMA_HEADER
#define SAME(f, g)                                                              \
	assert_int_equal(offsetof(struct halo_lzma_stream, f), offsetof(lzma_stream, g))
	assert_int_equal(sizeof(struct halo_lzma_stream), sizeof(lzma_stream));
	SAME(next_in, next_in);
	SAME(avail_in, avail_in);
	SAME(next_out, next_out);
	SAME(avail_out, avail_out);
	SAME(total_out, total_out);
	SAME(internal, internal);
	SAME(reserved_enum, reserved_enum1);
	assert_int_equal(LZMA_CONCATENATED, 0x08);
	assert_int_equal(LZMA_FINISH, 3);
	assert_int_equal(LZMA_MEMLIMIT_ERROR, 6);
#undef SAME
#else
	skip();
#endif
}

/* --- packcheck.c: complete or not, without decompressing -------------- */

/* halo_packed_complete on FILE, or its first LEN bytes (LEN 0: all of it),
 * with its first HEAD_LEN bytes read ahead (0: none handed in). */
static int complete(const char *file, uint64_t len, size_t head_len)
{
	unsigned char head[4096];
	struct stat st;
	ssize_t got = 0;
	int fd, r;

	fd = open(at(file), O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	if (!len)
		len = (uint64_t)st.st_size;
	assert_true(head_len <= sizeof(head));
	if (head_len) {
		got = pread(fd, head, head_len < len ? head_len : (size_t)len, 0);
		assert_true(got >= 0);
	}
	assert_int_equal(pread(fd, head, 6, 0), 6);
	r = halo_packed_complete(fd, len, head_len ? head : NULL, (size_t)got,
				 halo_modpack_of(head, 6));
	close(fd);
	return r;
}

/* Modules as modules_install writes them, small and large: fake.ko, a
 * large one of random bytes (zstd: raw blocks) and one that compresses
 * (zstd: compressed blocks; xz: several blocks in its index). */
static const char *const packed[] = {
	"fake.ko.zst", "fake.ko.xz", "rand.ko.zst", "rand.ko.xz", "seq.ko.zst", "seq.ko.xz",
};

static void make_large(void)
{
	sh("cd '%s' && head -c 300000 /dev/urandom >rand.ko && seq 1 100000 >seq.ko && "
	   "zstd -q -f -k rand.ko seq.ko && xz -f -k --check=crc32 --lzma2=dict=1MiB rand.ko && "
	   "xz -f -k --check=crc32 --lzma2=dict=1MiB --block-size=65536 seq.ko", tmp);
}

static void test_complete(void **state)
{
	static const size_t heads[] = { 0, 6, 64, 4096 };

	make_large();
	for (size_t f = 0; f < ARRAY_SIZE(packed); f++)
		for (size_t h = 0; h < ARRAY_SIZE(heads); h++)
			if (complete(packed[f], 0, heads[h]) != 0)
				fail_msg("%s (head %zu): not complete", packed[f], heads[h]);
}

/* Cut anywhere: not complete. Every length of a small file, and of a
 * large one its first and last 5000 bytes and every 97th between. */
static void test_complete_cut(void **state)
{
	for (size_t f = 0; f < ARRAY_SIZE(packed); f++) {
		struct stat st;

		assert_int_equal(stat(at(packed[f]), &st), 0);
		for (off_t n = 1; n < st.st_size; n++) {
			if (n > 5000 && n < st.st_size - 5000 && n % 97)
				continue;
			for (size_t head = 0; head <= 4096; head += 4096) {
				int r = complete(packed[f], (uint64_t)n, head);

				if (r != -EBADMSG)
					fail_msg("%s cut to %lld bytes (head %zu): %d, not -EBADMSG",
						 packed[f], (long long)n, head, r);
			}
		}
	}
}

/* Anything after the stream, and the layouts left to libkmod (which
 * reads some of them: xz padding, a second xz stream). */
static void test_complete_after(void **state)
{
	static const char *const refused[] = {
		"junk.ko.zst", "two.ko.zst", "pipe.ko.zst", "junk.ko.xz", "pad.ko.xz", "two.ko.xz",
		"zero.ko.zst",
	};

	sh("cd '%s' && cat fake.ko.zst >junk.ko.zst && printf 'junk' >>junk.ko.zst && "
	   "cat fake.ko.zst fake.ko.zst >two.ko.zst && cat fake.ko | zstd -q -c >pipe.ko.zst && "
	   "cat fake.ko.xz >junk.ko.xz && printf 'junk' >>junk.ko.xz && "
	   "cat fake.ko.xz >pad.ko.xz && printf '\\0\\0\\0\\0' >>pad.ko.xz && "
	   "cat fake.ko.xz fake.ko.xz >two.ko.xz && "
	   "cat fake.ko.zst >zero.ko.zst && printf '\\0' >>zero.ko.zst", tmp);
	for (size_t f = 0; f < ARRAY_SIZE(refused); f++)
		if (complete(refused[f], 0, 4096) != -EBADMSG || complete(refused[f], 0, 0) != -EBADMSG)
			fail_msg("%s: taken as complete", refused[f]);
	/* A file longer than it is: the reads come up short. */
	assert_int_equal(complete("rand.ko.zst", 400000, 0), -EBADMSG);
	/* Not a container read here. */
	assert_int_equal(halo_packed_complete(-1, 100, "\x1f\x8b\x08\0\0\0", 6, HALO_MODPACK_GZIP),
			 -EBADMSG);
}

/* A read that fails is its error, not a verdict. */
static void test_complete_read_error(void **state)
{
	int fd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(halo_packed_complete(fd, 100000, "\x28\xb5\x2f\xfd\x20\x05", 6,
					      HALO_MODPACK_ZSTD), -EISDIR);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_magic),
		cmocka_unit_test(test_zstd_and_xz),
		cmocka_unit_test(test_head_given),
		cmocka_unit_test(test_no_modinfo),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_after_the_stream),
		cmocka_unit_test(test_size_bound),
		cmocka_unit_test(test_section_past_headers),
		cmocka_unit_test(test_keeps_what_is_asked),
		cmocka_unit_test(test_lzma_layout),
		cmocka_unit_test(test_complete),
		cmocka_unit_test(test_complete_cut),
		cmocka_unit_test(test_complete_after),
		cmocka_unit_test(test_complete_read_error),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
