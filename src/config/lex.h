/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lex.h: the text pass before libconfig parses a config (lex.c). */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "config/report.h"

/* @include lines and integer literals libconfig 1.5 would silently wrap:
 * reported through P; the lines of the wrapped literals in
 * *RET_BAD_LINES (caller frees), *RET_N of them. *RET_COMMENT_OPEN:
 * whether the text ends inside a block comment, strings and comments
 * skipped as halo_config_unclosed skips them (which, when this is false,
 * cannot find a comment open). Returns the number of @include lines (the
 * text must then not be parsed). */
size_t halo_config_prescan(struct halo_pctx *p, const char *text, size_t len,
			   int **ret_bad_lines, size_t *ret_n, bool *ret_comment_open);
/* The start of LINE (1-based) of TEXT, its end (the '\n' or the NUL) in
 * *RET_EOL; NULL past the last line. */
const char *halo_config_line(const char *text, int line, const char **ret_eol);
/* Past the string or comment starting at S on a line ending at EOL (a
 * comment runs to EOL); S itself when neither starts there. */
const char *halo_config_line_skip(const char *s, const char *eol);
/* The setting name assigned on LINE of TEXT into BUF; returns how many
 * names that line assigns (a message can only name it when exactly 1). */
int halo_config_line_setting(const char *text, int line, char *buf, size_t len);

/* What a config left open where it ends, for libconfig's syntax error at
 * the end of the file (it cannot say where the unclosed part began): the
 * innermost '{', '[' or '(' never closed, or '"' for a string, '*' for a
 * comment, with the line it opened on in *RET_LINE. Strings and comments
 * are skipped as libconfig's scanner does. 0 when nothing is left open, or
 * a closer does not match its opener, or the brackets nest too deep to
 * follow (then that is libconfig's to say); a comment or string left open
 * is found at any depth (libconfig takes a comment's end as the file's). */
char halo_config_unclosed(const char *text, size_t len, int *ret_line);
/* The first '}', ']' or ')' that closes a different kind of bracket than
 * the innermost one open (libconfig reports it where the closer is, not
 * where the bracket left open began): returns that opener, with the line
 * it opened on in *RET_OPEN_LINE, the closer in *RET_CLOSER and its line
 * in *RET_CLOSE_LINE. 0 when every closer matches, or one closes nothing,
 * or the brackets nest too deep to follow. Strings and comments are
 * skipped as halo_config_unclosed skips them. */
char halo_config_mismatched(const char *text, size_t len, int *ret_open_line, char *ret_closer,
			    int *ret_close_line);
/* For libconfig's bare "syntax error" on LINE of TEXT: the likely mistake
 * on that line (a bare word as a value, a ',' before a closer, ";;") in
 * BUF, returned; NULL when the line shows none of them. */
const char *halo_config_syntax_hint(const char *text, int line, char *buf, size_t size);
