/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * grubfile.h: reads and edits shell-syntax files such as /etc/default/grub
 * and /etc/default/grub.d *.cfg without a shell.
 *
 * The scanner walks the file with the shell's quoting rules and records
 * every assignment `NAME=value` (optionally after `export`) that starts a
 * command. Values are decoded as the shell would (quotes removed, escapes
 * resolved) except that expansions stay as text: the `$` (and a backquote)
 * that start one are stored as HALO_GRUB_DOLLAR / HALO_GRUB_BACKQUOTE so
 * that re-encoding writes them back as expansions while a literal `$`
 * gets escaped. `${VAR}` references are thereby kept verbatim.
 *
 * An edit replaces exactly the bytes of one value; everything else (CRLF
 * line ends, comments, a missing final newline, other variables) stays
 * byte for byte.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "halo.h"

#define HALO_GRUB_DOLLAR '\x01'
#define HALO_GRUB_BACKQUOTE '\x02'

struct halo_grub_assign {
	char *name;
	unsigned line;     /* 1-based line of the assignment */
	size_t start, end; /* the value's bytes [start, end) in the text */
	char quote;        /* '"' or '\'' when the value is one quoted string */
	bool continued;    /* a backslash-newline inside the value */
	bool multiline;    /* a quoted newline inside the value */
	char *value;       /* decoded, expansions marked (see above) */
};

struct halo_grub_file {
	struct halo_grub_assign *assigns;
	size_t n;
	bool crlf;          /* the first line ends in \r\n */
	bool final_newline; /* the text ends in a newline (or is empty) */
};

void halo_grubfile_free(struct halo_grub_file *f);

/* Scans TEXT. -EINVAL for an unterminated quote, with *ret_err_line set to
 * the line where the quote opened. -ENOMEM. */
int halo_grubfile_scan(const char *text, struct halo_grub_file *ret,
		       unsigned *ret_err_line);

/* The assignments of NAME: count, and the first/last one (NULL if none). */
size_t halo_grubfile_count(const struct halo_grub_file *f, const char *name,
			   const struct halo_grub_assign **ret_first,
			   const struct halo_grub_assign **ret_last);

/*
 * Checks that NAME can be edited in place: assigned at most once, no line
 * continuation or quoted newline in its value. 0, or -EINVAL with a
 * message (static or in *ret_msg, caller frees) and the line.
 */
int halo_grubfile_check_editable(const struct halo_grub_file *f,
				 const char *name, char **ret_msg,
				 unsigned *ret_line);

/* Encodes a decoded VALUE as a shell word: in single quotes when PREFER is
 * '\'' and the value allows it, else in double quotes. NULL on ENOMEM. */
char *halo_grubfile_quote(const char *value, char prefer);

/* Replaces the value of A (from a scan of TEXT) by the word ENCODED, or,
 * A NULL, appends `NAME=ENCODED` as a new line (in the file's line-end
 * style). Caller frees *ret_text. 0 or -ENOMEM. */
int halo_grubfile_set(const char *text, const struct halo_grub_file *f,
		      const struct halo_grub_assign *a, const char *name,
		      const char *encoded, char **ret_text);

/*
 * Expands references to the variables in NAMES (NULL-terminated) inside a
 * decoded VALUE: `$NAME` and `${NAME}` become VALUES[i] (themselves decoded
 * values). Other expansions stay marked. NULL on ENOMEM.
 */
char *halo_grubfile_expand(const char *value, const char *const *names,
			   const char *const *values);

/* A decoded value for display and tokenizing: markers become '$' / '`'.
 * In place. */
void halo_grubfile_unmark(char *value);
