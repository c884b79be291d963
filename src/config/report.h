/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.h: the state of one load and its messages (report.c). Every
 * message is one line, "FILE:LINE: KEY: what", and all of them are
 * collected before the load fails.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "halo.h"
#include "util/errors.h"

struct halo_pctx {
	const char *file;
	struct halo_errors *errs;
	const int *bad_int_lines; /* lines whose integer literal overflowed */
	size_t n_bad_int_lines;
	bool oom;
	/* config_data (Ansible): strings stand for integers and booleans
	 * ("9000", "yes"), and LINE N of the generated text is the JSON
	 * path LINE_PATHS[N - 1], which messages show instead. */
	bool loose;
	char *const *line_paths;
	size_t n_line_paths;
};

/* "FILE:LINE: " and the message, made one line. */
void halo_perr(struct halo_pctx *p, int line, const char *fmt, ...) _printf_(3, 4);
/* Quote S for a one-line message (escapes, truncation) into BUF. */
const char *halo_pquote(const char *s, char *buf, size_t len);
/* "PATH.KEY" or "KEY" at the top; "PATH[I]" for I >= 0 and KEY NULL. */
const char *halo_pkey(char *buf, size_t len, const char *path, const char *key, long idx);
