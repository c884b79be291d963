/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse-common.h: typed getters over the parsed file for the schema walk
 * (parse-common.c). Each reports its own error ("FILE:LINE: KEY: what")
 * and returns -1, so a section goes on after a bad key and every error
 * of the file is found in one pass.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "config/cset.h"
#include "config/halo-config.h"
#include "config/report.h"

/* Typed getters. Return 1 when KEY is present and valid (*ret set), 0 when
 * absent, -1 after reporting an error. PATH is the group's key path ("" at
 * the top). */
int halo_pget_int(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		  const char *key, int64_t min, int64_t max, int64_t *ret, int *ret_line);
int halo_pget_bool(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		   const char *key, bool *ret);
int halo_pget_string(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		     const char *key, char **ret, int *ret_line);
int halo_pget_keyword(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		      const char *key, const char *const *table, int *ret);
/* A group (1), absent (0), wrong type (-1, reported); also reports unknown
 * keys inside it against KEYS. */
int halo_pget_group(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		    const char *key, const char *const *keys, const struct halo_cset **ret);
/* An array or list; elements are checked by the caller. */
int halo_pget_seq(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		  const char *key, const struct halo_cset **ret);
void halo_pcheck_keys(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		      const char *const *keys);
/* The kind S is taken as: with p->loose, a string that is an integer
 * ("9000") is HALO_CSET_INT (for keys that take a keyword or a number). */
enum halo_cset_kind halo_pkind(const struct halo_pctx *p, const struct halo_cset *s);
bool halo_pwant(struct halo_pctx *p, const struct halo_cset *s, const char *path,
		enum halo_cset_kind kind);
const char *halo_cset_kind_name(enum halo_cset_kind k);

/* A string list whose elements each pass CHECK (NULL message: ok). Reports
 * duplicates (after NORMALIZE, if given). The valid elements are kept. */
typedef const char *(*halo_str_check_fn)(const char *s);
int halo_pget_strlist(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		      const char *key, halo_str_check_fn check,
		      void (*normalize)(char *s), struct halo_strlist *ret);

/* A list whose string elements each parse into a typed element, which
 * keeps its text as written in a char * member at TEXT_OFFSET. */
struct halo_elem_parser {
	size_t elem_size;
	size_t text_offset;
	/* Fills ELEM (zeroed) from TEXT found at LINE: NULL; or why TEXT is
	 * refused (static text; ELEM left zeroed), reported as
	 * "KEY[I]: \"TEXT\" <why>"; or HALO_PARSE_OOM. */
	const char *(*parse)(const char *text, int line, void *elem);
	/* Whether A and B say the same thing twice in other words; NULL:
	 * only the same text is ("KEY[I]: \"TEXT\" is listed twice (first
	 * at line N)"). */
	bool (*same)(const void *a, const void *b);
	/* Releases what parse allocated in ELEM. */
	void (*clear)(void *elem);
};
extern const char halo_parse_oom[];
#define HALO_PARSE_OOM halo_parse_oom
/* The sequence KEY through EP: the valid elements, in order, in a table
 * (one spare zeroed slot) in *RET, counted in *RET_N; *RET stays NULL
 * when KEY is absent or not a sequence. Returns like halo_pget_seq, -1
 * too when an element was refused. */
int halo_pget_parsed(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		     const char *key, const struct halo_elem_parser *ep, void **ret,
		     size_t *ret_n);

/* The string KEY through PARSE (as in struct halo_elem_parser) into ELEM:
 * 1, 0 when absent (reported at GROUP_LINE when REQUIRED), -1 when
 * refused (reported as "PATH.KEY: \"TEXT\" <why>"). */
int halo_pget_parsed_one(struct halo_pctx *p, const struct halo_cset *g, const char *path,
			 const char *key, const char *(*parse)(const char *text, int line, void *elem),
			 bool required, int group_line, void *elem);

/* The sequence KEY and a zeroed table for its elements (one spare slot);
 * NULL when absent, of the wrong type (reported) or out of memory (p->oom).
 * *RET_N: the number of elements. */
void *halo_pget_table(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		      const char *key, size_t elem_size, const struct halo_cset **ret_seq,
		      size_t *ret_n);
/* A string checked by CHECK (reported and *RET left NULL when bad);
 * REQUIRED: absence is reported at GROUP_LINE. */
void halo_pget_checked(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		       const char *key, halo_str_check_fn check, bool required,
		       int group_line, char **ret, int *ret_line);
/* A list of integers MIN..MAX without duplicates. */
int halo_pget_intlist(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		      const char *key, int64_t min, int64_t max, int64_t **ret,
		      size_t *ret_n, int *ret_line);
