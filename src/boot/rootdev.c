/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rootdev.c: boot's root= resolution: the tag grammar is the config's
 * (config/device-spec.h), the libblkid work util/blkid.h's. */
#include "config.h"

#include <errno.h>

#include "boot/rootdev.h"
#include "config/device-spec.h"
#include "util/blkid.h"

bool halo_rootdev_is_tag(const char *spec)
{
	const char *value;

	return halo_device_tag_of(spec, &value) != HALO_DEVICE_PATH && value[0];
}

int halo_rootdev_resolve(struct halo_ctx *ctx, const char *spec,
			 char **ret_dev)
{
	const char *value;
	enum halo_device_tag tag = halo_device_tag_of(spec, &value);

	if (tag == HALO_DEVICE_PATH)
		return -EINVAL;
	return halo_blkid_resolve(ctx, halo_device_tag_name(tag), value, ret_dev);
}
