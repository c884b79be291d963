/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmdline.c: kernel command line tokenizer and merge (see cmdline.h). */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "boot/cmdline.h"
#include "util/strv.h"

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

int halo_cmdline_split(const char *s, char ***ret_tokens)
{
	_cleanup_strv_free_ char **v = NULL;
	_cleanup_free_ char *tok = NULL;
	size_t len = strlen(s);

	tok = malloc(len + 1);
	if (!tok)
		return -ENOMEM;
	/* An empty vector, not NULL, so callers can tell "no tokens". */
	v = calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;

	for (size_t i = 0; i < len;) {
		size_t n = 0;
		char quote = 0;

		while (i < len && is_space(s[i]))
			i++;
		if (i >= len)
			break;
		while (i < len && (quote || !is_space(s[i]))) {
			char c = s[i++];

			tok[n++] = c;
			if (quote) {
				if (c == quote)
					quote = 0;
				else if (c == '\\' && quote == '"' && i < len)
					tok[n++] = s[i++];
			} else if (c == '"' || c == '\'') {
				quote = c;
			} else if (c == '\\' && i < len) {
				tok[n++] = s[i++];
			}
		}
		tok[n] = '\0';
		if (halo_strv_push(&v, tok) < 0)
			return -ENOMEM;
	}
	*ret_tokens = TAKE_PTR(v);
	return 0;
}

char *halo_cmdline_join(char *const *tokens)
{
	struct halo_buf b = { 0 };

	halo_buf_puts(&b, "");
	for (size_t i = 0; tokens && tokens[i]; i++) {
		if (i)
			halo_buf_puts(&b, " ");
		halo_buf_puts(&b, tokens[i]);
	}
	return halo_buf_steal(&b);
}

bool halo_cmdline_remove_matches(const char *spec, const char *tok)
{
	if (strchr(spec, '='))
		return strcmp(spec, tok) == 0;
	return halo_kernel_param_has_key(tok, spec);
}

static char *key_dup(const char *tok)
{
	const char *k;
	size_t n = halo_kernel_param_key(tok, &k);

	return strndup(k, n);
}

bool halo_cmdline_has_group(char *const *tokens, char *const *set,
			    const char *key)
{
	size_t j = 0;

	for (size_t i = 0; tokens && tokens[i]; i++) {
		if (!halo_kernel_param_has_key(tokens[i], key))
			continue;
		/* The next SET token with this key must be this one. */
		while (set[j] && !halo_kernel_param_has_key(set[j], key))
			j++;
		if (!set[j] || strcmp(set[j], tokens[i]) != 0)
			return false;
		j++;
	}
	while (set[j] && !halo_kernel_param_has_key(set[j], key))
		j++;
	return set[j] == NULL;
}

bool halo_cmdline_has_removable(char *const *tokens, const char *spec)
{
	for (size_t i = 0; tokens && tokens[i]; i++)
		if (halo_cmdline_remove_matches(spec, tokens[i]))
			return true;
	return false;
}

bool halo_cmdline_satisfies(char *const *tokens, char *const *set,
			    char *const *remove)
{
	for (size_t i = 0; set && set[i]; i++) {
		_cleanup_free_ char *key = key_dup(set[i]);

		if (!key || !halo_cmdline_has_group(tokens, set, key))
			return false;
	}
	for (size_t i = 0; remove && remove[i]; i++)
		if (halo_cmdline_has_removable(tokens, remove[i]))
			return false;
	return true;
}

static bool key_in(char *const *v, const char *tok)
{
	const char *k;
	size_t n = halo_kernel_param_key(tok, &k);

	for (size_t i = 0; v && v[i]; i++) {
		const char *k2;
		size_t n2 = halo_kernel_param_key(v[i], &k2);

		if (n == n2 && halo_name_eq(k, k2, n))
			return true;
	}
	return false;
}

/* Pushes every SET token with the key of TOK. */
static int push_group(char ***out, char *const *set, const char *tok)
{
	_cleanup_free_ char *key = key_dup(tok);

	if (!key)
		return -ENOMEM;
	for (size_t i = 0; set[i]; i++)
		if (halo_kernel_param_has_key(set[i], key) &&
		    halo_strv_push(out, set[i]) < 0)
			return -ENOMEM;
	return 0;
}

int halo_cmdline_merge(char *const *cur, char *const *set,
		       char *const *remove, char ***ret_tokens)
{
	static char *const empty[] = { NULL };
	_cleanup_strv_free_ char **out = calloc(1, sizeof(char *));
	_cleanup_strv_free_ char **placed = calloc(1, sizeof(char *));

	if (!out || !placed)
		return -ENOMEM;
	if (!set)
		set = empty;

	for (size_t i = 0; cur && cur[i]; i++) {
		bool drop = false;

		for (size_t r = 0; remove && remove[r] && !drop; r++)
			drop = halo_cmdline_remove_matches(remove[r], cur[i]);
		if (drop)
			continue;
		if (!key_in(set, cur[i])) {
			if (halo_strv_push(&out, cur[i]) < 0)
				return -ENOMEM;
			continue;
		}
		/* First token with a managed key: the group goes here. */
		if (key_in(placed, cur[i]))
			continue;
		if (push_group(&out, set, cur[i]) < 0 ||
		    halo_strv_push(&placed, cur[i]) < 0)
			return -ENOMEM;
	}
	for (size_t i = 0; set[i]; i++) {
		if (key_in(placed, set[i]))
			continue;
		if (push_group(&out, set, set[i]) < 0 ||
		    halo_strv_push(&placed, set[i]) < 0)
			return -ENOMEM;
	}
	*ret_tokens = TAKE_PTR(out);
	return 0;
}

bool halo_cmdline_equal(char *const *a, char *const *b)
{
	size_t i = 0;

	for (; a && a[i] && b && b[i]; i++)
		if (strcmp(a[i], b[i]) != 0)
			return false;
	return (!a || !a[i]) && (!b || !b[i]);
}

size_t halo_cmdline_size(char *const *tokens)
{
	size_t n = 1; /* the terminating NUL */

	for (size_t i = 0; tokens && tokens[i]; i++)
		n += strlen(tokens[i]) + (i ? 1 : 0);
	return n;
}

static bool is_var_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '{';
}

bool halo_cmdline_has_grub_var(const char *tok)
{
	char quote = 0;

	/* GRUB's script rules: no expansion inside single quotes or after
	 * a backslash, expansion inside double quotes. */
	for (const char *c = tok; *c; c++) {
		if (quote == '\'') {
			if (*c == '\'')
				quote = 0;
		} else if (*c == '\\' && c[1]) {
			c++;
		} else if (*c == '\'' && !quote) {
			quote = '\'';
		} else if (*c == '"') {
			quote = quote ? 0 : '"';
		} else if (*c == '$' && is_var_start(c[1])) {
			return true;
		}
	}
	return false;
}
