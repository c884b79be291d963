/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz.h: what the fuzz targets share. Each target is one
 * LLVMFuzzerTestOneInput, linked either with libFuzzer (--enable-fuzz) or
 * with replay.c (make check).
 */
#pragma once

#include <linux/netlink.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

/* A property of the code under test does not hold: a finding, reported
 * like a sanitizer report (libFuzzer keeps the input). */
#define FUZZ_CHECK(cond)                                                      \
	do {                                                                  \
		if (!(cond)) {                                                \
			fprintf(stderr, "%s:%d: property failed: %s\n",       \
				__FILE__, __LINE__, #cond);                   \
			abort();                                              \
		}                                                             \
	} while (0)

/*
 * Splits the input at NUL bytes into at most N strings, each in its own
 * allocation of exactly its length + 1 (so ASan sees reads past its end).
 * Missing parts are NULL. The last part takes the rest, NULs included up to
 * the first one. Free with fuzz_parts_free.
 */
static inline void fuzz_split(const uint8_t *data, size_t size, char **parts,
			      size_t n)
{
	size_t i = 0, k = 0;

	for (; k < n; k++)
		parts[k] = NULL;
	for (k = 0; k < n && i <= size; k++) {
		const uint8_t *nul = memchr(data + i, 0, size - i);
		size_t len = nul ? (size_t)(nul - (data + i)) : size - i;

		parts[k] = malloc(len + 1);
		if (!parts[k])
			abort();
		memcpy(parts[k], data + i, len);
		parts[k][len] = '\0';
		if (!nul)
			break;
		i += len + 1;
	}
}

static inline void fuzz_parts_free(char **parts, size_t n)
{
	for (size_t k = 0; k < n; k++)
		free(parts[k]);
}

/* Lines of T as an editor counts them (the last one may lack '\n'). */
static inline unsigned fuzz_count_lines(const char *t)
{
	unsigned n = 1;

	for (; *t; t++)
		n += *t == '\n';
	return n;
}

/* The whole input in an allocation of exactly its size (one byte for an
 * empty input), so ASan sees any read past its end; malloc's alignment
 * gives netlink targets the kernel's 4-byte aligned receive buffer. */
static inline uint8_t *fuzz_copy(const uint8_t *data, size_t size)
{
	uint8_t *buf = malloc(size ? size : 1);

	if (!buf)
		abort();
	if (size)
		memcpy(buf, data, size);
	else
		buf[0] = 0;
	return buf;
}

/* The whole input as one string (up to its first NUL). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = NULL;

	fuzz_split(data, size, &s, 1);
	return s;
}

/* FUZZ_SKIP_KNOWN set: the targets step around the bugs they already
 * found and that are reported but not fixed yet, so a long run can look
 * further. Unset (make check, make fuzz): every regression input fails
 * until its bug is fixed. */
static inline int fuzz_skip_known(void)
{
	static int skip = -1;

	if (skip < 0)
		skip = getenv("FUZZ_SKIP_KNOWN") != NULL;
	return skip;
}

/* Netlink targets: the fuzz input as the kernel's reply to a request. */
struct fuzz_reply {
	const uint8_t *data;
	size_t size;
};

/* Copies R into OUT (at most SIZE bytes) and gives each whole message the
 * sequence number of REQ, as the kernel would, so the transport reads it
 * as the answer. Returns the length copied. */
static inline int fuzz_reply_copy(const struct fuzz_reply *r,
				  const struct nlmsghdr *req, void *out, size_t size)
{
	uint8_t *buf = out;
	size_t n = r->size < size ? r->size : size, off = 0;

	memcpy(buf, r->data, n);
	while (n - off >= NLMSG_HDRLEN) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)(buf + off);

		nlh->nlmsg_seq = req->nlmsg_seq;
		if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > n - off)
			break;
		off += NLMSG_ALIGN((size_t)nlh->nlmsg_len);
		if (off > n)
			break; /* aligned past the end: n - off would wrap */
	}
	return (int)n;
}

/* The extended ack a transport kept from a reply, if any, is a short
 * non-empty string however the reply was formed. */
static inline void fuzz_check_extack(const char *ext)
{
	if (ext)
		FUZZ_CHECK(strlen(ext) > 0 && strlen(ext) < 256);
}

/* PARSE on every message of BUF (the kernel's messages are 4-byte aligned
 * in its receive buffer), first as the rest of the buffer, then as exactly
 * the message in its own allocation, so ASan sees any overread. */
static inline void fuzz_each_message(uint8_t *buf, size_t size,
				     void (*parse)(const void *msg, size_t len))
{
	size_t off = 0;

	while (off < size) {
		const struct nlmsghdr *nlh = (const void *)(buf + off);
		size_t rest = size - off;
		uint8_t *one;

		parse(nlh, rest);
		if (rest < NLMSG_HDRLEN || nlh->nlmsg_len < NLMSG_HDRLEN ||
		    nlh->nlmsg_len > rest)
			break;
		one = malloc(nlh->nlmsg_len);
		if (!one)
			abort();
		memcpy(one, nlh, nlh->nlmsg_len);
		parse(one, nlh->nlmsg_len);
		free(one);
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	if (size == 0)
		parse(buf, 0);
}
