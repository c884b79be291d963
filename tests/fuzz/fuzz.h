/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz.h: what the fuzz targets share. Each target is one
 * LLVMFuzzerTestOneInput, linked either with libFuzzer (--enable-fuzz) or
 * with replay.c (make check).
 */
#pragma once

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
