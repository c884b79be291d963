/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-cmdline.c: the kernel command line tokenizer and merge
 * (src/boot/cmdline.h). Input: CURRENT \0 SET \0 REMOVE, each a command
 * line text (SET and REMOVE split with the same tokenizer, as the config's
 * extra/remove lists end up as tokens).
 *
 * Properties: a merge is idempotent, and its result satisfies SET and
 * REMOVE unless the two contradict each other (a SET token a REMOVE spec
 * matches); tokens are never empty, and joining then splitting them gives
 * the same tokens when none has an unterminated quote or a trailing
 * backslash (both swallow the joining space). The size of a command
 * line is its joined length plus the NUL. Every token, shown as a shell
 * word (shellquote.h), reads back as itself under POSIX single-quote rules.
 */
#include "config.h"

#include "boot/cmdline.h"
#include "boot/shellquote.h"
#include "fuzz/fuzz.h"
#include "util/strv.h"

static bool conflict(char *const *set, char *const *remove)
{
	for (size_t i = 0; set[i]; i++)
		for (size_t r = 0; remove[r]; r++)
			if (halo_cmdline_remove_matches(remove[r], set[i]))
				return true;
	return false;
}

/* Quotes of TOK all closed (the tokenizer's view: \ escapes outside
 * quotes and inside double quotes). */
static bool balanced(const char *t)
{
	char q = 0;

	for (; *t; t++) {
		if (q) {
			if (*t == q)
				q = 0;
			else if (*t == '\\' && q == '"' && t[1])
				t++;
		} else if (*t == '"' || *t == '\'') {
			q = *t;
		} else if (*t == '\\') {
			/* A trailing backslash escapes the joining space. */
			if (!t[1])
				return false;
			t++;
		}
	}
	return !q;
}

/* A word of halo_shell_quote read back: plain, or '...' where '\\'' is
 * an embedded quote. NULL if it is neither. */
static char *sh_unquote(const char *w)
{
	struct halo_buf b = { 0 };
	size_t n = strlen(w);

	if (w[0] != '\'')
		return strpbrk(w, " \t\n'\"\\$`;&|*?<>()[]{}~#!") || !n ? NULL : strdup(w);
	if (n < 2 || w[n - 1] != '\'')
		return NULL;
	halo_buf_puts(&b, "");
	for (size_t i = 1; i < n - 1; i++) {
		if (w[i] != '\'') {
			halo_buf_append(&b, w + i, 1);
			continue;
		}
		if (strncmp(w + i, "'\\''", 4) != 0 || i + 4 > n - 1) {
			halo_buf_free(&b);
			return NULL;
		}
		halo_buf_puts(&b, "'");
		i += 3;
	}
	return halo_buf_steal(&b);
}

static void check_tokens(char *const *tok)
{
	_cleanup_strv_free_ char **again = NULL;
	_cleanup_free_ char *joined = NULL;
	bool all_balanced = true;

	for (size_t i = 0; tok[i]; i++) {
		FUZZ_CHECK(tok[i][0] != '\0');
		all_balanced &= balanced(tok[i]);
	}
	joined = halo_cmdline_join(tok);
	FUZZ_CHECK(joined);
	FUZZ_CHECK(halo_cmdline_size(tok) == strlen(joined) + 1);
	for (size_t i = 0; tok[i]; i++) {
		_cleanup_free_ char *w = halo_shell_quote(tok[i], i == 0);
		_cleanup_free_ char *back = w ? sh_unquote(w) : NULL;

		FUZZ_CHECK(back && strcmp(back, tok[i]) == 0);
		(void)halo_cmdline_has_grub_var(tok[i]);
	}
	FUZZ_CHECK(halo_cmdline_split(joined, &again) == 0);
	if (all_balanced)
		FUZZ_CHECK(halo_cmdline_equal(tok, again));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *part[3];
	_cleanup_strv_free_ char **cur = NULL, **set = NULL, **remove = NULL;
	_cleanup_strv_free_ char **merged = NULL, **twice = NULL;

	fuzz_split(data, size, part, 3);
	if (halo_cmdline_split(part[0], &cur) < 0 ||
	    halo_cmdline_split(part[1] ? part[1] : "", &set) < 0 ||
	    halo_cmdline_split(part[2] ? part[2] : "", &remove) < 0)
		abort();
	fuzz_parts_free(part, 3);
	check_tokens(cur);

	FUZZ_CHECK(halo_cmdline_merge(cur, set, remove, &merged) == 0);
	FUZZ_CHECK(halo_cmdline_merge(merged, set, remove, &twice) == 0);
	if (!conflict(set, remove)) {
		FUZZ_CHECK(halo_cmdline_satisfies(merged, set, remove));
		FUZZ_CHECK(halo_cmdline_equal(merged, twice));
	}
	for (size_t i = 0; cur[i]; i++) {
		const char *k;
		size_t n = halo_kernel_param_key(cur[i], &k);
		_cleanup_free_ char *key = strndup(k, n);

		FUZZ_CHECK(key);
		FUZZ_CHECK(halo_kernel_param_has_key(cur[i], key));
		FUZZ_CHECK(halo_cmdline_has_removable(cur, key));
	}
	return 0;
}
