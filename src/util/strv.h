/* SPDX-License-Identifier: GPL-2.0-or-later */
/* strv.h: NULL-terminated string vectors and a growable string buffer. */
#pragma once

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "halo.h"

void halo_strv_free(char **v);
static inline void halo_strv_freep(char ***v) { halo_strv_free(*v); }
#define _cleanup_strv_free_ _cleanup_(halo_strv_freep)
size_t halo_strv_len(char *const *v);
/* Appends a copy of S; -ENOMEM on failure (V unchanged). */
int halo_strv_push(char ***v, const char *s);
bool halo_strv_contains(char *const *v, const char *s);

/* Growable NUL-terminated buffer. Any failure latches buf->oom; check once
 * at the end with halo_buf_steal (NULL on OOM). */
struct halo_buf {
	char *data;
	size_t len, cap;
	bool oom;
};
void halo_buf_append(struct halo_buf *b, const char *s, size_t n);
void halo_buf_puts(struct halo_buf *b, const char *s);
void halo_buf_printf(struct halo_buf *b, const char *fmt, ...) _printf_(2, 3);
void halo_buf_vprintf(struct halo_buf *b, const char *fmt, va_list ap) _printf_(2, 0);
/* Returns the string (caller frees) or NULL if any append failed. */
char *halo_buf_steal(struct halo_buf *b);
void halo_buf_free(struct halo_buf *b);

/* asprintf that returns NULL on failure. */
char *halo_strdup_printf(const char *fmt, ...) _printf_(1, 2);
char *halo_strdup_vprintf(const char *fmt, va_list ap) _printf_(1, 0);

/* snprintf(BUF, SIZE, "%s%s...") of the strings up to NULL, without the
 * printf machinery: at most SIZE - 1 bytes and a NUL when SIZE > 0.
 * Returns the length untruncated, as snprintf does. */
size_t halo_strjoin(char *buf, size_t size, ...) __attribute__((sentinel));

/* The kernel's rule for module and parameter names (parameq()): '-' and
 * '_' are the same character. */
void halo_name_normalize(char *s);
bool halo_name_eq(const char *a, const char *b, size_t n);

/* The value of hex digit C (0-9, a-f, A-F): 0..15, or -1 for any other
 * character. */
int halo_hex_digit(char c);

/* Exact-match keyword lookup: index in TABLE (NULL-terminated) or -1. */
int halo_keyword_index(const char *const *table, const char *word);

/* The one of CANDIDATES (NULL-terminated) WORD was probably meant to be,
 * for "did you mean": equal but for case, or within two edits and fewer
 * edits than WORD has letters; NULL when none is that close. */
const char *halo_suggest(const char *word, const char *const *candidates);
