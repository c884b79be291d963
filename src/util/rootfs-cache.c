/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rootfs-cache.c: what a run that changes nothing has read of the root.
 *
 * A --check (and a dry run, --status, --validate) observes: several items
 * look at the same files (the RDMA device of a link is looked up by the
 * rdma, roce and ready items alike), so without this the same directories
 * are listed and the same attributes opened, path walk after path walk,
 * several times a run. Here each path is resolved, listed, read or
 * stat'ed once; a directory that was opened stays open, and its names and
 * file types (getdents64's d_type) answer for what is in it: a name that
 * is not there is absent, a FIFO or device is refused, a regular file is
 * opened relative to the directory without a second path walk or fstat.
 *
 * Only runs that write nothing make one (main.c). Anything that writes
 * through util/ (a file, an attribute, a removal) or spawns a program
 * empties it first, so a run that does change something never sees an
 * old answer of its own making.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

#include "util/rootfs-internal.h"
#include "util/strv.h"

/* Larger files are read again each time (the module index): they are few,
 * and kept they would only add to the run's peak memory. */
#define FILE_MAX (64u << 10)
#define TOTAL_MAX (2u << 20)
/* Directories kept open at most (each a descriptor). */
#define DIRS_MAX 128

struct halo_rootcache {
	struct halo_rcentry **slots; /* open addressing, a power of two */
	size_t n_slots, n_used;
	size_t bytes;                /* file contents held */
	size_t dirs;                 /* directory descriptors held */
};

/* FNV-1a of the length and the last 24 bytes: paths of one run share
 * long prefixes and differ at their ends; a collision costs a strcmp. */
static uint64_t hash(const char *s)
{
	size_t n = strlen(s);
	uint64_t h = (1469598103934665603ull ^ n) * 1099511628211ull;

	for (s += n > 24 ? n - 24 : 0; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* Where a file's contents go when its entry was made for them. */
static char *inline_data(struct halo_rcentry *e)
{
	return e->path + strlen(e->path) + 1;
}

static void data_drop(struct halo_rcentry *e)
{
	if (e->data != inline_data(e))
		free(e->data);
	e->data = NULL;
}

static void entry_free(struct halo_rcentry *e)
{
	if (!e)
		return;
	if (e->dfd >= 0)
		close(e->dfd);
	data_drop(e);
	free(e->names); /* the types and names are in that block */
	free(e);
}

int halo_root_snapshot_start(struct halo_ctx *ctx)
{
	struct halo_rootcache *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	c->n_slots = 256;
	c->slots = calloc(c->n_slots, sizeof(*c->slots));
	if (!c->slots) {
		free(c);
		return -ENOMEM;
	}
	ctx->rootcache = c;
	return 0;
}

static void clear(struct halo_rootcache *c)
{
	for (size_t i = 0; i < c->n_slots; i++) {
		entry_free(c->slots[i]);
		c->slots[i] = NULL;
	}
	c->n_used = c->bytes = c->dirs = 0;
}

void halo_root_snapshot_stop(struct halo_ctx *ctx)
{
	struct halo_rootcache *c = ctx->rootcache;

	if (!c)
		return;
	clear(c);
	free(c->slots);
	free(c);
	ctx->rootcache = NULL;
}

void halo_rootcache_forget(const struct halo_ctx *ctx)
{
	if (ctx && ctx->rootcache)
		clear(ctx->rootcache);
}

struct halo_rcentry *halo_rootcache_find(const struct halo_ctx *ctx, const char *path)
{
	struct halo_rootcache *c = ctx ? ctx->rootcache : NULL;

	if (!c)
		return NULL;
	for (size_t i = hash(path) & (c->n_slots - 1);; i = (i + 1) & (c->n_slots - 1)) {
		if (!c->slots[i])
			return NULL;
		if (strcmp(c->slots[i]->path, path) == 0)
			return c->slots[i];
	}
}

static int grow(struct halo_rootcache *c)
{
	size_t n = c->n_slots * 2;
	struct halo_rcentry **slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < c->n_slots; i++) {
		struct halo_rcentry *e = c->slots[i];
		size_t j;

		if (!e)
			continue;
		for (j = hash(e->path) & (n - 1); slots[j]; j = (j + 1) & (n - 1))
			;
		slots[j] = e;
	}
	free(c->slots);
	c->slots = slots;
	c->n_slots = n;
	return 0;
}

/* The entry of PATH, made with room for EXTRA bytes after its path
 * when missing (*RET_NEW then true). */
static struct halo_rcentry *entry_sized(const struct halo_ctx *ctx, const char *path,
					size_t extra, bool *ret_new)
{
	struct halo_rootcache *c = ctx ? ctx->rootcache : NULL;
	struct halo_rcentry *e = halo_rootcache_find(ctx, path);
	size_t i, n = strlen(path) + 1;

	*ret_new = false;
	if (e || !c)
		return e;
	/* Kept at most half full. */
	if ((c->n_used + 1) * 2 > c->n_slots && grow(c) < 0)
		return NULL;
	/* One allocation for the entry, its path and a file's contents. */
	e = calloc(1, sizeof(*e) + n + extra);
	if (!e)
		return NULL;
	e->dfd = -1;
	memcpy(e->path, path, n);
	for (i = hash(path) & (c->n_slots - 1); c->slots[i]; i = (i + 1) & (c->n_slots - 1))
		;
	c->slots[i] = e;
	c->n_used++;
	*ret_new = true;
	return e;
}

struct halo_rcentry *halo_rootcache_entry(const struct halo_ctx *ctx, const char *path)
{
	bool made;

	return entry_sized(ctx, path, 0, &made);
}

int halo_rootcache_put_file(const struct halo_ctx *ctx, const char *path, int err,
			    const char *buf, size_t len)
{
	struct halo_rootcache *c = ctx ? ctx->rootcache : NULL;
	struct halo_rcentry *e;
	bool made;

	if (!c || err == -ENOMEM || err == -EINTR)
		return 0;
	if (err == 0 && (len > FILE_MAX || c->bytes + len > TOTAL_MAX))
		return 0;
	e = entry_sized(ctx, path, err == 0 ? len + 1 : 0, &made);
	if (!e)
		return -ENOMEM;
	if (!made)
		data_drop(e);
	if (err == 0) {
		e->data = made ? inline_data(e) : malloc(len + 1);
		if (!e->data)
			return -ENOMEM;
		memcpy(e->data, buf, len + 1);
		e->len = len;
		c->bytes += len;
	}
	e->file_err = err;
	e->have |= HALO_RC_FILE;
	return 0;
}

int halo_rootcache_get_file(const struct halo_ctx *ctx, const char *path,
			    char **ret_buf, size_t *ret_len)
{
	struct halo_rcentry *e = halo_rootcache_find(ctx, path);
	char *buf;

	if (!e || !(e->have & HALO_RC_FILE))
		return 1;
	if (e->file_err < 0)
		return e->file_err;
	buf = malloc(e->len + 1);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, e->data, e->len + 1);
	*ret_buf = buf;
	if (ret_len)
		*ret_len = e->len;
	return 0;
}

int halo_rootcache_keep_dir(const struct halo_ctx *ctx, struct halo_rcentry *e, int fd,
			    bool listable)
{
	struct halo_rootcache *c = ctx->rootcache;

	if (e->dfd >= 0 && listable && !e->dfd_listable) {
		close(e->dfd);
		e->dfd = fd;
		e->dfd_listable = true;
		return 0;
	}
	if (e->dfd >= 0 || c->dirs >= DIRS_MAX)
		return -EBUSY;
	e->dfd = fd;
	e->dfd_listable = listable;
	c->dirs++;
	return 0;
}

const struct halo_rcentry *halo_rootcache_parent(const struct halo_ctx *ctx, const char *path,
						 const char **ret_base)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	size_t n;

	if (!ctx || !ctx->rootcache || !slash || !slash[1])
		return NULL;
	n = slash == path ? 1 : (size_t)(slash - path);
	if (n >= sizeof(dir))
		return NULL;
	memcpy(dir, path, n);
	dir[n] = '\0';
	/* Only a plain name below the directory: "." and ".." go the long
	 * way, which refuses a climb out of the root. */
	if (strcmp(slash + 1, ".") == 0 || strcmp(slash + 1, "..") == 0)
		return NULL;
	*ret_base = slash + 1;
	return halo_rootcache_find(ctx, dir);
}

int halo_rcentry_type(const struct halo_rcentry *e, const char *name)
{
	size_t lo = 0, hi = e->n_names;

	/* The names are sorted (halo_root_list_dir's order). */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(name, e->names[mid]);

		if (c == 0)
			return e->types[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -ENOENT;
}
