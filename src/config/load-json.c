/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * load-json.c: Ansible's config_data (a JSON object shaped like the config
 * file) → libconfig text, one setting or element a line, parsed by the
 * file's own loader in loose mode. So every range, keyword and cross-field
 * check and its message is the config file's; a table maps each generated
 * line to its JSON path, which messages show instead of a line number.
 * Members that are "" or null are left out: Ansible's "unset".
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "config/load.h"
#include "config/report.h"
#include "util/strv.h"

struct gen {
	struct halo_buf text;
	char **paths;   /* per line */
	size_t n_paths;
	struct halo_errors *errs;
	const char *name;
	bool bad, oom;
};

static bool is_unset(struct json_object *v)
{
	return !v || (json_object_is_type(v, json_type_string) &&
		      json_object_get_string_len(v) == 0);
}

/* Starts a new line that belongs to PATH. */
static void line(struct gen *g, const char *path)
{
	char *p = strdup(path), **np;

	np = p ? realloc(g->paths, (g->n_paths + 1) * sizeof(*np)) : NULL;
	if (!np) {
		free(p);
		g->oom = true;
		return;
	}
	g->paths = np;
	g->paths[g->n_paths++] = p;
}

static void newline(struct gen *g) { halo_buf_puts(&g->text, "\n"); }

/* A libconfig setting name: what its scanner takes. */
static bool valid_name(const char *s)
{
	if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '*'))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' || *s == '*'))
			return false;
	return true;
}

static void put_string(struct gen *g, const char *path, struct json_object *v)
{
	const char *s = json_object_get_string(v);
	size_t len = (size_t)json_object_get_string_len(v);

	if (strlen(s) != len) {
		halo_errors_add(g->errs, "%s: %s: NUL byte in the string", g->name, path);
		g->bad = true;
		return;
	}
	halo_buf_puts(&g->text, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			halo_buf_printf(&g->text, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			halo_buf_printf(&g->text, "\\x%02x", c);
		else
			halo_buf_append(&g->text, s, 1);
	}
	halo_buf_puts(&g->text, "\"");
}

static void put_value(struct gen *g, const char *path, struct json_object *v);

static void put_members(struct gen *g, const char *path, struct json_object *o)
{
	json_object_object_foreach(o, key, v) {
		_cleanup_free_ char *p = halo_strdup_printf("%s%s%s", path, path[0] ? "." : "", key);

		if (!p) {
			g->oom = true;
			return;
		}
		if (is_unset(v))
			continue;
		if (!valid_name(key)) {
			char q[96];

			halo_errors_add(g->errs, "%s: %s: %s is not a valid key name", g->name,
					path[0] ? path : "(top)", halo_pquote(key, q, sizeof(q)));
			g->bad = true;
			continue;
		}
		line(g, p);
		halo_buf_printf(&g->text, "%s = ", key);
		put_value(g, p, v);
		halo_buf_puts(&g->text, ";");
		newline(g);
	}
}

static void put_value(struct gen *g, const char *path, struct json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_object:
		halo_buf_puts(&g->text, "{");
		newline(g);
		put_members(g, path, v);
		line(g, path);
		halo_buf_puts(&g->text, "}");
		break;
	case json_type_array:
		halo_buf_puts(&g->text, "(");
		newline(g);
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			_cleanup_free_ char *p = halo_strdup_printf("%s[%zu]", path, i);

			if (!p) {
				g->oom = true;
				return;
			}
			line(g, p);
			put_value(g, p, json_object_array_get_idx(v, i));
			halo_buf_puts(&g->text, i + 1 < json_object_array_length(v) ? "," : "");
			newline(g);
		}
		line(g, path);
		halo_buf_puts(&g->text, ")");
		break;
	case json_type_string:
		put_string(g, path, v);
		break;
	case json_type_int:
		/* json-c keeps a number above INT64_MAX as unsigned. */
		if (json_object_get_int64(v) == INT64_MAX && json_object_get_uint64(v) > INT64_MAX) {
			halo_errors_add(g->errs, "%s: %s: the integer does not fit in 64 bits",
					g->name, path);
			g->bad = true;
			halo_buf_puts(&g->text, "0");
			break;
		}
		/* Always 64-bit: a JSON number never wraps. */
		halo_buf_printf(&g->text, "%" PRId64 "L", json_object_get_int64(v));
		break;
	case json_type_double: {
		char num[64];

		snprintf(num, sizeof(num), "%.17g", json_object_get_double(v));
		halo_buf_printf(&g->text, "%s%s", num, strpbrk(num, ".eEni") ? "" : ".0");
		break;
	}
	case json_type_boolean:
		halo_buf_puts(&g->text, json_object_get_boolean(v) ? "true" : "false");
		break;
	default: /* null inside a list: there is no "unset" element */
		halo_errors_add(g->errs, "%s: %s: null is not a value (leave the element out)",
				g->name, path);
		g->bad = true;
		halo_buf_puts(&g->text, "0");
		break;
	}
}

int halo_config_load_json(const char *name, const void *data,
			  struct halo_config **ret, struct halo_errors *errs)
{
	struct json_object *o = (struct json_object *)data;
	struct gen g = { .errs = errs, .name = name };
	_cleanup_free_ char *text = NULL;
	size_t len;
	int r;

	if (!json_object_is_type(o, json_type_object)) {
		halo_errors_add(errs, "%s: expected an object (a mapping of the config file's sections)",
				name);
		return -EINVAL;
	}
	put_members(&g, "", o);
	len = g.text.len;
	text = halo_buf_steal(&g.text);
	if (g.oom || !text)
		r = -ENOMEM;
	else if (g.bad)
		r = -EINVAL;
	else
		r = halo_config_load_text(name, text, len, true, &g.paths, g.n_paths, ret, errs);
	/* The table moved into the config unless the load failed. */
	for (size_t i = 0; g.paths && i < g.n_paths; i++)
		free(g.paths[i]);
	free(g.paths);
	return r;
}
