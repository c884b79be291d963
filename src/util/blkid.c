/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blkid.c: the only file that includes libblkid (see blkid.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <blkid/blkid.h>

#include "util/blkid.h"
#include "util/rootfs.h"

static const char *const tags[] = { "UUID", "LABEL", "PARTUUID", "PARTLABEL" };

/* The tag name length of SPEC ("UUID" of "UUID=x"), 0 if not a tag. */
static size_t tag_len(const char *spec)
{
	for (size_t i = 0; i < ARRAY_SIZE(tags); i++) {
		size_t n = strlen(tags[i]);

		if (strncmp(spec, tags[i], n) == 0 && spec[n] == '=' && spec[n + 1])
			return n;
	}
	return 0;
}

bool halo_blkid_is_tag(const char *spec)
{
	return tag_len(spec) > 0;
}

static void put_cachep(blkid_cache *c)
{
	if (*c)
		blkid_put_cache(*c);
}

static int resolve_in_root(struct halo_ctx *ctx, const char *tag,
			   const char *value, char **ret_dev)
{
	_cleanup_(put_cachep) blkid_cache cache = NULL;
	_cleanup_free_ char *text = NULL;
	_cleanup_close_ int fd = -1;
	char path[64];
	blkid_dev_iterate it;
	blkid_dev dev;
	char *found = NULL;
	size_t len;
	int r;

	r = halo_read_file(ctx, HALO_BLKID_CACHE, &text, &len);
	if (r == -ENOENT)
		return -ENODEV;
	if (r < 0)
		return r;
	/* A private copy: whatever libblkid flushes lands in memory. */
	fd = memfd_create("halo-blkid", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		return -EIO;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (blkid_get_cache(&cache, path) < 0)
		return -EIO;

	it = blkid_dev_iterate_begin(cache);
	if (!it)
		return -ENOMEM;
	if (blkid_dev_set_search(it, tag, value) != 0) {
		blkid_dev_iterate_end(it);
		return -ENOMEM;
	}
	while (!found && blkid_dev_next(it, &dev) == 0) {
		blkid_dev v = blkid_verify(cache, dev);

		if (v && blkid_dev_has_tag(v, tag, value))
			found = strdup(blkid_dev_devname(v));
	}
	blkid_dev_iterate_end(it);
	if (!found)
		return -ENODEV;
	*ret_dev = found;
	return 0;
}

int halo_blkid_resolve(struct halo_ctx *ctx, const char *spec, char **ret_dev)
{
	size_t n = tag_len(spec);
	_cleanup_free_ char *tag = NULL;
	char *dev;

	if (!n)
		return -EINVAL;
	if (ctx->under_root) {
		tag = strndup(spec, n);
		if (!tag)
			return -ENOMEM;
		return resolve_in_root(ctx, tag, spec + n + 1, ret_dev);
	}
	dev = blkid_evaluate_tag(spec, NULL, NULL);
	if (!dev)
		return -ENODEV;
	*ret_dev = dev;
	return 0;
}

static void free_probep(blkid_probe *p)
{
	if (*p)
		blkid_free_probe(*p);
}

/* The file system type on FD: 0 with *ret_type (NULL: no signature). */
static int probe_fd(int fd, char **ret_type)
{
	_cleanup_(free_probep) blkid_probe pr = blkid_new_probe();
	const char *type = NULL;
	int r;

	if (!pr)
		return -ENOMEM;
	if (blkid_probe_set_device(pr, fd, 0, 0) < 0 ||
	    blkid_probe_enable_superblocks(pr, 1) < 0 ||
	    blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE) < 0)
		return -EIO;
	r = blkid_do_safeprobe(pr);
	if (r == 1 || r == -2) { /* nothing, or two signatures: no one type */
		*ret_type = NULL;
		return 0;
	}
	if (r < 0)
		return -EIO;
	if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) < 0 || !type) {
		*ret_type = NULL;
		return 0;
	}
	*ret_type = strdup(type);
	return *ret_type ? 0 : -ENOMEM;
}

void halo_blkid_found_free(struct halo_blkid_found *f)
{
	free(f->dev);
	free(f->type);
	f->dev = f->type = NULL;
}

int halo_blkid_find(struct halo_ctx *ctx, const char *spec,
		    struct halo_blkid_found *ret)
{
	_cleanup_free_ char *dev = NULL, *type = NULL;
	_cleanup_close_ int fd = -1;
	struct stat st;
	int r;

	if (halo_blkid_is_tag(spec)) {
		r = halo_blkid_resolve(ctx, spec, &dev);
		if (r < 0)
			return r;
		/* The device a tag names is the host's (as the cache
		 * entry's own re-probe opened it). */
		fd = open(dev, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			return errno == ENOENT ? -ENODEV : -errno;
	} else {
		if (spec[0] != '/')
			return -EINVAL;
		dev = strdup(spec);
		if (!dev)
			return -ENOMEM;
		/* Symlinks followed inside the root (/dev/disk/by-*). */
		r = halo_root_openat(ctx, spec, O_RDONLY | O_NONBLOCK, 0, &fd);
		if (r == -ENOENT)
			return -ENODEV;
		if (r < 0)
			return r;
	}
	r = probe_fd(fd, &type);
	if (r < 0)
		return r;
	ret->rdev = fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) ? st.st_rdev : 0;
	ret->dev = TAKE_PTR(dev);
	ret->type = TAKE_PTR(type);
	return 0;
}
