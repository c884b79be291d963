/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elfsection.c: one named section of an ELF file in memory (a module's
 * .modinfo), read the way libkmod-elf.c reads it: 32 or 64 bits, either
 * byte order, section headers of the standard size, the first section of
 * that name. Stricter than libkmod where it costs nothing: anything out of
 * bounds or unusual (extended section numbering, a name that runs off its
 * table) is -EBADMSG, and the caller then leaves the file to libkmod, whose
 * verdict on a broken module is the one users see. In memory (pure), or
 * from a descriptor, reading only the header, the section header table,
 * the name table and the section itself.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "modules/internal.h"

/* The file: in memory (BUF), or read from FD as far as needed. What is
 * read from FD is held until elf_done. */
struct elf {
	const unsigned char *buf;
	int fd;
	const unsigned char *head; /* the first head_len bytes of FD's file */
	size_t head_len;
	bool from_head;            /* the last fetch was served from HEAD */
	uint64_t len;
	unsigned char *held[4]; /* header, section table, names, section */
	size_t n_held;
	bool is64, msb;
};

/* The most read from a descriptor at once: a section header table of
 * 65535 entries is 4 MiB; a .modinfo or a name table far larger than any
 * module's is left to libkmod. */
#define ELF_READ_MAX ((uint64_t)16 << 20)

static void elf_done(struct elf *e)
{
	for (size_t i = 0; i < e->n_held; i++)
		free(e->held[i]);
	e->n_held = 0;
}

/* The N bytes of the file at OFF: in place, or read from the descriptor;
 * -EBADMSG when they are not all inside the file. */
static int fetch(struct elf *e, uint64_t off, uint64_t n, const unsigned char **ret)
{
	unsigned char *p;

	if (off > e->len || n > e->len - off)
		return -EBADMSG;
	if (e->buf) {
		*ret = e->buf + off;
		return 0;
	}
	/* In the head the caller read: all of a small module, no read. */
	e->from_head = n <= e->head_len && off <= e->head_len - n;
	if (e->from_head) {
		*ret = e->head + off;
		return 0;
	}
	if (n > ELF_READ_MAX || e->n_held == sizeof(e->held) / sizeof(e->held[0]))
		return -EBADMSG;
	p = malloc(n ? (size_t)n : 1);
	if (!p)
		return -ENOMEM;
	e->held[e->n_held++] = p;
	for (size_t got = 0; got < n;) {
		ssize_t k = pread(e->fd, p + got, (size_t)n - got, (off_t)(off + got));

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) /* an error, or the file shrank under us */
			return k < 0 ? -errno : -EBADMSG;
		got += (size_t)k;
	}
	*ret = p;
	return 0;
}

/* N bytes at P as an unsigned integer of the file's byte order. */
static uint64_t get(const struct elf *e, const unsigned char *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v = v << 8 | p[e->msb ? i : n - 1 - i];
	return v;
}

struct shdr {
	uint64_t name, type, offset, size;
};

/* Section header I of the table TABLE. */
static struct shdr section(const struct elf *e, const unsigned char *table, size_t i)
{
	const unsigned char *at = table + i * (e->is64 ? 64 : 40);

	if (e->is64)
		return (struct shdr){ get(e, at, 4), get(e, at + 4, 4),
				      get(e, at + 24, 8), get(e, at + 32, 8) };
	return (struct shdr){ get(e, at, 4), get(e, at + 4, 4),
			      get(e, at + 16, 4), get(e, at + 20, 4) };
}

#define SHT_NOBITS_ 8

/* The ELF header: class, byte order and the section header table's
 * place, checked for what elf_find reads. */
static int read_header(struct elf *e, uint64_t *ret_shoff, uint64_t *ret_shnum,
		       uint64_t *ret_shstrndx)
{
	static const unsigned char magic[4] = { 0x7f, 'E', 'L', 'F' };
	const unsigned char *h;
	uint64_t shentsize, shnum, shstrndx;
	int r = fetch(e, 0, 64, &h);

	if (r < 0)
		return r;
	if (memcmp(h, magic, sizeof(magic)) != 0)
		return -EBADMSG;
	if (h[4] != 1 && h[4] != 2) /* ELFCLASS32, ELFCLASS64 */
		return -EBADMSG;
	if (h[5] != 1 && h[5] != 2) /* ELFDATA2LSB, ELFDATA2MSB */
		return -EBADMSG;
	e->is64 = h[4] == 2;
	e->msb = h[5] == 2;
	shentsize = get(e, h + (e->is64 ? 58 : 46), 2);
	shnum = get(e, h + (e->is64 ? 60 : 48), 2);
	shstrndx = get(e, h + (e->is64 ? 62 : 50), 2);
	/* shnum 0 or shstrndx SHN_XINDEX: the real values live in section
	 * 0 (extended numbering), which no module uses. */
	if (shentsize != (e->is64 ? 64u : 40u) || shnum == 0 || shstrndx >= shnum)
		return -EBADMSG;
	*ret_shoff = e->is64 ? get(e, h + 40, 8) : get(e, h + 32, 4);
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

/* The first section called NAME of E: its bytes and length. */
static int elf_find(struct elf *e, const char *name, const unsigned char **ret, size_t *ret_len)
{
	uint64_t shoff, shnum, shstrndx;
	size_t want = strlen(name) + 1;
	const unsigned char *table, *names;
	struct shdr strtab;
	int r;

	r = read_header(e, &shoff, &shnum, &shstrndx);
	if (r < 0)
		return r;
	r = fetch(e, shoff, shnum * (e->is64 ? 64 : 40), &table);
	if (r < 0)
		return r;
	strtab = section(e, table, (size_t)shstrndx);
	if (strtab.type == SHT_NOBITS_)
		return -EBADMSG;
	r = fetch(e, strtab.offset, strtab.size, &names);
	if (r < 0)
		return r;
	for (size_t i = 0; i < shnum; i++) {
		struct shdr s = section(e, table, i);

		/* The name must end inside the string table. */
		if (s.name >= strtab.size)
			return -EBADMSG;
		if (strtab.size - s.name < want || memcmp(names + s.name, name, want) != 0)
			continue;
		if (s.type == SHT_NOBITS_)
			return -EBADMSG;
		r = fetch(e, s.offset, s.size, ret);
		if (r < 0)
			return r;
		*ret_len = (size_t)s.size;
		return 0;
	}
	return -ENOENT;
}

int halo_elf_section(const void *buf, size_t len, const char *name,
		     const char **ret, size_t *ret_len)
{
	struct elf e = { .buf = buf, .len = len };
	const unsigned char *sec;
	int r = elf_find(&e, name, &sec, ret_len);

	if (r == 0)
		*ret = (const char *)sec;
	return r;
}

int halo_elf_section_fd(int fd, uint64_t size, const void *head, size_t head_len,
			const char *name, char **ret, size_t *ret_len)
{
	struct elf e = { .fd = fd, .len = size, .head = head,
			 .head_len = head_len < size ? head_len : (size_t)size };
	const unsigned char *sec;
	int r = elf_find(&e, name, &sec, ret_len);

	if (r == 0 && e.from_head) {
		*ret = malloc(*ret_len ? *ret_len : 1);
		if (*ret)
			memcpy(*ret, sec, *ret_len);
		else
			r = -ENOMEM;
	} else if (r == 0) {
		/* The section is the last thing read: the caller's now. */
		*ret = (char *)e.held[--e.n_held];
	}
	elf_done(&e);
	return r;
}
