/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmdline.h: kernel command line tokens and the merge that edits them.
 *
 * A token is kept verbatim (quotes and backslashes included); only its
 * boundaries are decided here. Whitespace separates tokens unless it is
 * inside "double" or 'single' quotes or escaped with a backslash (the
 * kernel itself only knows double quotes, GRUB's script parser also knows
 * single quotes and backslashes, so a boundary either of them would not
 * split is not split here either).
 *
 * The key of a token is the text before its first '=' (a leading '"' is
 * skipped, as the kernel's next_arg() does): "iommu" for "iommu=pt",
 * "quiet" for "quiet". Keys compare with '-' and '_' alike, as the kernel
 * does. That grammar of one parameter is config/kernel-param.h's.
 *
 * Merge (halo_cmdline_merge):
 *  - a REMOVE entry "key" takes out every token with that key, an entry
 *    "key=value" only tokens equal to it;
 *  - the SET tokens are grouped by key (a key may repeat, console=tty0
 *    console=ttyS0); the group replaces the first current token with that
 *    key, in place, and later tokens with that key are dropped;
 *  - groups whose key is not present are appended at the end, in SET order;
 *  - every other token stays where it was.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "config/kernel-param.h"
#include "halo.h"

/* Splits S into tokens (NULL-terminated vector, free with halo_strv_free).
 * An unterminated quote runs to the end of S. 0 or -ENOMEM. */
int halo_cmdline_split(const char *s, char ***ret_tokens);

/* Tokens joined by single spaces (caller frees); NULL on ENOMEM. */
char *halo_cmdline_join(char *const *tokens);

/* True if removal spec SPEC ("key" or "key=value") matches TOK. */
bool halo_cmdline_remove_matches(const char *spec, const char *tok);

/* True if TOKENS holds exactly the SET tokens with key KEY, in order. */
bool halo_cmdline_has_group(char *const *tokens, char *const *set,
			    const char *key);

/* True if some token of TOKENS matches removal spec SPEC. */
bool halo_cmdline_has_removable(char *const *tokens, const char *spec);

/* True if TOKENS satisfies every SET group and no REMOVE spec matches. */
bool halo_cmdline_satisfies(char *const *tokens, char *const *set,
			    char *const *remove);

/* The merge above. CUR, SET, REMOVE may be NULL (empty). 0 or -ENOMEM. */
int halo_cmdline_merge(char *const *cur, char *const *set,
		       char *const *remove, char ***ret_tokens);

/* True if both vectors hold the same tokens in the same order. */
bool halo_cmdline_equal(char *const *a, char *const *b);

/*
 * COMMAND_LINE_SIZE of the architecture this is built for, the kernel's
 * buffer for the command line including its terminating NUL (Linux
 * arch/x86/include/asm/setup.h, arch/<arch>/include/uapi/asm/setup.h);
 * the boot loader's longer line is cut there. asm-generic's 512 for an
 * architecture not listed.
 */
#if defined(__x86_64__) || defined(__i386__)
#define HALO_CMDLINE_SIZE 2048
#define HALO_CMDLINE_ARCH "x86"
#elif defined(__aarch64__)
#define HALO_CMDLINE_SIZE 2048
#define HALO_CMDLINE_ARCH "arm64"
#elif defined(__arm__)
#define HALO_CMDLINE_SIZE 1024
#define HALO_CMDLINE_ARCH "arm"
#elif defined(__powerpc__) || defined(__powerpc64__)
#define HALO_CMDLINE_SIZE 2048
#define HALO_CMDLINE_ARCH "powerpc"
#elif defined(__riscv)
#define HALO_CMDLINE_SIZE 1024
#define HALO_CMDLINE_ARCH "riscv"
#elif defined(__s390__)
#define HALO_CMDLINE_SIZE 4096 /* CONFIG_COMMAND_LINE_SIZE's default */
#define HALO_CMDLINE_ARCH "s390"
#elif defined(__mips__)
#define HALO_CMDLINE_SIZE 4096
#define HALO_CMDLINE_ARCH "mips"
#elif defined(__loongarch__)
#define HALO_CMDLINE_SIZE 4096
#define HALO_CMDLINE_ARCH "loongarch"
#else
#define HALO_CMDLINE_SIZE 512
#define HALO_CMDLINE_ARCH "this architecture"
#endif

/* Bytes TOKENS take as one command line, single spaces between tokens
 * and the terminating NUL included (compare with HALO_CMDLINE_SIZE). */
size_t halo_cmdline_size(char *const *tokens);

/* True if TOK refers to a GRUB variable ($name, ${name}; not inside
 * single quotes or after a backslash): GRUB expands it when it boots,
 * so the text itself is no kernel parameter ($tuned_params, $kernelopts
 * in Fedora's BLS entries). */
bool halo_cmdline_has_grub_var(const char *tok);
