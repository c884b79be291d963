/* SPDX-License-Identifier: GPL-2.0-or-later */
/* config-test.h: helpers shared by the test-config-*.c unit tests. */
#pragma once

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "config/halo-config.h"
#include "util/errors.h"
#include "util/strv.h"

/* After a load that returned R with ERRS and C: every error line joined by
 * '\n' ("" when none); the config (or NULL) in *RET when RET is given,
 * else freed. ERRS is freed. */
static inline char *joined_load_errors(int r, struct halo_errors *errs, struct halo_config *c,
				       struct halo_config **ret)
{
	struct halo_buf b = { 0 };

	assert_false(errs->oom);
	if (r == 0)
		assert_int_equal(errs->n, 0);
	else
		assert_true(errs->n > 0 && c == NULL);
	for (size_t i = 0; i < errs->n; i++) {
		/* One line each. */
		assert_null(strchr(errs->msgs[i], '\n'));
		halo_buf_printf(&b, "%s%s", i ? "\n" : "", errs->msgs[i]);
	}
	halo_buf_puts(&b, "");
	halo_errors_free(errs);
	if (ret)
		*ret = c;
	else
		halo_config_free(c);
	return halo_buf_steal(&b);
}

/* Loads TEXT as "halo.conf"; returns every error line joined by '\n' ("" when
 * none), and the config (or NULL) in *RET when RET is given. */
static inline char *load_errors(const char *text, struct halo_config **ret)
{
	struct halo_errors errs = { 0 };
	struct halo_config *c = NULL;
	int r = halo_config_load_string("halo.conf", text, &c, &errs);

	return joined_load_errors(r, &errs, c, ret);
}

#define assert_config_errors(text, want)                                       \
	do {                                                                   \
		char *got_ = load_errors(text, NULL);                          \
		assert_non_null(got_);                                         \
		assert_string_equal(got_, want);                               \
		free(got_);                                                    \
	} while (0)

#define assert_config_ok(text, retp)                                           \
	do {                                                                   \
		char *got_ = load_errors(text, retp);                          \
		assert_non_null(got_);                                         \
		assert_string_equal(got_, "");                                 \
		free(got_);                                                    \
	} while (0)
