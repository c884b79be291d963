/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elfsection.c: one named section of an ELF file in memory (a module's
 * .modinfo), read the way libkmod-elf.c reads it: 32 or 64 bits, either
 * byte order, section headers of the standard size, the first section of
 * that name. Stricter than libkmod where it costs nothing: anything out of
 * bounds or unusual (extended section numbering, a name that runs off its
 * table) is -EBADMSG, and the caller then leaves the file to libkmod, whose
 * verdict on a broken module is the one users see. Pure.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "modules/internal.h"

struct elf {
	const unsigned char *buf;
	size_t len;
	bool is64, msb;
};

/* N bytes at OFF as an unsigned integer of the file's byte order; the
 * caller has checked OFF + N <= len. */
static uint64_t get(const struct elf *e, size_t off, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++) {
		size_t at = e->msb ? off + i : off + n - 1 - i;

		v = v << 8 | e->buf[at];
	}
	return v;
}

static bool in_file(const struct elf *e, uint64_t off, uint64_t size)
{
	return off <= e->len && size <= e->len - off;
}

struct shdr {
	uint64_t name, type, offset, size;
};

/* Section header I; the table was checked to lie inside the file. */
static struct shdr section(const struct elf *e, uint64_t shoff, size_t i)
{
	size_t at = (size_t)shoff + i * (e->is64 ? 64 : 40);

	if (e->is64)
		return (struct shdr){ get(e, at, 4), get(e, at + 4, 4),
				      get(e, at + 24, 8), get(e, at + 32, 8) };
	return (struct shdr){ get(e, at, 4), get(e, at + 4, 4),
			      get(e, at + 16, 4), get(e, at + 20, 4) };
}

#define SHT_NOBITS_ 8

/* The ELF header of BUF: class, byte order and the section header table's
 * place, checked for what halo_elf_section reads. */
static int read_header(struct elf *e, uint64_t *ret_shoff, uint64_t *ret_shnum,
		       uint64_t *ret_shstrndx)
{
	static const unsigned char magic[4] = { 0x7f, 'E', 'L', 'F' };
	uint64_t shentsize, shnum, shstrndx;

	if (e->len < 64 || memcmp(e->buf, magic, sizeof(magic)) != 0)
		return -EBADMSG;
	if (e->buf[4] != 1 && e->buf[4] != 2) /* ELFCLASS32, ELFCLASS64 */
		return -EBADMSG;
	if (e->buf[5] != 1 && e->buf[5] != 2) /* ELFDATA2LSB, ELFDATA2MSB */
		return -EBADMSG;
	e->is64 = e->buf[4] == 2;
	e->msb = e->buf[5] == 2;
	shentsize = get(e, e->is64 ? 58 : 46, 2);
	shnum = get(e, e->is64 ? 60 : 48, 2);
	shstrndx = get(e, e->is64 ? 62 : 50, 2);
	/* shnum 0 or shstrndx SHN_XINDEX: the real values live in section
	 * 0 (extended numbering), which no module uses. */
	if (shentsize != (e->is64 ? 64u : 40u) || shnum == 0 || shstrndx >= shnum)
		return -EBADMSG;
	*ret_shoff = e->is64 ? get(e, 40, 8) : get(e, 32, 4);
	*ret_shnum = shnum;
	*ret_shstrndx = shstrndx;
	return 0;
}

int halo_elf_headers_end(const void *buf, size_t len, uint64_t *ret_end)
{
	struct elf e = { .buf = buf, .len = len };
	uint64_t shoff, shnum, shstrndx;
	int r;

	r = read_header(&e, &shoff, &shnum, &shstrndx);
	if (r < 0)
		return r;
	/* shnum < 2^16 and entries of 64 bytes: no overflow but in shoff. */
	if (shoff > UINT64_MAX - shnum * (e.is64 ? 64 : 40))
		return -EBADMSG;
	*ret_end = shoff + shnum * (e.is64 ? 64 : 40);
	return 0;
}

int halo_elf_section(const void *buf, size_t len, const char *name,
		     const char **ret, size_t *ret_len)
{
	struct elf e = { .buf = buf, .len = len };
	uint64_t shoff, shnum, shstrndx;
	size_t want = strlen(name) + 1;
	struct shdr strtab;
	int r;

	r = read_header(&e, &shoff, &shnum, &shstrndx);
	if (r < 0)
		return r;
	if (!in_file(&e, shoff, shnum * (e.is64 ? 64 : 40)))
		return -EBADMSG;
	strtab = section(&e, shoff, (size_t)shstrndx);
	if (strtab.type == SHT_NOBITS_ || !in_file(&e, strtab.offset, strtab.size))
		return -EBADMSG;
	for (size_t i = 0; i < shnum; i++) {
		struct shdr s = section(&e, shoff, i);

		/* The name must end inside the string table. */
		if (s.name >= strtab.size)
			return -EBADMSG;
		if (strtab.size - s.name < want ||
		    memcmp(e.buf + strtab.offset + s.name, name, want) != 0)
			continue;
		if (s.type == SHT_NOBITS_ || !in_file(&e, s.offset, s.size))
			return -EBADMSG;
		*ret = (const char *)e.buf + s.offset;
		*ret_len = (size_t)s.size;
		return 0;
	}
	return -ENOENT;
}
