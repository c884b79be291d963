/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options.c: module option strings, split and compared the way the kernel
 * sees them (kernel/params.c: next_arg, parameq, param_set_bool, ...).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "modules/internal.h"
#include "util/strv.h"

char *halo_modname_dup(const char *s)
{
	char *d = strdup(s);

	if (d)
		halo_name_normalize(d);
	return d;
}

void halo_modopts_free(struct halo_modopt *o, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(o[i].key);
		free(o[i].value);
	}
	free(o);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* One "key[=value]" word; double quotes group and are removed, as in
 * next_arg (which only strips them around the value, a common case). */
static int next_word(const char **p, struct halo_modopt *o)
{
	const char *s = *p, *eq = NULL;
	char *val, *v;
	bool quoted = false;
	size_t n = 0;

	while (s[n] && (quoted || !is_space(s[n]))) {
		if (s[n] == '"')
			quoted = !quoted;
		else if (s[n] == '=' && !eq && !quoted)
			eq = s + n;
		n++;
	}
	if (quoted)
		return -EINVAL;
	o->key = strndup(s, eq ? (size_t)(eq - s) : n);
	if (!o->key)
		return -ENOMEM;
	halo_name_normalize(o->key);
	if (!o->key[0] || strchr(o->key, '"'))
		return -EINVAL;
	if (eq) {
		val = strndup(eq + 1, s + n - eq - 1);
		if (!val)
			return -ENOMEM;
		for (v = val; *v; v++)
			if (*v == '"')
				memmove(v, v + 1, strlen(v)), v--;
		o->value = val;
	}
	*p = s + n;
	return 0;
}

int halo_modopts_parse(const char *s, struct halo_modopt **ret, size_t *ret_n)
{
	struct halo_modopt *v = NULL;
	size_t n = 0;
	int r = 0;

	for (const char *p = s ? s : ""; *p;) {
		struct halo_modopt *nv;

		while (is_space(*p))
			p++;
		if (!*p)
			break;
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv) {
			r = -ENOMEM;
			break;
		}
		v = nv;
		v[n].key = v[n].value = NULL;
		n++;
		r = next_word(&p, &v[n - 1]);
		if (r < 0)
			break;
	}
	if (r < 0) {
		halo_modopts_free(v, n);
		return r;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

/* kstrtobool's reading, which param_set_bool uses. 1/0 true/false, -1. */
static int parse_bool(const char *s)
{
	if (!s)
		return 1; /* a bare flag sets a bool */
	switch (s[0]) {
	case 'y': case 'Y': case '1': case 't': case 'T': case 'e': case 'E':
		return 1;
	case 'n': case 'N': case '0': case 'f': case 'F': case 'd': case 'D':
		return 0;
	case 'o': case 'O':
		if (s[1] == 'n' || s[1] == 'N')
			return 1;
		if (s[1] == 'f' || s[1] == 'F')
			return 0;
		break;
	}
	return -1;
}

static bool is_int_type(const char *t)
{
	static const char *const types[] = { "byte", "short", "ushort", "int",
					     "uint", "long", "ulong", "ullong",
					     "hexint", NULL };

	for (size_t i = 0; types[i]; i++)
		if (strcmp(t, types[i]) == 0)
			return true;
	return false;
}

bool halo_modopt_matches(const char *type, const char *wanted, const char *live)
{
	if (!live)
		return false;
	if (type && (strcmp(type, "bool") == 0 || strcmp(type, "invbool") == 0)) {
		int w = parse_bool(wanted), l = parse_bool(live);

		return w >= 0 && w == l;
	}
	if (!wanted)
		return false;
	if (type && is_int_type(type)) {
		char *e1, *e2;
		long long a = strtoll(wanted, &e1, 0), b = strtoll(live, &e2, 0);

		/* ulong values above LLONG_MAX: compare unsigned. */
		if (wanted[0] != '-' && live[0] != '-') {
			unsigned long long ua = strtoull(wanted, &e1, 0);
			unsigned long long ub = strtoull(live, &e2, 0);

			return !*e1 && !*e2 && e1 != wanted && ua == ub;
		}
		return !*e1 && !*e2 && e1 != wanted && a == b;
	}
	return strcmp(wanted, live) == 0;
}
