/* SPDX-License-Identifier: GPL-2.0-or-later */
/* template.c: @NAME@ substitution over the embedded templates. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "util/strv.h"
#include "util/template.h"

static const char *template_text(const char *name)
{
	for (const struct halo_template *t = halo_templates; t->name; t++)
		if (strcmp(t->name, name) == 0)
			return t->text;
	return NULL;
}

static const char *var_value(const char *const *vars, const char *name, size_t len)
{
	for (size_t i = 0; vars && vars[i] && vars[i + 1]; i += 2)
		if (strlen(vars[i]) == len && strncmp(vars[i], name, len) == 0)
			return vars[i + 1];
	return NULL;
}

int halo_template_render(const char *name, const char *const *vars, char **ret)
{
	const char *p = template_text(name);
	struct halo_buf b = { 0 };
	char *out;

	if (!p)
		return -ENOENT;
	while (*p) {
		const char *at = strchr(p, '@'), *end, *value;

		if (!at) {
			halo_buf_puts(&b, p);
			break;
		}
		halo_buf_append(&b, p, (size_t)(at - p));
		if (at[1] == '@') {
			halo_buf_puts(&b, "@");
			p = at + 2;
			continue;
		}
		end = strchr(at + 1, '@');
		value = end ? var_value(vars, at + 1, (size_t)(end - at - 1)) : NULL;
		if (!value) {
			halo_buf_free(&b);
			return -EINVAL;
		}
		halo_buf_puts(&b, value);
		p = end + 1;
	}
	out = halo_buf_steal(&b);
	if (!out)
		return -ENOMEM;
	*ret = out;
	return 0;
}
