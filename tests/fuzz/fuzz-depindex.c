/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-depindex.c: the lookup in the root's modules.dep.bin
 * (src/modules/depindex.c), a file of the --root tree and so hostile
 * input. Input: KEY \0 INDEX (the index bytes, NULs included).
 *
 * Properties: a lookup either fails with -ENOENT or -EBADMSG, or returns
 * a NUL-terminated value that lies within the index's bytes.
 */
#include "config.h"

#include <errno.h>

#include "fuzz/fuzz.h"
#include "modules/internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t klen = nul ? (size_t)(nul - data) : size;
	size_t ilen = nul ? size - klen - 1 : 0;
	char *key = malloc(klen + 1), *value = NULL;
	/* The index in an allocation of exactly its size, so ASan sees any
	 * read past its end. */
	uint8_t *index = malloc(ilen ? ilen : 1);
	int r;

	FUZZ_CHECK(key && index);
	memcpy(key, data, klen);
	key[klen] = '\0';
	if (ilen)
		memcpy(index, nul + 1, ilen);
	r = halo_depindex_lookup(index, ilen, key, &value);
	FUZZ_CHECK(r == 0 || r == -ENOENT || r == -EBADMSG || r == -ENOMEM);
	if (r == 0) {
		FUZZ_CHECK(value);
		FUZZ_CHECK(strlen(value) < ilen);
	} else {
		FUZZ_CHECK(!value);
	}
	free(value);
	free(index);
	free(key);
	return 0;
}
