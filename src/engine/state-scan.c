/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state-scan.c: the ownership records of a state file (state-scan.h), in
 * one pass over the text. Every run that plans reads them; parsing the
 * whole 12 KB document with json-c and freeing it cost a fifth of a
 * reference --check. This reader takes only plain JSON, strictly, and
 * leaves everything else (json-c's own leniencies included) to the
 * parser, so the two can never disagree on what a file holds.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/state-scan.h"
#include "util/strv.h"

/* Internal verdicts: go on, or leave the text to the parser. */
enum { SCAN_OK = 0, SCAN_OTHER = 1 };

/* json-c refuses nesting past 32 levels; well short of it, the parser
 * decides. */
#define DEPTH_MAX 24
/* A version with more digits is past int: the parser decides. */
#define VERSION_DIGITS_MAX 9

struct scan {
	const char *p, *end;
	int depth;
	struct halo_buf str; /* the last string read, decoded */
};

/* One item's members, as read. */
struct item_scan {
	char *key, *memo;
	bool seen_key, seen_memo, seen_owned, owned_array;
	char **owned;
	size_t n_owned;
};

static void ws(struct scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\t' || *s->p == '\r'))
		s->p++;
}

static bool eat(struct scan *s, char c)
{
	if (s->p < s->end && *s->p == c) {
		s->p++;
		return true;
	}
	return false;
}

static bool at(const struct scan *s, char c)
{
	return s->p < s->end && *s->p == c;
}

/* A string at s->p, decoded into s->str when KEEP. The escapes json-c
 * writes and reads alike; \u and raw control bytes go to the parser. */
static int scan_string(struct scan *s, bool keep)
{
	s->str.len = 0;
	if (keep)
		halo_buf_append(&s->str, "", 0);
	if (!eat(s, '"'))
		return SCAN_OTHER;
	while (s->p < s->end) {
		const char *run = s->p;
		char c;

		while (s->p < s->end && *s->p != '"' && *s->p != '\\' &&
		       (unsigned char)*s->p >= 0x20)
			s->p++;
		if (keep)
			halo_buf_append(&s->str, run, (size_t)(s->p - run));
		if (s->p >= s->end || (unsigned char)*s->p < 0x20)
			break;
		if (*s->p++ == '"')
			return s->str.oom ? -ENOMEM : SCAN_OK;
		if (s->p >= s->end)
			break;
		switch (*s->p++) {
		case '"': c = '"'; break;
		case '\\': c = '\\'; break;
		case '/': c = '/'; break;
		case 'b': c = '\b'; break;
		case 'f': c = '\f'; break;
		case 'n': c = '\n'; break;
		case 'r': c = '\r'; break;
		case 't': c = '\t'; break;
		default: return SCAN_OTHER;
		}
		if (keep)
			halo_buf_append(&s->str, &c, 1);
	}
	return SCAN_OTHER;
}

/* Whether the name just read (s->str) is WORD. */
static bool name_is(const struct scan *s, const char *word)
{
	size_t n = strlen(word);

	return s->str.len == n && memcmp(s->str.data, word, n) == 0;
}

static bool digit(const struct scan *s)
{
	return s->p < s->end && *s->p >= '0' && *s->p <= '9';
}

/* A number in RFC 8259's grammar; *RET_INT its value when it is a short
 * integer (else *IS_INT false). */
static int scan_number(struct scan *s, long *ret_int, bool *is_int)
{
	const char *start = s->p;

	*is_int = true;
	eat(s, '-');
	if (eat(s, '0')) {
		/* a leading zero stands alone */
	} else if (digit(s)) {
		while (digit(s))
			s->p++;
	} else {
		return SCAN_OTHER;
	}
	if (eat(s, '.')) {
		*is_int = false;
		if (!digit(s))
			return SCAN_OTHER;
		while (digit(s))
			s->p++;
	}
	if (eat(s, 'e') || eat(s, 'E')) {
		*is_int = false;
		if (!eat(s, '+'))
			eat(s, '-');
		if (!digit(s))
			return SCAN_OTHER;
		while (digit(s))
			s->p++;
	}
	if (*is_int && s->p - start > VERSION_DIGITS_MAX)
		*is_int = false;
	if (*is_int)
		*ret_int = strtol(start, NULL, 10);
	return SCAN_OK;
}

static bool literal(struct scan *s, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
		return false;
	s->p += n;
	return true;
}

static int scan_value(struct scan *s);

/* The elements of an array or the members of an object (at s->p, after
 * its opening bracket), each read by ONE, which the caller's STATE holds
 * what it learns in. */
static int scan_list(struct scan *s, char close, int (*one)(struct scan *s, void *state),
		     void *state)
{
	int r;

	if (++s->depth > DEPTH_MAX)
		return SCAN_OTHER;
	ws(s);
	if (eat(s, close)) {
		s->depth--;
		return SCAN_OK;
	}
	for (;;) {
		r = one(s, state);
		if (r != SCAN_OK)
			return r;
		ws(s);
		if (eat(s, close))
			break;
		if (!eat(s, ','))
			return SCAN_OTHER;
		ws(s);
	}
	s->depth--;
	return SCAN_OK;
}

static int skip_element(struct scan *s, void *state)
{
	(void)state;
	return scan_value(s);
}

/* A member's name, then its ':' (s->str holds the name). */
static int scan_name(struct scan *s)
{
	int r = scan_string(s, true);

	if (r != SCAN_OK)
		return r;
	ws(s);
	if (!eat(s, ':'))
		return SCAN_OTHER;
	ws(s);
	return SCAN_OK;
}

static int skip_member(struct scan *s, void *state)
{
	int r = scan_name(s);

	(void)state;
	return r != SCAN_OK ? r : scan_value(s);
}

/* Any value, read past. */
static int scan_value(struct scan *s)
{
	long n;
	bool is_int;

	if (eat(s, '{'))
		return scan_list(s, '}', skip_member, NULL);
	if (eat(s, '['))
		return scan_list(s, ']', skip_element, NULL);
	if (at(s, '"'))
		return scan_string(s, false);
	if (literal(s, "true") || literal(s, "false") || literal(s, "null"))
		return SCAN_OK;
	return scan_number(s, &n, &is_int);
}

/* A string value kept in *RET (NULL when the value is no string). */
static int keep_string(struct scan *s, char **ret)
{
	int r;

	if (!at(s, '"'))
		return scan_value(s);
	r = scan_string(s, true);
	if (r != SCAN_OK)
		return r;
	*ret = strdup(s->str.data);
	return *ret ? SCAN_OK : -ENOMEM;
}

static int owned_element(struct scan *s, void *state)
{
	struct item_scan *it = state;
	char **v;
	int r;

	if (!at(s, '"'))
		return scan_value(s);
	r = scan_string(s, true);
	if (r != SCAN_OK || s->str.len >= HALO_OWNED_LEN)
		return r;
	v = realloc(it->owned, (it->n_owned + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	it->owned = v;
	it->owned[it->n_owned] = strdup(s->str.data);
	return it->owned[it->n_owned++] ? SCAN_OK : -ENOMEM;
}

/* A member of an element of "items". */
static int item_member(struct scan *s, void *state)
{
	struct item_scan *it = state;
	bool *seen = NULL;
	int r = scan_name(s);

	if (r != SCAN_OK)
		return r;
	if (name_is(s, "key"))
		seen = &it->seen_key;
	else if (name_is(s, "memo"))
		seen = &it->seen_memo;
	else if (name_is(s, "owned"))
		seen = &it->seen_owned;
	if (!seen)
		return scan_value(s);
	/* json-c keeps a member's last value: the parser decides. */
	if (*seen)
		return SCAN_OTHER;
	*seen = true;
	if (seen == &it->seen_key)
		return keep_string(s, &it->key);
	if (seen == &it->seen_memo)
		return keep_string(s, &it->memo);
	if (!eat(s, '['))
		return scan_value(s);
	it->owned_array = true;
	return scan_list(s, ']', owned_element, it);
}

static void item_free(struct item_scan *it)
{
	free(it->key);
	free(it->memo);
	for (size_t i = 0; i < it->n_owned; i++)
		free(it->owned[i]);
	free(it->owned);
}

/* An element of "items": its record, in the order halo_state_records_parse
 * makes it (the memo, then each owned entry; a full record ends quietly). */
static int items_element(struct scan *s, void *state)
{
	struct halo_records *got = state;
	struct item_scan it = { 0 };
	int r;

	if (!eat(s, '{'))
		return scan_value(s);
	r = scan_list(s, '}', item_member, &it);
	if (r == SCAN_OK && it.key && it.memo)
		r = halo_records_set_memo(got, it.key, it.memo);
	for (size_t i = 0; r == SCAN_OK && it.key && i < it.n_owned; i++) {
		r = halo_records_add(got, it.key, it.owned[i]);
		if (r == -ENOSPC)
			r = SCAN_OK;
	}
	item_free(&it);
	return r;
}

struct top_scan {
	struct halo_records *got;
	long version;
	bool seen_version, version_int, seen_items, items_array;
};

static int top_member(struct scan *s, void *state)
{
	struct top_scan *t = state;
	int r = scan_name(s);

	if (r != SCAN_OK)
		return r;
	if (name_is(s, "schema_version")) {
		if (t->seen_version)
			return SCAN_OTHER;
		t->seen_version = true;
		if (!at(s, '-') && !digit(s))
			return SCAN_OTHER; /* json-c reads true, "1", ... as numbers */
		r = scan_number(s, &t->version, &t->version_int);
		return r == SCAN_OK && !t->version_int ? SCAN_OTHER : r;
	}
	if (!name_is(s, "items"))
		return scan_value(s);
	if (t->seen_items)
		return SCAN_OTHER;
	t->seen_items = true;
	if (!eat(s, '['))
		return scan_value(s);
	t->items_array = true;
	return scan_list(s, ']', items_element, t->got);
}

int halo_state_scan_records(const char *text, size_t len, int schema,
			    struct halo_records *ret)
{
	struct scan s = { .p = text, .end = text + len };
	struct halo_records got = { 0 };
	struct top_scan t = { .got = &got };
	int r = SCAN_OTHER;

	*ret = (struct halo_records){ 0 };
	/* json-c reads a text up to its first NUL. */
	if (!text || memchr(text, '\0', len))
		return 0;
	ws(&s);
	if (eat(&s, '{'))
		r = scan_list(&s, '}', top_member, &t);
	if (r == SCAN_OK) {
		ws(&s);
		if (s.p != s.end)
			r = SCAN_OTHER;
	}
	halo_buf_free(&s.str);
	if (r == SCAN_OK && t.seen_version && t.version == schema && t.items_array)
		*ret = got;
	else
		halo_records_free(&got);
	if (r < 0)
		return r;
	return r == SCAN_OK;
}
