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
#include <stdint.h>
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
	/* The last string read, decoded: a slice of the text when it has no
	 * escape (names and values are only compared or copied once), else
	 * STR's data. */
	const char *str;
	size_t str_len;
	struct halo_buf unescaped;
};

/* One item's members, as read. KEY is a slice of the text, or of
 * KEY_COPY when it had an escape: most items record nothing, and their
 * key is then never copied. */
struct item_scan {
	const char *key;
	size_t key_len;
	char *key_copy, *memo, *path, *subsystem;
	bool seen_key, seen_memo, seen_owned, owned_array, seen_path, seen_subsystem;
	char **owned;
	size_t n_owned;
};

/* Byte classes, looked up once per byte in the two loops that see every
 * byte of the file. WS: RFC 8259's whitespace. STOP: what ends a run of
 * a string's bytes that stand for themselves ('"', '\\', a control
 * byte). */
enum { WS = 1, STOP = 2 };

#define STOP_8(b)                                                          \
	[b] = STOP, [b + 1] = STOP, [b + 2] = STOP, [b + 3] = STOP,         \
	[b + 4] = STOP, [b + 5] = STOP, [b + 6] = STOP, [b + 7] = STOP

static const unsigned char byte_class[256] = {
	STOP_8(0x00), [0x08] = STOP, ['\t'] = WS | STOP, ['\n'] = WS | STOP,
	[0x0b] = STOP, [0x0c] = STOP, ['\r'] = WS | STOP, [0x0e] = STOP,
	[0x0f] = STOP, STOP_8(0x10), STOP_8(0x18),
	[' '] = WS, ['"'] = STOP, ['\\'] = STOP,
};

/* The two loops test eight bytes at a time where eight are left: a word
 * holds them with the first byte the least significant (one load on a
 * little-endian machine), so a word's lowest marked byte is the first
 * in the text. */
static inline uint64_t word_at(const char *p)
{
	const unsigned char *u = (const unsigned char *)p;

	return (uint64_t)u[0] | (uint64_t)u[1] << 8 | (uint64_t)u[2] << 16 |
	       (uint64_t)u[3] << 24 | (uint64_t)u[4] << 32 | (uint64_t)u[5] << 40 |
	       (uint64_t)u[6] << 48 | (uint64_t)u[7] << 56;
}

#define BYTES_8(b) (UINT64_C(0x0101010101010101) * (unsigned char)(b))

/* The high bit of each byte of W below N (N <= 0x80). A borrow can mark
 * a byte that is not, but only above one that is: the lowest mark is
 * always true. */
static uint64_t bytes_below(uint64_t w, unsigned char n)
{
	return (w - BYTES_8(n)) & ~w & BYTES_8(0x80);
}

static uint64_t bytes_equal(uint64_t w, unsigned char c)
{
	return bytes_below(w ^ BYTES_8(c), 1);
}

static size_t first_marked(uint64_t marks)
{
	return (size_t)__builtin_ctzll(marks) / 8;
}

/* The first byte at or after P that is not RFC 8259 whitespace. */
static const char *ws_end(const char *p, const char *end)
{
	for (;;) {
		/* Indentation: a run of spaces, eight at a time. */
		for (; end - p >= 8; p += 8) {
			uint64_t others = word_at(p) ^ BYTES_8(' ');

			if (others) {
				p += first_marked(others);
				break;
			}
		}
		if (p == end || !(byte_class[(unsigned char)*p] & WS))
			return p;
		p++;
	}
}

static inline void ws(struct scan *s)
{
	if (s->p < s->end && (byte_class[(unsigned char)*s->p] & WS))
		s->p = ws_end(s->p + 1, s->end);
}

/* The first byte at or after P that ends a run of a string's plain
 * bytes: '"', '\\' or a control byte. */
static inline const char *plain_end(const char *p, const char *end)
{
	for (; end - p >= 8; p += 8) {
		uint64_t w = word_at(p);
		/* Flipping bit 1 moves '"' to 0x20 and the control bytes
		 * among themselves: below 0x21 is then either. */
		uint64_t stops = bytes_below(w ^ BYTES_8(0x02), 0x21) | bytes_equal(w, '\\');

		if (stops)
			return p + first_marked(stops);
	}
	while (p < end && !(byte_class[(unsigned char)*p] & STOP))
		p++;
	return p;
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

/* The escape after a backslash, decoded into *RET. The escapes json-c
 * writes and reads alike; \u goes to the parser. */
static bool unescape(char e, char *ret)
{
	switch (e) {
	case '"': *ret = '"'; return true;
	case '\\': *ret = '\\'; return true;
	case '/': *ret = '/'; return true;
	case 'b': *ret = '\b'; return true;
	case 'f': *ret = '\f'; return true;
	case 'n': *ret = '\n'; return true;
	case 'r': *ret = '\r'; return true;
	case 't': *ret = '\t'; return true;
	default: return false;
	}
}

/* The rest of a string whose first run, from s->p, ends at a
 * backslash: decoded into s->unescaped. Out of line: inlined, the
 * registers it needs cost every plain string a longer prologue. */
__attribute__((noinline)) static int scan_escaped(struct scan *s)
{
	struct halo_buf *b = &s->unescaped;

	b->len = 0;
	for (;;) {
		const char *run = s->p;
		char c;

		s->p = plain_end(s->p, s->end);
		if (s->p >= s->end || (*s->p != '"' && *s->p != '\\'))
			return SCAN_OTHER;
		halo_buf_append(b, run, (size_t)(s->p - run));
		if (*s->p++ == '"')
			break;
		if (s->p >= s->end || !unescape(*s->p++, &c))
			return SCAN_OTHER;
		halo_buf_append(b, &c, 1);
	}
	if (b->oom)
		return -ENOMEM;
	s->str = b->data;
	s->str_len = b->len;
	return SCAN_OK;
}

/* A string at s->p, decoded into s->str and s->str_len. Raw control
 * bytes go to the parser. */
static int scan_string(struct scan *s)
{
	const char *stop;

	if (!eat(s, '"'))
		return SCAN_OTHER;
	stop = plain_end(s->p, s->end);
	if (stop < s->end && *stop == '"') {
		s->str = s->p;
		s->str_len = (size_t)(stop - s->p);
		s->p = stop + 1;
		return SCAN_OK;
	}
	return scan_escaped(s);
}

/* Whether the name just read is WORD. */
static bool name_is(const struct scan *s, const char *word)
{
	size_t n = strlen(word);

	return s->str_len == n && memcmp(s->str, word, n) == 0;
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
	int r = scan_string(s);

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
		return scan_string(s);
	if (literal(s, "true") || literal(s, "false") || literal(s, "null"))
		return SCAN_OK;
	return scan_number(s, &n, &is_int);
}

/* A string into s->str (*RET_STRING), or any other value skipped. */
static int string_or_skip(struct scan *s, bool *ret_string)
{
	*ret_string = at(s, '"');
	return *ret_string ? scan_string(s) : scan_value(s);
}

/* A string value kept in *RET (NULL when the value is no string). */
static int keep_string(struct scan *s, char **ret)
{
	bool string;
	int r;

	r = string_or_skip(s, &string);
	if (r != SCAN_OK || !string)
		return r;
	*ret = strndup(s->str, s->str_len);
	return *ret ? SCAN_OK : -ENOMEM;
}

/* An item's key, kept in IT (NULL when the value is no string). */
static int keep_key(struct scan *s, struct item_scan *it)
{
	bool string;
	int r;

	r = string_or_skip(s, &string);
	if (r != SCAN_OK || !string)
		return r;
	/* A decoded key is in a buffer the next string reuses. */
	if (s->str == s->unescaped.data) {
		it->key_copy = strndup(s->str, s->str_len);
		if (!it->key_copy)
			return -ENOMEM;
	}
	it->key = it->key_copy ? it->key_copy : s->str;
	it->key_len = s->str_len;
	return SCAN_OK;
}

static int owned_element(struct scan *s, void *state)
{
	struct item_scan *it = state;
	char **v;
	int r;

	if (!at(s, '"'))
		return scan_value(s);
	r = scan_string(s);
	if (r != SCAN_OK || s->str_len >= HALO_OWNED_LEN)
		return r;
	v = realloc(it->owned, (it->n_owned + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	it->owned = v;
	it->owned[it->n_owned] = strndup(s->str, s->str_len);
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
	else if (name_is(s, "path"))
		seen = &it->seen_path;
	else if (name_is(s, "subsystem"))
		seen = &it->seen_subsystem;
	if (!seen)
		return scan_value(s);
	/* json-c keeps a member's last value: the parser decides. */
	if (*seen)
		return SCAN_OTHER;
	*seen = true;
	if (seen == &it->seen_key)
		return keep_key(s, it);
	if (seen == &it->seen_memo)
		return keep_string(s, &it->memo);
	if (seen == &it->seen_path)
		return keep_string(s, &it->path);
	if (seen == &it->seen_subsystem)
		return keep_string(s, &it->subsystem);
	if (!eat(s, '['))
		return scan_value(s);
	it->owned_array = true;
	return scan_list(s, ']', owned_element, it);
}

static void item_free(struct item_scan *it)
{
	free(it->key_copy);
	free(it->memo);
	free(it->path);
	free(it->subsystem);
	for (size_t i = 0; i < it->n_owned; i++)
		free(it->owned[i]);
	free(it->owned);
}

/* An element of "items": its record, in the order halo_state_records_parse
 * makes it (the memo, the owned file, then each owned entry; a full
 * record ends quietly). */
static int items_element(struct scan *s, void *state)
{
	struct halo_records *got = state;
	struct item_scan it = { 0 };
	char *key = NULL;
	int r;

	if (!eat(s, '{'))
		return scan_value(s);
	r = scan_list(s, '}', item_member, &it);
	if (r == SCAN_OK && it.key && (it.memo || it.n_owned || (it.path && it.subsystem))) {
		key = strndup(it.key, it.key_len);
		if (!key)
			r = -ENOMEM;
	}
	if (r == SCAN_OK && key && it.memo)
		r = halo_records_set_memo(got, key, it.memo);
	if (r == SCAN_OK && key && it.path && it.subsystem)
		r = halo_records_set_file(got, key, it.path, it.subsystem);
	for (size_t i = 0; r == SCAN_OK && key && i < it.n_owned; i++) {
		r = halo_records_add(got, key, it.owned[i]);
		if (r == -ENOSPC)
			r = SCAN_OK;
	}
	free(key);
	item_free(&it);
	return r;
}

struct top_scan {
	struct halo_records *got;
	long version;
	bool seen_version, version_int, seen_items, items_array, seen_textfile;
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
	if (name_is(s, "textfile")) {
		if (t->seen_textfile)
			return SCAN_OTHER;
		t->seen_textfile = true;
		return keep_string(s, &t->got->textfile);
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
	halo_buf_free(&s.unescaped);
	if (r == SCAN_OK && t.seen_version && t.version == schema && t.items_array) {
		got.ours = true;
		*ret = got;
	} else
		halo_records_free(&got);
	if (r < 0)
		return r;
	return r == SCAN_OK;
}
