/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * device-spec.h: how a config names a block device (device-spec.c): a
 * /dev path, or a tag of its file system or partition, LABEL=, UUID=,
 * PARTLABEL=, PARTUUID=, the names libblkid and udev's /dev/disk/by-*
 * links use. storage[].what is one; boot reads root= with the same tags.
 */
#pragma once

enum halo_device_tag {
	HALO_DEVICE_PATH, /* no tag: the value is a /dev path */
	HALO_DEVICE_LABEL,
	HALO_DEVICE_UUID,
	HALO_DEVICE_PARTLABEL,
	HALO_DEVICE_PARTUUID,
};

struct halo_device_spec {
	enum halo_device_tag tag;
	char *value; /* after the tag's "=", or the path */
	char *text;  /* as written: "LABEL=models" */
	int line;
};

/* The tag as libblkid spells it ("LABEL", "PARTUUID"); NULL for
 * HALO_DEVICE_PATH. */
const char *halo_device_tag_name(enum halo_device_tag tag);
/* The tag SPEC starts with ("LABEL=..."), its value (after the "=") in
 * *RET_VALUE; HALO_DEVICE_PATH and SPEC itself when it has none. The
 * value is not checked: it may be empty. */
enum halo_device_tag halo_device_tag_of(const char *spec, const char **ret_value);

/* storage[].what: a tag with a value a mount unit can carry, or a /dev
 * path. TEXT → *RET (LINE). 0; -EINVAL with the reason in *RET_WHY
 * (static text); -ENOMEM. *RET is untouched on failure. */
int halo_device_spec_parse(const char *text, int line, struct halo_device_spec *ret,
			   const char **ret_why);
void halo_device_spec_clear(struct halo_device_spec *s);
