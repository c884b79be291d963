/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rootfs-read.c: reading files and listing directories inside the root,
 * with the fewest system calls that keep the rules of rootfs.h.
 *
 * A file is opened (O_NONBLOCK: a planted FIFO cannot hang the run),
 * checked to be a regular file, read and closed. The check is an fstat,
 * except for a name found in a directory listed this run, whose type the
 * listing gave (rootfs-cache.c): that one is opened relative to the
 * directory with O_NOFOLLOW, so it is the very entry listed. The end of
 * the file is seen without a last read returning 0 where the kernel
 * allows it (at_end below). A directory is read on the descriptor its
 * open returned (util/dir.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "util/dir.h"
#include "util/rootfs-internal.h"
#include "util/strv.h"

#define READ_CAP (16u << 20)
#define SYSFS_PAGE 4096u

/* PATH lies below TOP, spelled plainly (no "//", ".", ".." on the way
 * that could make it lie elsewhere). */
static bool plainly_under(const char *path, const char *top)
{
	size_t n = strlen(top);

	if (strncmp(path, top, n) != 0 || path[n] != '/')
		return false;
	return !strstr(path, "//") && !strstr(path, "/./") && !strstr(path, "/../");
}

/*
 * Whether a read of ASKED bytes that returned N, making LEN in all, was
 * the last one. SIZE is the file's st_size, 0 when fstat said 0 or was not
 * called (KNOWN false).
 *  - The size fstat gave, reached: a file of a disk filesystem.
 *  - Below /sys, a read shorter than asked and than a page: sysfs shows a
 *    text attribute whole in its first read (at most a page), a binary
 *    one a page at a time.
 *  - A short read of a file of unknown size outside /proc: disk
 *    filesystems return less only at the end. procfs's seq_files stop at
 *    their own buffer's end, so there (and where fstat said 0: procfs,
 *    debugfs) only a read of 0 bytes ends the file; /proc/sys values are
 *    shown whole at once.
 */
static bool at_end(const char *path, bool known, size_t size, size_t len, size_t n,
		   size_t asked)
{
	if (n == 0 || (size > 0 && len == size))
		return true;
	if (n >= asked)
		return false;
	if (plainly_under(path, "/sys"))
		return n < SYSFS_PAGE;
	if (plainly_under(path, "/proc/sys"))
		return true;
	return !known && path[0] == '/' && strncmp(path, "/proc", 5) != 0 &&
	       !strstr(path, "//") && !strstr(path, "/.");
}

/* The rest of FD, NUL-terminated; see at_end for KNOWN and SIZE. */
static int read_rest(int fd, const char *path, bool known, size_t size,
		     char **ret_buf, size_t *ret_len)
{
	_cleanup_free_ char *buf = NULL;
	char first[SYSFS_PAGE];
	size_t len = 0, cap;
	bool done = false;

	cap = size > 0 && size < READ_CAP ? size + 1 : SYSFS_PAGE;
	/* Nearly every file read here (an attribute, a small config file)
	 * is whole after one read: read it onto the stack, then keep it at
	 * its size, rather than a page-sized heap buffer per read. */
	if (cap <= sizeof(first)) {
		ssize_t n;

		do
			n = read(fd, first, cap - 1);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			return errno == EAGAIN ? -HALO_ENOTREG : -errno;
		len = (size_t)n;
		done = at_end(path, known, size, len, len, cap - 1);
		if (done)
			cap = len + 1;
	}
	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, first, len);
	while (!done) {
		size_t asked;
		ssize_t n;

		if (len + 1 >= cap) {
			char *nb;

			if (cap > READ_CAP)
				return -EFBIG;
			cap *= 2;
			nb = realloc(buf, cap);
			if (!nb)
				return -ENOMEM;
			buf = nb;
		}
		asked = cap - len - 1;
		n = read(fd, buf + len, asked);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			/* A FIFO that replaced a listed file. */
			return errno == EAGAIN ? -HALO_ENOTREG : -errno;
		}
		len += (size_t)n;
		if (len > READ_CAP)
			return -EFBIG;
		done = at_end(path, known, size, len, (size_t)n, asked);
	}
	buf[len] = '\0';
	*ret_buf = TAKE_PTR(buf);
	if (ret_len)
		*ret_len = len;
	return 0;
}

int halo_read_fd(int fd, size_t size_hint, char **ret_buf, size_t *ret_len)
{
	/* Any kind of descriptor (a pipe, a staged file): only a read of 0
	 * bytes ends it; the hint only sizes the buffer. */
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	int r;

	r = read_rest(fd, "", true, 0, &buf, &len);
	(void)size_hint;
	if (r < 0)
		return r;
	*ret_buf = TAKE_PTR(buf);
	if (ret_len)
		*ret_len = len;
	return 0;
}

/* FD's status, when it is a regular file: -EISDIR for a directory,
 * -HALO_ENOTREG for anything else. */
static int stat_regular(int fd, struct stat *ret_st)
{
	if (fstat(fd, ret_st) < 0)
		return -errno;
	if (S_ISDIR(ret_st->st_mode))
		return -EISDIR;
	return S_ISREG(ret_st->st_mode) ? 0 : -HALO_ENOTREG;
}

/* For ATTR (halo_root_read_attr): what halo_root_write_attr would say
 * of FD, opened at PATH, ST its status when KNOWN (else fstat'ed here). */
static int judge_attr(const struct halo_ctx *ctx, const char *path, int fd, struct stat *st,
		      bool known, bool followed)
{
	if (!known && fstat(fd, st) < 0)
		return -errno;
	return halo_rootfs_attr_judge(ctx, path, fd, st, followed);
}

/* PATH, named BASE in DIR (its directory's entry, or NULL), through the
 * listing of DIR made this run: 1 when there is none, or the name is a
 * symlink (the long way follows it inside the root). The directory may
 * lie behind symlinks (a class link): an ATTR is judged as followed. */
static int read_listed(const struct halo_ctx *ctx, const struct halo_rcentry *dir,
		       const char *base, const char *path, bool attr, char **ret_buf,
		       size_t *ret_len)
{
	struct stat st;
	int fd, r = 0;

	if (!dir || !(dir->have & HALO_RC_LIST) || dir->dfd < 0)
		return 1;
	switch (halo_rcentry_type(dir, base)) {
	case -ENOENT:
		return -ENOENT;
	case DT_REG:
		break;
	case DT_DIR:
		return -EISDIR;
	case DT_FIFO:
	case DT_CHR:
	case DT_BLK:
	case DT_SOCK:
		return -HALO_ENOTREG;
	default:
		return 1;
	}
	fd = openat(dir->dfd, base, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ELOOP || errno == ENXIO ? 1 : -errno;
	if (attr)
		r = judge_attr(ctx, path, fd, &st, false, true);
	/* An attribute's size is known now: see at_end. */
	if (r == 0)
		r = read_rest(fd, path, attr, attr && st.st_size > 0 ? (size_t)st.st_size : 0,
			      ret_buf, ret_len);
	close(fd);
	return r;
}

/* PATH opened from the root, or from DIR (as for read_listed) when that
 * directory was opened this run. An ATTR opened from the root is first
 * looked for with no symlink on the way: found so, nothing more than the
 * fstat below is asked to judge it. */
static int read_walked(const struct halo_ctx *ctx, const struct halo_rcentry *dir,
		       const char *base, const char *path, bool attr, char **ret_buf,
		       size_t *ret_len)
{
	const int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY;
	_cleanup_close_ int fd = -1;
	bool followed = true;
	struct stat st;
	int r = -ELOOP;

	/* O_NONBLOCK stays set: reads of regular files (procfs, sysfs and
	 * configfs attributes included) ignore it, and clearing it cost one
	 * more system call per file read. */
	if (dir && dir->dfd >= 0) {
		fd = openat(dir->dfd, base, flags | O_NOFOLLOW | O_CLOEXEC);
		r = fd < 0 ? -errno : 0;
	} else if (attr) {
		r = halo_rootfs_open(ctx, path, flags, 0, true, &fd);
		followed = r != 0;
	}
	/* A symlink (ELOOP) is followed inside the root, the long way. */
	if (r == -ELOOP || r == -ENXIO)
		r = halo_root_openat(ctx, path, flags, 0, &fd);
	if (r == 0)
		r = stat_regular(fd, &st);
	if (r == 0 && attr)
		r = judge_attr(ctx, path, fd, &st, true, followed);
	if (r < 0)
		return r;
	/* st_size is exact on disk filesystems; /proc says 0, /sys 4096. */
	return read_rest(fd, path, true, st.st_size > 0 ? (size_t)st.st_size : 0,
			 ret_buf, ret_len);
}

/* halo_read_file, or halo_root_read_attr for ATTR: that one never takes
 * an answer from the cache, which holds no judgement, only gives one. */
static int read_file(const struct halo_ctx *ctx, const char *path, bool attr,
		     char **ret_buf, size_t *ret_len)
{
	_cleanup_free_ char *buf = NULL;
	const struct halo_rcentry *dir;
	const char *base = NULL;
	size_t len = 0;
	int r;

	r = halo_rootfs_check_path(path);
	if (r < 0)
		return r;
	if (!attr) {
		r = halo_rootcache_get_file(ctx, path, ret_buf, ret_len);
		if (r <= 0)
			return r;
	}
	dir = halo_rootcache_parent(ctx, path, &base);
	r = read_listed(ctx, dir, base, path, attr, &buf, &len);
	if (r > 0)
		r = read_walked(ctx, dir, base, path, attr, &buf, &len);
	/* Refused, not absent: the run names what is there. */
	if (r == -EISDIR || r == -HALO_ENOTREG)
		(void)halo_root_refused(ctx, path, r);
	/* An attribute's refusal is no answer for a plain read. */
	if ((!attr || r == 0) && halo_rootcache_put_file(ctx, path, r, buf, len) < 0)
		return -ENOMEM;
	if (r < 0)
		return r;
	*ret_buf = TAKE_PTR(buf);
	if (ret_len)
		*ret_len = len;
	return 0;
}

int halo_root_read_plain(const struct halo_ctx *ctx, const char *path,
			 struct stat *ret_st, char **ret_buf, size_t *ret_len)
{
	const struct halo_rcentry *e = halo_rootcache_find(ctx, path);
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	int r;

	/* Read already: the long way answers from memory. */
	if (e && (e->have & HALO_RC_FILE))
		return 1;
	if (halo_rootfs_check_path(path) < 0)
		return 1;
	r = halo_rootfs_open(ctx, path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW, 0,
			     true, &fd);
	if (r == -ENOENT || r == -ENOMEM)
		return r;
	if (r < 0 || stat_regular(fd, ret_st) < 0)
		return 1;
	r = read_rest(fd, path, true, ret_st->st_size > 0 ? (size_t)ret_st->st_size : 0,
		      &buf, &len);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 1;
	if (halo_rootcache_put_file(ctx, path, 0, buf, len) < 0)
		return -ENOMEM;
	*ret_buf = TAKE_PTR(buf);
	if (ret_len)
		*ret_len = len;
	return 0;
}

int halo_read_file(const struct halo_ctx *ctx, const char *path,
		   char **ret_buf, size_t *ret_len)
{
	return read_file(ctx, path, false, ret_buf, ret_len);
}

int halo_root_read_owned(const struct halo_ctx *ctx, const char *path,
			 char **ret_buf, size_t *ret_len)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *buf = NULL;
	struct stat st;
	size_t len = 0;
	int r = halo_rootfs_open(ctx, path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW, 0,
				 true, &fd);

	if (r == 0)
		r = stat_regular(fd, &st);
	if (r == 0)
		r = read_rest(fd, path, true, st.st_size > 0 ? (size_t)st.st_size : 0, &buf, &len);
	if (r < 0)
		return r;
	*ret_buf = TAKE_PTR(buf);
	if (ret_len)
		*ret_len = len;
	return 0;
}

int halo_root_read_attr(const struct halo_ctx *ctx, const char *path,
			char **ret_buf, size_t *ret_len)
{
	return read_file(ctx, path, true, ret_buf, ret_len);
}

int halo_root_map_file(const struct halo_ctx *ctx, const char *path,
		       const void **ret_map, size_t *ret_len)
{
	const int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY;
	_cleanup_close_ int fd = -1;
	struct stat st;
	void *map;
	int r;

	r = halo_root_openat(ctx, path, flags, 0, &fd);
	if (r == 0)
		r = stat_regular(fd, &st);
	if (r < 0)
		return r;
	if ((uint64_t)st.st_size > SIZE_MAX)
		return -EFBIG;
	if (st.st_size == 0) {
		*ret_map = NULL;
		*ret_len = 0;
		return 0;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	*ret_map = map;
	*ret_len = (size_t)st.st_size;
	return 0;
}

void halo_root_unmap_file(const void *map, size_t len)
{
	if (map)
		munmap((void *)map, len);
}

/* A directory's names, NUL-separated in one growing text, with their
 * offsets and d_types: a few allocations for a listing, not one a name. */
struct listing {
	struct halo_buf text;
	size_t *off;
	unsigned char *types;
	size_t n, cap;
};

static void listing_free(struct listing *l)
{
	halo_buf_free(&l->text);
	free(l->off);
	free(l->types);
}

static int listing_add(struct listing *l, const char *name, unsigned char type)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 32;
		size_t *off = realloc(l->off, cap * sizeof(*off));
		unsigned char *types;

		if (!off)
			return -ENOMEM;
		l->off = off;
		types = realloc(l->types, cap);
		if (!types)
			return -ENOMEM;
		l->types = types;
		l->cap = cap;
	}
	l->off[l->n] = l->text.len;
	halo_buf_append(&l->text, name, strlen(name) + 1);
	if (l->text.oom)
		return -ENOMEM;
	l->types[l->n++] = type;
	return 0;
}

/* Sorts names and types together (insertion sort: a directory of a few
 * dozen names; thousands only in a module tree, never listed here). */
static void listing_sort(struct listing *l)
{
	const char *text = l->text.data;

	for (size_t i = 1; i < l->n; i++) {
		size_t off = l->off[i];
		unsigned char type = l->types[i];
		size_t j = i;

		for (; j > 0 && strcmp(text + l->off[j - 1], text + off) > 0; j--) {
			l->off[j] = l->off[j - 1];
			l->types[j] = l->types[j - 1];
		}
		l->off[j] = off;
		l->types[j] = type;
	}
}

/* The listing as one allocation: its NULL-terminated vector of names,
 * then the names, then the types (*RET_TYPES). Freed with one free. */
static char **listing_block(const struct listing *l, unsigned char **ret_types)
{
	size_t vec = (l->n + 1) * sizeof(char *);
	char **v = malloc(vec + l->text.len + l->n);
	char *text;

	if (!v)
		return NULL;
	text = (char *)v + vec;
	if (l->text.len)
		memcpy(text, l->text.data, l->text.len);
	for (size_t i = 0; i < l->n; i++)
		v[i] = text + l->off[i];
	v[l->n] = NULL;
	*ret_types = (unsigned char *)text + l->text.len;
	if (l->n)
		memcpy(*ret_types, l->types, l->n);
	return v;
}

static int listing_entry(int dirfd, const char *name, unsigned char type, void *userdata)
{
	return listing_add(userdata, name, type);
}

/* Every entry of the directory FD but "." and "..", with its d_type. */
static int read_dir(int fd, struct listing *l)
{
	return halo_dir_each(fd, listing_entry, l);
}

static int names_copy(char *const *names, size_t n, char ***ret)
{
	char **v = calloc(n + 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		v[i] = strdup(names[i]);
		if (!v[i]) {
			halo_strv_free(v);
			return -ENOMEM;
		}
	}
	*ret = v;
	return 0;
}

/* Keeps the listing of DIR (and its descriptor FD, taken) for the run. */
static int remember(const struct halo_ctx *ctx, const char *dir, int r, int *fd,
		    char ***block, unsigned char *types, size_t n)
{
	struct halo_rcentry *e;

	if (!ctx->rootcache || r == -ENOMEM)
		return 0;
	e = halo_rootcache_entry(ctx, dir);
	if (!e)
		return -ENOMEM;
	e->list_err = r;
	e->have |= HALO_RC_LIST;
	if (r < 0)
		return 0;
	e->names = TAKE_PTR(*block);
	e->types = types;
	e->n_names = n;
	/* Kept open, for what is read in it next (an O_PATH one opened by
	 * halo_root_lstat is replaced: it cannot be listed). */
	if (halo_rootcache_keep_dir(ctx, e, *fd, true) == 0)
		*fd = -1;
	return 0;
}

int halo_root_list_dir(const struct halo_ctx *ctx, const char *dir,
		       char ***ret_names)
{
	struct listing l = { 0 };
	const struct halo_rcentry *e;
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char **block = NULL;
	unsigned char *types = NULL;
	int r;

	r = halo_rootfs_check_path(dir);
	if (r < 0)
		return r;
	e = halo_rootcache_find(ctx, dir);
	if (e && (e->have & HALO_RC_LIST))
		return e->list_err < 0 ? e->list_err : names_copy(e->names, e->n_names, ret_names);
	r = halo_root_openat(ctx, dir, O_RDONLY | O_DIRECTORY, 0, &fd);
	if (r == 0)
		r = read_dir(fd, &l);
	if (r == 0)
		listing_sort(&l);
	if (r == 0) {
		block = listing_block(&l, &types);
		r = block ? names_copy(block, l.n, ret_names) : -ENOMEM;
	}
	if (remember(ctx, dir, r, &fd, &block, types, l.n) < 0) {
		if (r == 0)
			halo_strv_free(*ret_names);
		r = -ENOMEM;
	}
	listing_free(&l);
	return r;
}
