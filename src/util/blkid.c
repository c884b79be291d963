/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blkid.c: the only file that includes libblkid (see blkid.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <blkid/blkid.h>

#include "util/blkid.h"
#include "util/dl.h"
#include "util/rootfs.h"
#include "util/strv.h"

/*
 * libblkid is opened on first use (util/dl.h), never linked: only a root=
 * check and the model store probe a device, and a check of any other
 * config does not map it (nor relocate its 235 symbols at start-up).
 */
static HALO_DL_SYM(blkid_do_safeprobe);
static HALO_DL_SYM(blkid_evaluate_tag);
static HALO_DL_SYM(blkid_free_probe);
static HALO_DL_SYM(blkid_new_probe);
static HALO_DL_SYM(blkid_probe_enable_partitions);
static HALO_DL_SYM(blkid_probe_enable_superblocks);
static HALO_DL_SYM(blkid_probe_lookup_value);
static HALO_DL_SYM(blkid_probe_set_device);
static HALO_DL_SYM(blkid_probe_set_partitions_flags);
static HALO_DL_SYM(blkid_probe_set_superblocks_flags);

static const struct halo_dl_sym blkid_syms[] = {
	HALO_DL_ENTRY(blkid_do_safeprobe),
	HALO_DL_ENTRY(blkid_evaluate_tag),
	HALO_DL_ENTRY(blkid_free_probe),
	HALO_DL_ENTRY(blkid_new_probe),
	HALO_DL_ENTRY(blkid_probe_enable_partitions),
	HALO_DL_ENTRY(blkid_probe_enable_superblocks),
	HALO_DL_ENTRY(blkid_probe_lookup_value),
	HALO_DL_ENTRY(blkid_probe_set_device),
	HALO_DL_ENTRY(blkid_probe_set_partitions_flags),
	HALO_DL_ENTRY(blkid_probe_set_superblocks_flags),
};

static struct halo_dl libblkid = {
	.soname = HALO_BLKID_SONAME,
	.syms = blkid_syms,
	.n_syms = ARRAY_SIZE(blkid_syms),
};

/* dlerror's line of the last failed open, for halo_blkid_why(). */
static char open_why[256];

/* 0 once libblkid's functions are there; -ELIBACC when it cannot be
 * opened or lacks one of them. */
static int blkid_open(void)
{
	_cleanup_free_ char *why = NULL;
	int r = halo_dl_open(&libblkid, &why);

	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		snprintf(open_why, sizeof(open_why), "%s", why);
		return -ELIBACC;
	}
	return 0;
}

const char *halo_blkid_why(void)
{
	return open_why[0] ? open_why : strerror(ELIBACC);
}

static const char *const tags[] = { "UUID", "LABEL", "PARTUUID", "PARTLABEL", NULL };

/* TAG=VALUE is one libblkid resolves (and the root's cache may hold). */
static bool valid_tag(const char *tag, const char *value)
{
	return halo_keyword_index(tags, tag) >= 0 && value[0];
}

static void free_probep(blkid_probe *p)
{
	if (*p)
		sym_blkid_free_probe(*p);
}

/*
 * Opens DEV read-only for probing, resolved inside the root (symlinks
 * followed there, as /dev/disk/by-* are). Under --root every name, a
 * cache entry's too, is only ever looked up inside the root: one that is
 * not there is -ENODEV, never opened on the host (image builds and tests
 * put their images inside the root). Anything but a block device or a
 * regular file is -ENOTBLK: a FIFO would block the probe, a character
 * device has no superblock. The type is checked on an O_PATH descriptor
 * before the open that reads, and that open is of the same inode.
 */
static int open_probe(struct halo_ctx *ctx, const char *dev, int *ret_fd)
{
	_cleanup_close_ int pfd = -1;
	struct stat st;
	int r, fd;

	if (dev[0] != '/')
		return -ENODEV;
	r = halo_root_openat(ctx, dev, O_PATH, 0, &pfd);
	if (r == -ENOENT)
		return -ENODEV;
	if (r < 0)
		return r;
	if (fstat(pfd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		return -ENOTBLK;
	fd = halo_fd_reopen(pfd, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return fd;
	*ret_fd = fd;
	return 0;
}

/* Probes FD: the file system type (*ret_type, NULL: no signature) and,
 * with TAG, whether the probe finds TAG=VALUE (*ret_match). */
static int probe_fd(int fd, const char *tag, const char *value, char **ret_type,
		    bool *ret_match)
{
	_cleanup_(free_probep) blkid_probe pr = NULL;
	const char *type = NULL, *v = NULL;
	int r;

	*ret_type = NULL;
	if (ret_match)
		*ret_match = false;
	r = blkid_open();
	if (r < 0)
		return r;
	pr = sym_blkid_new_probe();
	if (!pr)
		return -ENOMEM;
	if (sym_blkid_probe_set_device(pr, fd, 0, 0) < 0 ||
	    sym_blkid_probe_enable_superblocks(pr, 1) < 0 ||
	    sym_blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL |
						  BLKID_SUBLKS_UUID) < 0)
		return -EIO;
	if (tag && strncmp(tag, "PART", 4) == 0 &&
	    (sym_blkid_probe_enable_partitions(pr, 1) < 0 ||
	     sym_blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS) < 0))
		return -EIO;
	r = sym_blkid_do_safeprobe(pr);
	if (r == 1 || r == -2) /* nothing, or two signatures: no one type */
		return 0;
	if (r < 0)
		return -EIO;
	if (tag && ret_match && sym_blkid_probe_lookup_value(pr, tag, &v, NULL) == 0 && v)
		*ret_match = strcmp(v, value) == 0;
	if (sym_blkid_probe_lookup_value(pr, "TYPE", &type, NULL) < 0 || !type)
		return 0;
	*ret_type = strdup(type);
	return *ret_type ? 0 : -ENOMEM;
}

/* The value of the quoted attribute at *PP (after '='), unescaped into
 * BUF (libblkid writes \" and \\); *PP moves past the closing quote.
 * False when malformed or too long. */
static bool attr_value(const char **pp, const char *end, char *buf, size_t size)
{
	const char *p = *pp;
	size_t n = 0;

	if (p >= end || *p++ != '"')
		return false;
	while (p < end && *p != '"') {
		if (*p == '\\' && p + 1 < end)
			p++;
		if (n + 1 >= size)
			return false;
		buf[n++] = *p++;
	}
	if (p >= end)
		return false;
	buf[n] = '\0';
	*pp = p + 1;
	return true;
}

/* The device name of the blkid.tab LINE when its TAG attribute is VALUE
 * ("<device ... TAG=\"VALUE\" ...>NAME</device>"), else NULL. Parsed here
 * rather than by libblkid, whose cache reader drops an entry unless its
 * name exists on the host (access(2) on the host path). */
static char *entry_match(const char *line, const char *end, const char *tag, const char *value)
{
	const char *p = line, *gt, *close;
	size_t tlen = strlen(tag);
	bool match = false;
	char buf[1024];

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if ((size_t)(end - p) < 8 || memcmp(p, "<device ", 8) != 0)
		return NULL;
	p += 8;
	for (;;) {
		while (p < end && *p == ' ')
			p++;
		if (p >= end || *p == '>')
			break;
		const char *eq = memchr(p, '=', (size_t)(end - p));

		if (!eq)
			return NULL;
		bool is_tag = (size_t)(eq - p) == tlen && memcmp(p, tag, tlen) == 0;

		p = eq + 1;
		if (!attr_value(&p, end, buf, sizeof(buf)))
			return NULL;
		if (is_tag && strcmp(buf, value) == 0)
			match = true;
	}
	gt = p;
	if (!match || gt >= end)
		return NULL;
	close = memmem(gt + 1, (size_t)(end - gt - 1), "</device>", 9);
	if (!close || close == gt + 1)
		return NULL;
	return strndup(gt + 1, (size_t)(close - gt - 1));
}

/*
 * The cache entries are candidates only: each is opened by open_probe
 * and probed here (never by blkid_verify, which would open the name on
 * the host, FIFOs included), and counts only when the probe finds the
 * tag. *RET_FD: the match, opened. -ENOTBLK with *RET_DEV the name when
 * nothing matched and an entry named something that is no block device
 * or file.
 */
static int resolve_in_root(struct halo_ctx *ctx, const char *tag, const char *value,
			   char **ret_dev, int *ret_fd)
{
	_cleanup_free_ char *text = NULL, *bad = NULL;
	const char *p, *end;
	char *found = NULL;
	int found_fd = -1;
	size_t len;
	int r;

	r = halo_read_file(ctx, HALO_BLKID_CACHE, &text, &len);
	if (r == -ENOENT)
		return -ENODEV;
	if (r < 0)
		return r;
	r = 0;
	for (p = text, end = text + len; !found && r >= 0 && p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		_cleanup_free_ char *name = entry_match(p, eol, tag, value), *type = NULL;
		_cleanup_close_ int dfd = -1;
		bool match;
		int q;

		p = nl ? nl + 1 : end;
		if (!name)
			continue;
		q = open_probe(ctx, name, &dfd);
		if (q == -ENOTBLK && !bad)
			bad = TAKE_PTR(name);
		if (q < 0)
			continue;
		/* A stale entry (the file system changed since) is no match. */
		q = probe_fd(dfd, tag, value, &type, &match);
		if (q == -ENOMEM || q == -ELIBACC)
			r = q;
		if (q < 0 || !match)
			continue;
		found = TAKE_PTR(name);
		found_fd = TAKE_FD(dfd);
	}
	if (r < 0)
		return r;
	if (!found && bad) {
		*ret_dev = TAKE_PTR(bad);
		return -ENOTBLK;
	}
	if (!found)
		return -ENODEV;
	*ret_dev = found;
	if (ret_fd)
		*ret_fd = found_fd;
	else
		close(found_fd);
	return 0;
}

int halo_blkid_resolve(struct halo_ctx *ctx, const char *tag, const char *value,
		       char **ret_dev)
{
	char *dev = NULL;
	int r;

	if (!valid_tag(tag, value))
		return -EINVAL;
	if (ctx->under_root) {
		r = resolve_in_root(ctx, tag, value, &dev, NULL);
		if (r < 0 && r != -ENOTBLK) {
			free(dev);
			return r;
		}
		*ret_dev = dev;
		return r;
	}
	r = blkid_open();
	if (r < 0)
		return r;
	dev = sym_blkid_evaluate_tag(tag, value, NULL);
	if (!dev)
		return -ENODEV;
	*ret_dev = dev;
	return 0;
}

void halo_blkid_found_free(struct halo_blkid_found *f)
{
	free(f->dev);
	free(f->type);
	f->dev = f->type = NULL;
}

int halo_blkid_find(struct halo_ctx *ctx, const char *tag, const char *value,
		    struct halo_blkid_found *ret)
{
	_cleanup_free_ char *dev = NULL, *type = NULL;
	_cleanup_close_ int fd = -1;
	struct stat st;
	int r;

	if (tag && !valid_tag(tag, value))
		return -EINVAL;
	if (tag && ctx->under_root) {
		r = resolve_in_root(ctx, tag, value, &dev, &fd);
		if (r < 0)
			return r;
	} else {
		if (tag) {
			r = blkid_open();
			if (r < 0)
				return r;
			dev = sym_blkid_evaluate_tag(tag, value, NULL);
			if (!dev)
				return -ENODEV;
		} else {
			if (value[0] != '/')
				return -EINVAL;
			dev = strdup(value);
			if (!dev)
				return -ENOMEM;
		}
		r = open_probe(ctx, dev, &fd);
		if (r < 0)
			return r;
	}
	r = probe_fd(fd, NULL, NULL, &type, NULL);
	if (r < 0)
		return r;
	ret->rdev = fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) ? st.st_rdev : 0;
	ret->dev = TAKE_PTR(dev);
	ret->type = TAKE_PTR(type);
	return 0;
}
