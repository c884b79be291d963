/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kernel-param.c: one kernel command line parameter (kernel-param.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config/kernel-param.h"
#include "util/strv.h"

size_t halo_kernel_param_key(const char *tok, const char **ret_key)
{
	const char *k = tok[0] == '"' ? tok + 1 : tok;
	const char *eq = strchr(k, '=');
	size_t n = eq ? (size_t)(eq - k) : strlen(k);

	/* "quiet" written as "\"quiet\"": the closing quote is not key. */
	if (!eq && k != tok && n > 0 && k[n - 1] == '"')
		n--;
	*ret_key = k;
	return n;
}

/* name_eq()'s character: '-' and '_' are the same. */
static char name_char(char c)
{
	return c == '-' ? '_' : c;
}

bool halo_kernel_param_has_key(const char *tok, const char *key)
{
	/* halo_kernel_param_key and halo_name_eq in one walk: the boot
	 * items ask this of every token of every level. */
	const char *k = tok[0] == '"' ? tok + 1 : tok;
	size_t i = 0;

	/* The characters compared first: most tokens differ from the key at
	 * once. K's NUL stops it too, as no character of a key maps to NUL. */
	while (key[i] && name_char(k[i]) == name_char(key[i]) && k[i] != '=')
		i++;
	if (key[i])
		return false;
	if (k[i] == '=')
		return true;
	/* No '=': a quoted token's closing quote is not key. */
	if (k[i] == '\0')
		return k == tok || i == 0 || k[i - 1] != '"';
	return k != tok && k[i] == '"' && k[i + 1] == '\0';
}

static bool is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static const char *check(const char *s)
{
	const char *eq = strchr(s, '=');
	size_t klen = eq ? (size_t)(eq - s) : strlen(s);

	if (!*s)
		return "is not a kernel parameter (empty)";
	for (const char *c = s; *c; c++) {
		if (*c == ' ' || *c == '\t' || (unsigned char)*c < 0x20 || *c == 0x7f)
			return "is not a single kernel parameter (whitespace or control character)";
		if (*c == '"' || *c == '\'')
			return "is not a single kernel parameter (no quotes)";
	}
	if (klen == 0)
		return "is not a kernel parameter (no name before '=')";
	for (size_t i = 0; i < klen; i++)
		if (!is_alnum(s[i]) && s[i] != '_' && s[i] != '-' && s[i] != '.')
			return "is not a kernel parameter (the name takes letters, digits, '_', '-' and '.')";
	return NULL;
}

int halo_kernel_param_parse(const char *text, int line, struct halo_kernel_param *ret,
			    const char **ret_why)
{
	struct halo_kernel_param p = { .line = line };
	const char *k;
	size_t n;

	*ret_why = check(text);
	if (*ret_why)
		return -EINVAL;
	n = halo_kernel_param_key(text, &k);
	p.key = strndup(k, n);
	p.text = strdup(text);
	p.value = k[n] == '=' ? strdup(k + n + 1) : NULL;
	if (!p.key || !p.text || (k[n] == '=' && !p.value)) {
		halo_kernel_param_clear(&p);
		return -ENOMEM;
	}
	halo_name_normalize(p.key);
	*ret = p;
	return 0;
}

void halo_kernel_param_clear(struct halo_kernel_param *p)
{
	free(p->key);
	free(p->value);
	free(p->text);
	p->key = p->value = p->text = NULL;
}

void halo_kernel_params_free(struct halo_kernel_params *l)
{
	for (size_t i = 0; i < l->n; i++)
		halo_kernel_param_clear(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}
