/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-config-digest.c: SHA-256 against the FIPS 180-4 / NIST vectors,
 * including the lengths where the padding spills into a second block. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config/digest.h"

static void hex_is(const void *data, size_t len, const char *want)
{
	char got[65];

	halo_sha256_hex(data, len, got);
	assert_string_equal(got, want);
}

static void vectors(void **state)
{
	hex_is("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	hex_is("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	/* 56 bytes: the length no longer fits the first padded block. */
	hex_is("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	hex_is("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
	       112, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

static void million_a(void **state)
{
	char *a = malloc(1000000);

	assert_non_null(a);
	memset(a, 'a', 1000000);
	hex_is(a, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(a);
}

static void block_edges(void **state)
{
	/* 55 and 64 bytes of 'a' (checked against sha256sum). */
	char a[64];

	memset(a, 'a', sizeof(a));
	hex_is(a, 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
	hex_is(a, 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vectors),
		cmocka_unit_test(million_a),
		cmocka_unit_test(block_edges),
	};

	return cmocka_run_group_tests_name("config-digest", tests, NULL, NULL);
}
