/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for util/strv.c and util/errors.c. */
#include "config.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <cmocka.h>

#include "util/errors.h"
#include "util/strv.h"

static void test_strv_push_len_contains(void **state)
{
	_cleanup_strv_free_ char **v = NULL;

	assert_int_equal(halo_strv_len(v), 0);
	assert_false(halo_strv_contains(v, "a"));
	assert_int_equal(halo_strv_push(&v, "ice"), 0);
	assert_int_equal(halo_strv_push(&v, "irdma"), 0);
	assert_int_equal(halo_strv_push(&v, ""), 0);
	assert_int_equal(halo_strv_len(v), 3);
	assert_string_equal(v[0], "ice");
	assert_string_equal(v[1], "irdma");
	assert_string_equal(v[2], "");
	assert_null(v[3]);
	assert_true(halo_strv_contains(v, "irdma"));
	assert_true(halo_strv_contains(v, ""));
	/* Exact match only: no prefixes, no case folding. */
	assert_false(halo_strv_contains(v, "ir"));
	assert_false(halo_strv_contains(v, "ICE"));
}

/* A vector someone else allocated exactly (a listing's copy) grows when
 * pushed to, and one that pushing grew keeps every string. */
static void test_strv_push_grows(void **state)
{
	_cleanup_strv_free_ char **v = calloc(2, sizeof(*v));
	char name[16];

	assert_non_null(v);
	assert_non_null(v[0] = strdup("first"));
	for (int i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "m%d", i);
		assert_int_equal(halo_strv_push(&v, name), 0);
	}
	assert_int_equal(halo_strv_len(v), 41);
	assert_string_equal(v[0], "first");
	for (int i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "m%d", i);
		assert_string_equal(v[i + 1], name);
	}
	assert_null(v[41]);
}

static void test_buf(void **state)
{
	struct halo_buf b = { 0 };
	char *s;

	halo_buf_puts(&b, "mtu=");
	halo_buf_printf(&b, "%d", 9000);
	halo_buf_append(&b, "\0xyz", 1); /* embedded NUL is data */
	halo_buf_append(&b, "ab", 2);
	assert_int_equal(b.len, 4 + 4 + 1 + 2);
	s = halo_buf_steal(&b);
	assert_non_null(s);
	assert_string_equal(s, "mtu=9000");
	assert_memory_equal(s + 9, "ab", 3);
	assert_null(b.data);
	free(s);

	/* A buffer nobody wrote to still gives "". */
	s = halo_buf_steal(&b);
	assert_non_null(s);
	assert_string_equal(s, "");
	free(s);

	/* Growth across many appends. */
	for (int i = 0; i < 1000; i++)
		halo_buf_printf(&b, "%04d", i);
	assert_int_equal(b.len, 4000);
	assert_memory_equal(b.data + 3996, "0999", 4);
	halo_buf_free(&b);
	assert_null(b.data);

	/* A latched OOM makes steal return NULL and free the data. */
	halo_buf_puts(&b, "x");
	b.oom = true;
	halo_buf_puts(&b, "y");
	assert_null(halo_buf_steal(&b));
	assert_null(b.data);
}

static void test_strdup_printf(void **state)
{
	char *s = halo_strdup_printf("%s/%u", "link", 7u);

	assert_string_equal(s, "link/7");
	free(s);
}

/* The kernel's parameq(): '-' and '_' alike, nothing else. */
static void test_name_rule(void **state)
{
	char s[] = "mlx5-core-x_y";

	halo_name_normalize(s);
	assert_string_equal(s, "mlx5_core_x_y");
	assert_true(halo_name_eq("amd-pstate", "amd_pstate", 10));
	assert_false(halo_name_eq("amd-pstate", "amd.pstate", 10));
	assert_false(halo_name_eq("Ice", "ice", 3));
}

static void test_hex_digit(void **state)
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 0; i < 16; i++) {
		assert_int_equal(halo_hex_digit(digits[i]), i);
		assert_int_equal(halo_hex_digit((char)(digits[i] >= 'a' ? digits[i] - 32 : digits[i])), i);
	}
	/* Every other byte is -1, the neighbours of each range included. */
	for (int c = -128; c < 128; c++)
		if (!strchr("0123456789abcdefABCDEF", c) || c == 0)
			assert_int_equal(halo_hex_digit((char)c), -1);
}

static void test_keyword_index(void **state)
{
	static const char *const loaders[] = { "auto", "grub", "grub-dropin",
					       "bls", NULL };

	assert_int_equal(halo_keyword_index(loaders, "auto"), 0);
	assert_int_equal(halo_keyword_index(loaders, "grub-dropin"), 2);
	assert_int_equal(halo_keyword_index(loaders, "bls"), 3);
	assert_int_equal(halo_keyword_index(loaders, "gru"), -1);
	assert_int_equal(halo_keyword_index(loaders, "grub "), -1);
	assert_int_equal(halo_keyword_index(loaders, "GRUB"), -1);
	assert_int_equal(halo_keyword_index(loaders, ""), -1);
	assert_int_equal(halo_keyword_index(loaders, NULL), -1);
}

static void test_suggest(void **state)
{
	static const char *const keys[] = { "gtt_mib", "reserve_mib", "loader", "extra", NULL };

	assert_string_equal(halo_suggest("gtt_mb", keys), "gtt_mib");
	assert_string_equal(halo_suggest("LOADER", keys), "loader"); /* case only */
	assert_string_equal(halo_suggest("reserv_mb", keys), "reserve_mib");
	assert_null(halo_suggest("xyz", keys));
	/* Two edits away, but the word has only two letters. */
	assert_null(halo_suggest("ex", (const char *const[]){ "exit", NULL }));
	assert_null(halo_suggest("anything", (const char *const[]){ NULL }));
}

static void test_errors(void **state)
{
	struct halo_errors e = { 0 };

	for (int i = 1; i <= 20; i++)
		halo_errors_add(&e, "halo.conf:%d: %s", i, "bad");
	assert_int_equal(e.n, 20);
	assert_false(e.oom);
	assert_string_equal(e.msgs[0], "halo.conf:1: bad");
	assert_string_equal(e.msgs[19], "halo.conf:20: bad");
	/* A hint goes on the end of the last line, not on a line of its own. */
	halo_errors_append(&e, " (did you mean %s?)", "x");
	assert_int_equal(e.n, 20);
	assert_string_equal(e.msgs[19], "halo.conf:20: bad (did you mean x?)");
	assert_string_equal(e.msgs[18], "halo.conf:19: bad");
	halo_errors_free(&e);
	halo_errors_append(&e, "alone");
	assert_int_equal(e.n, 1);
	assert_string_equal(e.msgs[0], "alone");
	halo_errors_free(&e);
	assert_int_equal(e.n, 0);
	assert_null(e.msgs);
	halo_errors_free(&e); /* idempotent */
}

/* halo_buf_printf appends exactly what snprintf would write, through the
 * copy of text-and-"%s" formats and through vsnprintf alike; halo_strdup_printf
 * gives the same text on its own. */
#define ASSERT_AS_SNPRINTF(prefix, ...)                                        \
	do {                                                                   \
		struct halo_buf b_ = { 0 };                                    \
		char want_[1024], *s_;                                         \
		size_t pl_ = strlen(prefix);                                   \
									       \
		memcpy(want_, prefix, pl_ + 1);                                \
		snprintf(want_ + pl_, sizeof(want_) - pl_, __VA_ARGS__);      \
		halo_buf_puts(&b_, prefix);                                    \
		halo_buf_printf(&b_, __VA_ARGS__);                             \
		assert_false(b_.oom);                                          \
		assert_int_equal(b_.len, strlen(want_));                       \
		assert_string_equal(b_.data, want_);                           \
		halo_buf_free(&b_);                                            \
		s_ = halo_strdup_printf(__VA_ARGS__);                          \
		assert_string_equal(s_, want_ + pl_);                          \
		free(s_);                                                      \
	} while (0)

static void test_buf_printf_as_snprintf(void **state)
{
	char long_s[300];
	const char *volatile none = NULL; /* hidden from -Wformat */
	struct halo_buf b = { 0 };

	ASSERT_AS_SNPRINTF("", "plain text");
	ASSERT_AS_SNPRINTF("x=", "%s", "");
	ASSERT_AS_SNPRINTF("", "%s/%s", "/etc", "modprobe.d");
	ASSERT_AS_SNPRINTF("key ", "/sys/module/%s/initstate", "irdma");
	ASSERT_AS_SNPRINTF("", "%s%s%s%s%s%s%s%s", "1", "22", "", "4", "5", "6", "7", "8");
	/* More strings than are copied directly: vsnprintf's turn. */
	ASSERT_AS_SNPRINTF("", "%s%s%s%s%s%s%s%s%s", "1", "2", "3", "4", "5", "6", "7", "8", "9");
	ASSERT_AS_SNPRINTF("", "100%% %s", "sure");
	ASSERT_AS_SNPRINTF("", "[%5s|%-3s|%.2s]", "ab", "c", "xyz");
	ASSERT_AS_SNPRINTF("mode ", "%04o, %zu bytes, %d, %u", 0644u, (size_t)9, -1, 7u);
	/* Numbers: every kind made without printf, at its limits. */
	ASSERT_AS_SNPRINTF("", "%d|%d|%d|%d", 0, -1, INT_MAX, INT_MIN);
	ASSERT_AS_SNPRINTF("", "%u|%u|%lu|%zu|%zu", 0u, UINT_MAX, ULONG_MAX, (size_t)0, SIZE_MAX);
	ASSERT_AS_SNPRINTF("", "%ld|%ld|%ld", 0L, LONG_MIN, LONG_MAX);
	ASSERT_AS_SNPRINTF("", "%x|%x|%lx|%zx|%02x", 0u, 0xdeadbeefu, ULONG_MAX, SIZE_MAX, 10u);
	ASSERT_AS_SNPRINTF("", "%o|%lo|%04o|%04o|%zo", 0u, ULONG_MAX, 0644u, 012345u, SIZE_MAX);
	ASSERT_AS_SNPRINTF("", "%05d|%05d|%5d|%5d|%2d|%0d", -42, 42, -42, 42, 12345, 7);
	ASSERT_AS_SNPRINTF("", "%020lu|%20ld|%020ld|%20lo", ULONG_MAX, LONG_MIN, LONG_MIN, 8UL);
	ASSERT_AS_SNPRINTF("", "%s=%lu MiB (%u%%) on %s", "gtt", 126976UL, 50u, "card0");
	ASSERT_AS_SNPRINTF("", "%d%d%d%d%d%d%d%d", 1, 2, 3, 4, 5, 6, 7, -8);
	/* What printf alone makes: wider than 20, other flags, precision,
	 * other lengths and conversions, a ninth conversion. */
	ASSERT_AS_SNPRINTF("", "[%021d|%25u]", -5, 5u);
	ASSERT_AS_SNPRINTF("", "[%-5d|%+d|% d|%#x|%.3d|%i|%hu|%lld|%zd|%X|%c]", 4, 4, 4, 255u,
			   4, 4, (unsigned short)65535, -5LL, (ssize_t)-3, 255u, 'q');
	ASSERT_AS_SNPRINTF("", "%d%d%d%d%d%d%d%d%d", 1, 2, 3, 4, 5, 6, 7, 8, 9);
	ASSERT_AS_SNPRINTF("", "%s%s%s%s%s%s%s%s%u", "1", "2", "3", "4", "5", "6", "7", "8", 9u);

	/* Every length across the first buffer's size and its growth, on an
	 * empty buffer and after a prefix. */
	memset(long_s, 'a', sizeof(long_s));
	for (int n = 0; n < 260; n++) {
		long_s[n] = '\0';
		ASSERT_AS_SNPRINTF("", "%s", long_s);
		ASSERT_AS_SNPRINTF("", "<%s>%s", long_s, "z");
		ASSERT_AS_SNPRINTF("", "%c%s", 'c', long_s);
		ASSERT_AS_SNPRINTF("prefix-of-some-length:", "%s", long_s);
		ASSERT_AS_SNPRINTF("prefix-of-some-length:", "%d%s", 42, long_s);
		long_s[n] = 'a';
	}

	/* printf's "(null)" for a NULL string. */
	halo_buf_printf(&b, "[%s]", none);
	assert_string_equal(b.data, "[(null)]");
	assert_int_equal(b.len, 8);
	halo_buf_free(&b);
}

/* halo_strjoin writes what snprintf(buf, size, "%s%s%s") writes, for every
 * size from none to more than enough, and not a byte past SIZE. */
static void test_strjoin_as_snprintf(void **state)
{
	static const char *const parts[][3] = {
		{ "roce/", "e810", "/pfc" },
		{ "", "", "" },
		{ "/sys/class/net/", "", "/ecn" },
		{ "x", "yz", "" },
	};

	for (size_t k = 0; k < ARRAY_SIZE(parts); k++) {
		const char *a = parts[k][0], *b = parts[k][1], *c = parts[k][2];

		for (size_t size = 0; size < 24; size++) {
			char want[32], got[32];
			int n;

			memset(want, '#', sizeof(want));
			memset(got, '#', sizeof(got));
			n = snprintf(want, size, "%s%s%s", a, b, c);
			assert_int_equal(halo_strjoin(got, size, a, b, c, NULL), n);
			assert_memory_equal(got, want, sizeof(want));
		}
	}
	/* No string at all: "", length 0. */
	{
		char one[2] = "z";

		assert_int_equal(halo_strjoin(one, sizeof(one), NULL), 0);
		assert_string_equal(one, "");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strv_push_len_contains),
		cmocka_unit_test(test_strv_push_grows),
		cmocka_unit_test(test_buf),
		cmocka_unit_test(test_strdup_printf),
		cmocka_unit_test(test_buf_printf_as_snprintf),
		cmocka_unit_test(test_strjoin_as_snprintf),
		cmocka_unit_test(test_keyword_index),
		cmocka_unit_test(test_hex_digit),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_name_rule),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests_name("util-strv", tests, NULL, NULL);
}
