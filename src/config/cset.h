/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cset.h: the parsed config file as the schema walk sees it. cset.c is
 * the one file of src/config that includes <libconfig.h>: it reads the
 * text into a tree and answers for its settings, so the walk (parse-*.c)
 * never sees a libconfig type nor its TRUE/FALSE convention.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A setting of the parsed file; really a config_setting_t. */
struct halo_cset;
/* The whole parsed file; really a config_t. */
struct halo_ctree;

enum halo_cset_kind {
	HALO_CSET_GROUP,
	HALO_CSET_ARRAY,
	HALO_CSET_LIST,
	HALO_CSET_INT,
	HALO_CSET_FLOAT,
	HALO_CSET_STRING,
	HALO_CSET_BOOL,
};

/* Why libconfig refused a text, and where. */
struct halo_ctree_error {
	int line;
	char what[128]; /* libconfig's words ("syntax error") */
};

/* Parses TEXT (NUL-terminated; the caller refused @include). 0 with *RET
 * set; -EINVAL with *RET_ERR filled; -ENOMEM. An integer is never taken
 * for a float nor a float for an integer. */
int halo_ctree_parse(const char *text, struct halo_ctree **ret,
		     struct halo_ctree_error *ret_err);
void halo_ctree_free(struct halo_ctree *t);
const struct halo_cset *halo_ctree_root(const struct halo_ctree *t);

enum halo_cset_kind halo_cset_kind(const struct halo_cset *s);
const char *halo_cset_name(const struct halo_cset *s); /* NULL for elements */
int halo_cset_line(const struct halo_cset *s); /* nearest known line */
size_t halo_cset_len(const struct halo_cset *s);
const struct halo_cset *halo_cset_elem(const struct halo_cset *s, size_t i);
const struct halo_cset *halo_cset_member(const struct halo_cset *s, const char *name);
/* The values; a string of config_data read as a loose integer or boolean
 * ("9000", "yes") where the walk let one through. */
int64_t halo_cset_int(const struct halo_cset *s);
const char *halo_cset_string(const struct halo_cset *s); /* "" for a non-string */
bool halo_cset_bool(const struct halo_cset *s);
