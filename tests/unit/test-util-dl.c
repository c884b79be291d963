/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for util/dl.c: a library opened on first use either fills
 * its whole symbol table or none of it, with dlerror's line as the reason.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "util/dl.h"

/* Two libc functions, resolved by name from libc.so.6. */
static size_t (*sym_strlen)(const char *);
static int (*sym_strcmp)(const char *, const char *);
static void (*sym_missing)(void);

static void test_open_fills_table(void **state)
{
	const struct halo_dl_sym syms[] = {
		{ "strlen", (void (**)(void)) & sym_strlen },
		{ "strcmp", (void (**)(void)) & sym_strcmp },
	};
	struct halo_dl dl = { .soname = "libc.so.6", .syms = syms, .n_syms = 2 };
	char *why = NULL;

	assert_int_equal(halo_dl_open(&dl, &why), 0);
	assert_null(why);
	assert_non_null(dl.handle);
	assert_int_equal(sym_strlen("halo"), 4);
	assert_int_equal(sym_strcmp("a", "a"), 0);
	/* Opened once: a second call changes nothing. */
	void *h = dl.handle;
	assert_int_equal(halo_dl_open(&dl, &why), 0);
	assert_ptr_equal(dl.handle, h);
	halo_dl_close(&dl);
	assert_null(dl.handle);
	assert_null(sym_strlen);
	assert_null(sym_strcmp);
}

static void test_missing_library(void **state)
{
	const struct halo_dl_sym syms[] = {
		{ "strlen", (void (**)(void)) & sym_strlen },
	};
	struct halo_dl dl = { .soname = "libhalo-no-such-library.so.9", .syms = syms, .n_syms = 1 };
	char *why = NULL;

	assert_int_equal(halo_dl_open(&dl, &why), -ELIBACC);
	assert_non_null(why);
	assert_non_null(strstr(why, "libhalo-no-such-library.so.9: cannot open shared object file"));
	assert_null(strchr(why, '\n'));
	assert_null(dl.handle);
	assert_null(sym_strlen);
	free(why);
}

static void test_missing_symbol_sets_none(void **state)
{
	/* The missing one last: the ones before it were already resolved
	 * and must be cleared again. */
	const struct halo_dl_sym syms[] = {
		{ "strlen", (void (**)(void)) & sym_strlen },
		{ "strcmp", (void (**)(void)) & sym_strcmp },
		{ "halo_no_such_function", (void (**)(void)) & sym_missing },
	};
	struct halo_dl dl = { .soname = "libc.so.6", .syms = syms, .n_syms = 3 };
	char *why = NULL;

	assert_int_equal(halo_dl_open(&dl, &why), -ELIBBAD);
	assert_non_null(why);
	assert_non_null(strstr(why, "halo_no_such_function"));
	assert_null(dl.handle);
	assert_null(sym_strlen);
	assert_null(sym_strcmp);
	assert_null(sym_missing);
	free(why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_fills_table),
		cmocka_unit_test(test_missing_library),
		cmocka_unit_test(test_missing_symbol_sets_none),
	};

	return cmocka_run_group_tests_name("util-dl", tests, NULL, NULL);
}
