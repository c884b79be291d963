/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parmrec.c: the record of compressed modules' parameter types. An apply
 * decompresses every module it may load; for those with options it keeps
 * what their .modinfo declares, with the identity of the file it read
 * (device, inode, size, mtime and ctime to the nanosecond). A check then
 * takes a module's parameter types from its line while the file is the
 * same one, instead of decompressing megabytes for a few hundred bytes
 * (docs/hardware.md "Module index"). A file that changed in any way has a
 * new ctime (the kernel sets it on every change of content or inode), so a
 * stale line is never used: the check decodes, as it does with no record.
 * The kernel's clock for ctime advances a tick at a time, so a file
 * changed twice within one tick keeps its ctime: only a file whose ctime
 * is more than a second old is recorded (a newer one may still change
 * unseen), as git treats an index entry as racy.
 *
 * The file is a cache, not a setting: lines of another shape are skipped,
 * and a record the check cannot trust is not read at all.
 *
 * One line per module, tab-separated:
 *   <release>/<path below the module directory> dev ino size mtime ctime
 *   parm:type ...
 * mtime and ctime as seconds.nanoseconds; a parameter's "name:type" as
 * struct halo_modinfo keeps it ("name:" when untyped), one per field.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/plan.h"
#include "modules/internal.h"
#include "util/rootfs.h"
#include "util/strv.h"

#define PARMREC_HEADER HALO_MANAGED_HEADER \
	"# The parameter types of compressed modules with options, and the identity\n" \
	"# of the file they were read from; a check uses a line only while that\n" \
	"# file is unchanged. Rewritten by every apply.\n"

void halo_modfile_id_of(const struct stat *st, struct halo_modfile_id *ret)
{
	*ret = (struct halo_modfile_id){
		.dev = (uint64_t)st->st_dev,
		.ino = (uint64_t)st->st_ino,
		.size = (uint64_t)st->st_size,
		.mtime_s = (int64_t)st->st_mtim.tv_sec,
		.mtime_ns = (long)st->st_mtim.tv_nsec,
		.ctime_s = (int64_t)st->st_ctim.tv_sec,
		.ctime_ns = (long)st->st_ctim.tv_nsec,
	};
}

bool halo_modfile_id_settled(const struct halo_modfile_id *id, const struct timespec *now)
{
	/* Whole seconds first: a ctime centuries away must not overflow. */
	if (id->ctime_s >= (int64_t)now->tv_sec - 1)
		return id->ctime_s == (int64_t)now->tv_sec - 1 && id->ctime_ns < now->tv_nsec;
	return true;
}

static bool id_equal(const struct halo_modfile_id *a, const struct halo_modfile_id *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
	       a->mtime_s == b->mtime_s && a->mtime_ns == b->mtime_ns &&
	       a->ctime_s == b->ctime_s && a->ctime_ns == b->ctime_ns;
}

void halo_parmrec_clear(struct halo_parmrec *rec)
{
	for (size_t i = 0; i < rec->n; i++) {
		free(rec->v[i].key);
		halo_strv_free(rec->v[i].parms);
	}
	free(rec->v);
	*rec = (struct halo_parmrec){ 0 };
}

char *halo_parmrec_key(const char *release, const char *relpath)
{
	return halo_strdup_printf("%s/%s", release, relpath);
}

/* A field the line format can carry: no tab, no line break, not empty
 * (a parameter's type may hold spaces: "array of int"). */
static bool field_ok(const char *s)
{
	return *s && !strpbrk(s, "\t\n\r");
}

int halo_parmrec_add(struct halo_parmrec *rec, const char *key,
		     const struct halo_modfile_id *id, char *const *parms)
{
	_cleanup_strv_free_ char **copy = NULL;
	_cleanup_free_ char *k = NULL;
	struct halo_parmrec_entry *v;

	if (!field_ok(key))
		return 0;
	for (char *const *p = parms; p && *p; p++) {
		if (!field_ok(*p))
			return 0; /* not recordable: the check decodes it */
		if (halo_strv_push(&copy, *p) < 0)
			return -ENOMEM;
	}
	k = strdup(key);
	if (!k)
		return -ENOMEM;
	for (size_t i = 0; i < rec->n; i++)
		if (strcmp(rec->v[i].key, key) == 0) {
			halo_strv_free(rec->v[i].parms);
			rec->v[i].parms = TAKE_PTR(copy);
			rec->v[i].id = *id;
			return 0;
		}
	v = realloc(rec->v, (rec->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	rec->v = v;
	rec->v[rec->n++] = (struct halo_parmrec_entry){
		.key = TAKE_PTR(k), .id = *id, .parms = TAKE_PTR(copy),
	};
	return 0;
}

const struct halo_parmrec_entry *halo_parmrec_find(const struct halo_parmrec *rec,
						   const char *key,
						   const struct halo_modfile_id *id)
{
	for (size_t i = 0; rec && i < rec->n; i++)
		if (strcmp(rec->v[i].key, key) == 0)
			return id_equal(&rec->v[i].id, id) ? &rec->v[i] : NULL;
	return NULL;
}

/* "S.NNNNNNNNN" with exactly nine digits after the point. */
static bool parse_time(const char *s, int64_t *ret_s, long *ret_ns)
{
	char *end;
	long long sec;
	unsigned long ns;

	errno = 0;
	sec = strtoll(s, &end, 10);
	if (errno || end == s || *end != '.' || strlen(end + 1) != 9 ||
	    strspn(end + 1, "0123456789") != 9)
		return false;
	ns = strtoul(end + 1, NULL, 10);
	*ret_s = sec;
	*ret_ns = (long)ns;
	return true;
}

static bool parse_u64(const char *s, uint64_t *ret)
{
	char *end;
	unsigned long long v;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return false;
	*ret = v;
	return true;
}

/* One line (modified in place); a line of another shape is skipped. */
static int parse_line(struct halo_parmrec *rec, char *line)
{
	_cleanup_strv_free_ char **parms = NULL;
	struct halo_modfile_id id;
	char *f[6], *save = NULL, *p;
	size_t n = 0;

	for (p = strtok_r(line, "\t", &save); p && n < 6; p = strtok_r(NULL, "\t", &save))
		f[n++] = p;
	if (n < 6 || !strchr(f[0], '/') || !parse_u64(f[1], &id.dev) ||
	    !parse_u64(f[2], &id.ino) || !parse_u64(f[3], &id.size) ||
	    !parse_time(f[4], &id.mtime_s, &id.mtime_ns) ||
	    !parse_time(f[5], &id.ctime_s, &id.ctime_ns))
		return 0;
	for (; p; p = strtok_r(NULL, "\t", &save)) {
		if (!strchr(p, ':'))
			return 0;
		if (halo_strv_push(&parms, p) < 0)
			return -ENOMEM;
	}
	return halo_parmrec_add(rec, f[0], &id, parms);
}

int halo_parmrec_parse(const char *text, struct halo_parmrec *ret)
{
	_cleanup_free_ char *copy = strdup(text);
	char *line, *save = NULL;
	int r;

	if (!copy)
		return -ENOMEM;
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		r = parse_line(ret, line);
		if (r < 0) {
			halo_parmrec_clear(ret);
			return r;
		}
	}
	return 0;
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct halo_parmrec_entry *)a)->key,
		      ((const struct halo_parmrec_entry *)b)->key);
}

int halo_parmrec_render(struct halo_parmrec *rec, char **ret_text)
{
	struct halo_buf b = { 0 };

	*ret_text = NULL;
	if (rec->n == 0)
		return 0;
	qsort(rec->v, rec->n, sizeof(*rec->v), by_key);
	halo_buf_puts(&b, PARMREC_HEADER);
	for (size_t i = 0; i < rec->n; i++) {
		const struct halo_parmrec_entry *e = &rec->v[i];

		halo_buf_printf(&b, "%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
				"\t%" PRId64 ".%09ld\t%" PRId64 ".%09ld",
				e->key, e->id.dev, e->id.ino, e->id.size,
				e->id.mtime_s, e->id.mtime_ns, e->id.ctime_s, e->id.ctime_ns);
		for (char **p = e->parms; p && *p; p++)
			halo_buf_printf(&b, "\t%s", *p);
		halo_buf_puts(&b, "\n");
	}
	*ret_text = halo_buf_steal(&b);
	return *ret_text ? 0 : -ENOMEM;
}

/* Opens the root's record, and stats it: -ENOENT when absent, another
 * negative errno when it cannot be opened. */
static int open_record(const struct halo_ctx *ctx, int *ret_fd, struct stat *ret_st)
{
	_cleanup_close_ int fd = -1;
	int r;

	r = halo_root_openat(ctx, HALO_MODULES_RECORD_PATH, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY,
			     0, &fd);
	if (r < 0)
		return r;
	if (fstat(fd, ret_st) < 0)
		return -errno;
	*ret_fd = TAKE_FD(fd);
	return 0;
}

/* Whoever could write it could make a check misjudge an option. */
static bool trusted(const struct stat *st)
{
	return !(st->st_mode & (S_IWGRP | S_IWOTH)) && st->st_uid == geteuid();
}

int halo_parmrec_load(const struct halo_ctx *ctx, struct halo_parmrec *ret)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *text = NULL;
	struct stat st;
	size_t len;
	int r;

	r = open_record(ctx, &fd, &st);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || !S_ISREG(st.st_mode))
		return 0; /* absent, or not to be opened: decode */
	if (!trusted(&st))
		return -EPERM;
	r = halo_read_fd(fd, (size_t)st.st_size, &text, &len);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	return halo_parmrec_parse(text, ret);
}

int halo_parmrec_standing(const struct halo_ctx *ctx, const char *want,
			  enum halo_parmrec_standing *ret)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *have = NULL;
	struct stat st;
	size_t len;
	int r;

	r = open_record(ctx, &fd, &st);
	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT) {
		*ret = want ? HALO_PARMREC_STALE : HALO_PARMREC_RIGHT;
		return 0;
	}
	/* Something else there (a symlink, a FIFO): the write refuses it
	 * with its own error. */
	*ret = HALO_PARMREC_STALE;
	if (r < 0 || !S_ISREG(st.st_mode))
		return 0;
	/* A rewrite keeps a file's owner: another user's record must go
	 * first, or no check would ever trust the new one. */
	if (st.st_uid != geteuid()) {
		*ret = HALO_PARMREC_FOREIGN;
		return 0;
	}
	if (!want || (st.st_mode & 07777) != HALO_PARMREC_MODE)
		return 0;
	r = halo_read_fd(fd, (size_t)st.st_size, &have, &len);
	if (r == -ENOMEM)
		return r;
	if (r == 0 && len == strlen(want) && memcmp(have, want, len) == 0)
		*ret = HALO_PARMREC_RIGHT;
	return 0;
}
