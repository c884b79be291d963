/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.h: what apply changed in the command-line files it does not own
 * (GRUB_CMDLINE_LINUX and _DEFAULT of /etc/default/grub,
 * /etc/kernel/cmdline), kept in BOOT_RECORD_PATH so that --revert undoes
 * only that: per (file, variable) the value before the first change
 * (raw bytes and tokens), and per parameter key the tokens apply set
 * ("ours", empty when it removed the key) and the tokens it found before
 * ("was"). The record is itself an owned file (managed header).
 *
 * Lines, fields separated by tabs, each percent-encoded (bytes <= ' ',
 * '%', DEL), "-" for an absent value:
 *   orig <path> <var> <raw> <tokens>
 *   key  <path> <var> <key> <ours> <was>
 * <var> is "-" for /etc/kernel/cmdline (the whole file).
 */
#pragma once

#include "halo.h"
#include "util/errors.h"

#define BOOT_RECORD_PATH "/var/lib/halo-provision/cmdline-edits"
/* The record as lines about it name it (engine/item.h: what). */
#define BOOT_RECORD_WHAT "the record of the command-line edits (boot)"

struct boot_rec_orig {
	char *path, *var;
	char *raw;     /* NULL: the variable (file) did not exist */
	char **tokens; /* its tokens then */
};

struct boot_rec_key {
	char *path, *var, *key;
	char **ours, **was;
};

struct boot_record {
	struct boot_rec_orig *o;
	size_t no;
	struct boot_rec_key *k;
	size_t nk;
};

void boot_record_free(struct boot_record *rec);
/* Parses TEXT; a text without the managed header is no record (empty).
 * Lines of another shape are skipped (a later version's). 0, -ENOMEM, or
 * -EBADMSG with *RET_LINE the line whose field does not decode. */
int boot_record_parse(const char *text, struct boot_record *ret, unsigned *ret_line);
/* The record under the root (BOOT_RECORD_PATH): absent is empty; one that
 * does not parse is an error in ERRS (exit 1 before any change). 0 or
 * -ENOMEM. */
int boot_record_load(struct halo_ctx *ctx, struct boot_record *rec, struct halo_errors *errs);
/* The record's file content (NULL when the record is empty). */
int boot_record_render(const struct boot_record *rec, char **ret_text);

/* Adds a change of PATH/VAR from BEFORE to AFTER (RAW: the encoded value
 * before, NULL absent): the first change of a variable records its orig,
 * every key whose tokens differ gets (or updates) its entry. */
int boot_record_change(struct boot_record *rec, const char *path, const char *var,
		       const char *raw, char *const *before, char *const *after);

const struct boot_rec_orig *boot_record_orig(const struct boot_record *rec,
					     const char *path, const char *var);

/* Undoes the record's entries for PATH/VAR on the tokens CUR: a key whose
 * tokens are still "ours" gets "was" back (in place; appended when apply
 * had removed it); anything else stays. *ret_all: every entry undone. */
int boot_record_undo(const struct boot_record *rec, const char *path, const char *var,
		     char *const *cur, char ***ret_tokens, bool *ret_undone);

/* Whether A and B hold the same tokens, in any order. */
bool boot_tokens_same_set(char *const *a, char *const *b);
