/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nicsim-json.c: the values of a state file as nicsim-state.c reads them.
 *
 * The state file is read before requests, in every simulated process, and
 * json-c's tokener spent more than the program under test on it (an
 * allocation per value, a hash table per object). The reader here takes
 * only the plain JSON the simulator writes itself, in any layout: objects,
 * arrays, strings of printable ASCII without escapes, integers 0 to 18
 * digits without a sign or leading zero, true, false and null, space, tab,
 * CR and LF between them, no member named twice. Anything else (an edit
 * with an escape, a float, a duplicate, trailing text, a truncated file)
 * makes it give up, and json-c parses the text as before: within that
 * subset json-c reads the same values, so the two never disagree
 * (tests/nicsim/nicsim-json-test.c checks it on written, edited and
 * mangled files).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "nicsim.h"

#define MAX_DEPTH 16   /* json-c's own limit is 32 */
#define MAX_DIGITS 18  /* below INT64_MAX: no overflow to reproduce */
#define MAX_NODES 4096 /* a bigger file goes to json-c */

struct reader {
	const char *p, *end;
	struct nicsim_json *nodes;
	size_t n, cap;
	unsigned depth;
};

static struct nicsim_json *node_new(struct reader *r, enum json_type type)
{
	struct nicsim_json *v;

	if (r->n == r->cap)
		return NULL;
	v = &r->nodes[r->n++];
	memset(v, 0, sizeof(*v));
	v->type = type;
	return v;
}

static void skip_ws(struct reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\t' || *r->p == '\r'))
		r->p++;
}

/* A string's text, its quotes excluded; the closing quote is where the
 * NUL goes once the whole file has been taken. */
static bool string_at(struct reader *r, const char **ret_s, size_t *ret_len)
{
	const char *s = ++r->p;

	while (r->p < r->end && *r->p != '"') {
		unsigned char c = (unsigned char)*r->p;

		if (c < 0x20 || c > 0x7e || c == '\\')
			return false;
		r->p++;
	}
	if (r->p == r->end)
		return false;
	*ret_s = s;
	*ret_len = (size_t)(r->p++ - s);
	return true;
}

static bool literal(struct reader *r, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
		return false;
	r->p += n;
	return true;
}

static struct nicsim_json *value(struct reader *r);

/* The members (or elements) of V up to CLOSE. */
static bool children(struct reader *r, struct nicsim_json *v, char close)
{
	struct nicsim_json **tail = &v->child;

	r->p++;
	skip_ws(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return true;
	}
	for (;;) {
		const char *key = NULL;
		size_t key_len = 0;
		struct nicsim_json *c;

		if (close == '}') {
			if (r->p == r->end || *r->p != '"' || !string_at(r, &key, &key_len))
				return false;
			for (c = v->child; c; c = c->next)
				if (c->key_len == key_len && memcmp(c->key, key, key_len) == 0)
					return false; /* json-c's choice not reproduced */
			skip_ws(r);
			if (r->p == r->end || *r->p++ != ':')
				return false;
			skip_ws(r);
		}
		c = value(r);
		if (!c)
			return false;
		c->key = key;
		c->key_len = key_len;
		*tail = c;
		tail = &c->next;
		v->n++;
		skip_ws(r);
		if (r->p == r->end)
			return false;
		if (*r->p == close) {
			r->p++;
			return true;
		}
		if (*r->p++ != ',')
			return false;
		skip_ws(r);
	}
}

static struct nicsim_json *value(struct reader *r)
{
	struct nicsim_json *v;
	char c;

	if (r->p == r->end)
		return NULL;
	c = *r->p;
	if (c == '{' || c == '[') {
		if (++r->depth > MAX_DEPTH)
			return NULL;
		v = node_new(r, c == '{' ? json_type_object : json_type_array);
		if (!v || !children(r, v, c == '{' ? '}' : ']'))
			return NULL;
		r->depth--;
		return v;
	}
	if (c == '"') {
		v = node_new(r, json_type_string);
		if (!v || !string_at(r, &v->s, &v->s_len))
			return NULL;
		v->b = v->s_len != 0;
		return v;
	}
	if (c >= '0' && c <= '9') {
		int64_t n = 0;
		unsigned digits = 0;

		while (r->p < r->end && *r->p >= '0' && *r->p <= '9' && digits++ < MAX_DIGITS)
			n = n * 10 + (*r->p++ - '0');
		/* What follows must end the value: "01", "1.5", "1e3", a
		 * 19th digit are the container's error, then json-c's. */
		if (c == '0' && digits > 1)
			return NULL;
		v = node_new(r, json_type_int);
		if (!v)
			return NULL;
		v->i64 = n;
		v->i32 = n > INT32_MAX ? INT32_MAX : (int32_t)n;
		v->b = n != 0;
		return v;
	}
	if (literal(r, "true") || literal(r, "false")) {
		bool b = r->p[-1] == 'e' && r->p[-2] == 'u'; /* "true" */

		v = node_new(r, json_type_boolean);
		if (v) {
			v->b = b;
			v->i32 = v->i64 = b;
		}
		return v;
	}
	if (literal(r, "null"))
		return node_new(r, json_type_null);
	return NULL;
}

/* Strings and keys made C strings: each closing quote, in the reader's
 * copy of the text, becomes a NUL. */
static void terminate_strings(struct nicsim_json *nodes, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (nodes[i].key)
			((char *)nodes[i].key)[nodes[i].key_len] = '\0';
		if (nodes[i].type == json_type_string)
			((char *)nodes[i].s)[nodes[i].s_len] = '\0';
	}
}

/* At most as many values as TEXT can hold: the root, and per container
 * one element more than its commas (a comma or bracket inside a string
 * only counts one too many). Sized so, the nodes of a state file take a
 * few KB where a bound from its length alone took tens of pages. */
static size_t max_values(const char *text, size_t len)
{
	const char *end = text + len;
	size_t n = 1;

	/* memchr per character: a byte-by-byte test cost 13 instructions
	 * a byte, more than the parse. */
	for (const char *c = ",{["; *c; c++)
		for (const char *p = text; (p = memchr(p, *c, (size_t)(end - p))); p++)
			n++;
	return n;
}

struct nicsim_json *nicsim_json_read(struct nicsim_json_doc *doc, const char *text, size_t len)
{
	struct reader r;
	struct nicsim_json *root;
	char *copy;

	memset(doc, 0, sizeof(*doc));
	memset(&r, 0, sizeof(r));
	/* Every value takes a byte and all but the last a separator: the
	 * files left to json-c by their size stay the same. */
	if (len / 2 + 2 > MAX_NODES)
		return NULL;
	r.cap = max_values(text, len);
	/* The nodes, then the copy of the text their strings point into
	 * (the caller's stays as it was, for json-c). */
	r.nodes = malloc(r.cap * sizeof(*r.nodes) + len + 1);
	if (!r.nodes)
		return NULL;
	copy = (char *)(r.nodes + r.cap);
	memcpy(copy, text, len);
	copy[len] = '\0';
	r.p = copy;
	r.end = copy + len;
	skip_ws(&r);
	root = r.p < r.end && *r.p == '{' ? value(&r) : NULL;
	skip_ws(&r);
	if (!root || r.p != r.end) {
		free(r.nodes);
		return NULL;
	}
	terminate_strings(r.nodes, r.n);
	doc->nodes = r.nodes;
	return root;
}

static size_t count_jsonc(json_object *o)
{
	size_t n = 1;

	if (json_object_is_type(o, json_type_array))
		for (size_t i = 0; i < json_object_array_length(o); i++)
			n += count_jsonc(json_object_array_get_idx(o, i));
	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, key, val) {
			(void)key;
			n += count_jsonc(val);
		}
	}
	return n;
}

/* Each value with what json-c's getters answer for it, so that the
 * caller's reading is the same whichever reader made the tree. */
static struct nicsim_json *copy_jsonc(struct nicsim_json_doc *doc, json_object *o)
{
	struct nicsim_json *v = &doc->nodes[doc->n++], **tail = &v->child;

	memset(v, 0, sizeof(*v));
	v->type = json_object_get_type(o);
	v->b = json_object_get_boolean(o);
	v->i32 = json_object_get_int(o);
	v->i64 = json_object_get_int64(o);
	if (v->type == json_type_string) {
		v->s = json_object_get_string(o);
		v->s_len = strlen(v->s);
	}
	if (v->type == json_type_array) {
		for (size_t i = 0; i < json_object_array_length(o); i++) {
			*tail = copy_jsonc(doc, json_object_array_get_idx(o, i));
			tail = &(*tail)->next;
			v->n++;
		}
	}
	if (v->type == json_type_object) {
		json_object_object_foreach(o, key, val) {
			*tail = copy_jsonc(doc, val);
			(*tail)->key = key;
			(*tail)->key_len = strlen(key);
			tail = &(*tail)->next;
			v->n++;
		}
	}
	return v;
}

struct nicsim_json *nicsim_json_from_jsonc(struct nicsim_json_doc *doc, json_object *o)
{
	memset(doc, 0, sizeof(*doc));
	doc->nodes = malloc(count_jsonc(o) * sizeof(*doc->nodes));
	return doc->nodes ? copy_jsonc(doc, o) : NULL;
}

void nicsim_json_free(struct nicsim_json_doc *doc)
{
	free(doc->nodes);
	doc->nodes = NULL;
}

bool nicsim_json_get(const struct nicsim_json *o, const char *key,
		     const struct nicsim_json **ret)
{
	size_t len = strlen(key);

	*ret = NULL;
	if (!o || o->type != json_type_object)
		return false;
	for (const struct nicsim_json *c = o->child; c; c = c->next)
		if (c->key_len == len && memcmp(c->key, key, len) == 0) {
			*ret = c;
			return true;
		}
	return false;
}

const struct nicsim_json *nicsim_json_idx(const struct nicsim_json *a, size_t i)
{
	const struct nicsim_json *c = a && a->type == json_type_array ? a->child : NULL;

	while (c && i--)
		c = c->next;
	return c;
}
