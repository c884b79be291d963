/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rootdev.c: the only file that includes libblkid (see rootdev.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <blkid/blkid.h>

#include "boot/rootdev.h"
#include "util/rootfs.h"

#define BLKID_CACHE_IN_ROOT "/run/blkid/blkid.tab"

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

bool halo_rootdev_is_tag(const char *spec)
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

	r = halo_read_file(ctx, BLKID_CACHE_IN_ROOT, &text, &len);
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

int halo_rootdev_resolve(struct halo_ctx *ctx, const char *spec,
			 char **ret_dev)
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
