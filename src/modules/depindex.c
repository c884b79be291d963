/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * depindex.c: one exact-key lookup in a kmod binary index (modules.dep.bin),
 * the format libkmod-index.c reads: a big-endian header (magic 0xB007F457,
 * version 2.1, root offset), then trie nodes addressed by 32-bit words
 * whose high nibble says what the node holds (a NUL-terminated prefix, a
 * child table first..last, values). The view needs a module's dependency
 * line before libkmod parses it, because libkmod stat()s every dependency
 * file while parsing. Pure; every offset is bounds-checked.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "modules/internal.h"

#define INDEX_MAGIC 0xB007F457u
#define INDEX_VERSION_MAJOR 0x0002u
#define NODE_PREFIX 0x80000000u
#define NODE_VALUES 0x40000000u
#define NODE_CHILDS 0x20000000u
#define NODE_MASK 0x0FFFFFFFu
#define MAX_STEPS 4096 /* a trie of module names is never this deep */

struct cursor {
	const unsigned char *buf;
	size_t len, pos;
};

static bool get_u32(struct cursor *c, uint32_t *ret)
{
	if (c->len < 4 || c->pos > c->len - 4)
		return false;
	*ret = (uint32_t)c->buf[c->pos] << 24 | (uint32_t)c->buf[c->pos + 1] << 16 |
	       (uint32_t)c->buf[c->pos + 2] << 8 | c->buf[c->pos + 3];
	c->pos += 4;
	return true;
}

/* A NUL-terminated string at the cursor; false if it runs off the end. */
static bool get_str(struct cursor *c, const char **ret, size_t *ret_len)
{
	const unsigned char *nul;

	if (c->pos >= c->len)
		return false;
	nul = memchr(c->buf + c->pos, '\0', c->len - c->pos);
	if (!nul)
		return false;
	*ret = (const char *)c->buf + c->pos;
	*ret_len = (size_t)(nul - (c->buf + c->pos));
	c->pos += *ret_len + 1;
	return true;
}

int halo_depindex_lookup(const void *buf, size_t len, const char *key, char **ret_value)
{
	struct cursor c = { .buf = buf, .len = len };
	uint32_t magic, version, offset;
	size_t i = 0;

	if (!get_u32(&c, &magic) || !get_u32(&c, &version) || !get_u32(&c, &offset) ||
	    magic != INDEX_MAGIC || version >> 16 != INDEX_VERSION_MAJOR)
		return -EBADMSG;
	for (int steps = 0; steps < MAX_STEPS; steps++) {
		uint32_t count;

		if ((offset & NODE_MASK) == 0)
			return -ENOENT;
		c.pos = offset & NODE_MASK;
		if (offset & NODE_PREFIX) {
			const char *prefix;
			size_t n;

			if (!get_str(&c, &prefix, &n))
				return -EBADMSG;
			if (strncmp(prefix, key + i, n) != 0 || strlen(key + i) < n)
				return -ENOENT;
			i += n;
		}
		if (key[i] == '\0') {
			const char *value;
			size_t n;

			if (!(offset & NODE_VALUES))
				return -ENOENT;
			/* Skip the child table to reach the values. */
			if (offset & NODE_CHILDS) {
				unsigned char first, last;

				if (c.pos + 2 > c.len)
					return -EBADMSG;
				first = c.buf[c.pos];
				last = c.buf[c.pos + 1];
				if (last < first)
					return -EBADMSG;
				c.pos += 2;
				if ((size_t)(last - first + 1) * 4 > c.len - c.pos)
					return -EBADMSG;
				c.pos += (size_t)(last - first + 1) * 4;
			}
			if (!get_u32(&c, &count))
				return -EBADMSG;
			if (count == 0)
				return -ENOENT;
			c.pos += 4; /* the first value's priority */
			if (c.pos > c.len || !get_str(&c, &value, &n))
				return -EBADMSG;
			*ret_value = strndup(value, n);
			return *ret_value ? 0 : -ENOMEM;
		}
		if (!(offset & NODE_CHILDS))
			return -ENOENT;
		{
			unsigned char first, last, ch = (unsigned char)key[i];
			struct cursor cc;

			if (c.pos + 2 > c.len)
				return -EBADMSG;
			first = c.buf[c.pos];
			last = c.buf[c.pos + 1];
			c.pos += 2;
			if (ch < first || ch > last)
				return -ENOENT;
			cc = c;
			cc.pos += (size_t)(ch - first) * 4;
			if (cc.pos > c.len || !get_u32(&cc, &offset))
				return -EBADMSG;
			i++;
		}
	}
	return -EBADMSG;
}
