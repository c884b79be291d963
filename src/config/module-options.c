/* SPDX-License-Identifier: GPL-2.0-or-later */
/* module-options.c: a module's option string, split as the kernel splits
 * it (module-options.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "config/module-options.h"
#include "util/strv.h"

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* The word at *P, "name[=value]"; double quotes group and are removed, as
 * in next_arg (which only strips them around the value, the common case).
 * *P moves past the word. */
static int next_word(const char **p, int line, struct halo_module_param *o)
{
	const char *s = *p, *eq = NULL;
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
	o->line = line;
	o->text = strndup(s, n);
	o->name = strndup(s, eq ? (size_t)(eq - s) : n);
	if (!o->text || !o->name)
		return -ENOMEM;
	halo_name_normalize(o->name);
	if (!o->name[0] || strchr(o->name, '"'))
		return -EINVAL;
	if (eq) {
		o->value = strndup(eq + 1, (size_t)(s + n - eq - 1));
		if (!o->value)
			return -ENOMEM;
		for (char *v = o->value; *v; v++)
			if (*v == '"')
				memmove(v, v + 1, strlen(v)), v--;
	}
	*p = s + n;
	return 0;
}

int halo_module_params_parse(const char *s, int line, struct halo_module_param **ret,
			     size_t *ret_n)
{
	struct halo_module_param *v = NULL;
	size_t n = 0;
	int r = 0;

	for (const char *p = s; *p;) {
		struct halo_module_param *nv;

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
		v[n++] = (struct halo_module_param){ 0 };
		r = next_word(&p, line, &v[n - 1]);
		if (r < 0)
			break;
	}
	if (r < 0) {
		halo_module_params_free(v, n);
		return r;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

int halo_module_params_copy(const struct halo_module_param *v, size_t n,
			    struct halo_module_param **ret)
{
	struct halo_module_param *c = calloc(n + 1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		c[i].line = v[i].line;
		c[i].name = strdup(v[i].name);
		c[i].text = strdup(v[i].text);
		c[i].value = v[i].value ? strdup(v[i].value) : NULL;
		if (!c[i].name || !c[i].text || (v[i].value && !c[i].value)) {
			halo_module_params_free(c, n);
			return -ENOMEM;
		}
	}
	*ret = c;
	return 0;
}

void halo_module_params_free(struct halo_module_param *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].name);
		free(v[i].value);
		free(v[i].text);
	}
	free(v);
}
