/* SPDX-License-Identifier: GPL-2.0-or-later */
/* device-spec.c: a device named by path or tag (device-spec.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config/check.h"
#include "config/device-spec.h"
#include "halo.h"

/* Indexed by enum halo_device_tag. */
static const char *const tag_names[] = {
	[HALO_DEVICE_PATH] = NULL,
	[HALO_DEVICE_LABEL] = "LABEL",
	[HALO_DEVICE_UUID] = "UUID",
	[HALO_DEVICE_PARTLABEL] = "PARTLABEL",
	[HALO_DEVICE_PARTUUID] = "PARTUUID",
};

const char *halo_device_tag_name(enum halo_device_tag tag)
{
	return (size_t)tag < ARRAY_SIZE(tag_names) ? tag_names[tag] : NULL;
}

enum halo_device_tag halo_device_tag_of(const char *spec, const char **ret_value)
{
	for (size_t i = HALO_DEVICE_LABEL; i < ARRAY_SIZE(tag_names); i++) {
		size_t n = strlen(tag_names[i]);

		if (strncmp(spec, tag_names[i], n) == 0 && spec[n] == '=') {
			*ret_value = spec + n + 1;
			return (enum halo_device_tag)i;
		}
	}
	*ret_value = spec;
	return HALO_DEVICE_PATH;
}

static const char *check(const char *s, enum halo_device_tag tag, const char *value)
{
	const char *why;

	if (tag != HALO_DEVICE_PATH)
		return halo_check_word(value) ?
			"has an empty or unusable value (no whitespace, quotes or control characters)" :
			NULL;
	if (strncmp(s, "/dev/", 5) != 0)
		return "is not LABEL=, UUID=, PARTUUID=, PARTLABEL= or a /dev/ path";
	why = halo_check_abs_path(s);
	if (why)
		return why;
	/* What= of the unit: whitespace would be trimmed or split, a
	 * trailing backslash continues the line. */
	if (strpbrk(s, " \t") || s[strlen(s) - 1] == '\\')
		return "is not a usable device path (whitespace or a trailing backslash)";
	return NULL;
}

int halo_device_spec_parse(const char *text, int line, struct halo_device_spec *ret,
			   const char **ret_why)
{
	struct halo_device_spec s = { .line = line };
	const char *value;

	s.tag = halo_device_tag_of(text, &value);
	*ret_why = check(text, s.tag, value);
	if (*ret_why)
		return -EINVAL;
	s.value = strdup(value);
	s.text = strdup(text);
	if (!s.value || !s.text) {
		halo_device_spec_clear(&s);
		return -ENOMEM;
	}
	*ret = s;
	return 0;
}

void halo_device_spec_clear(struct halo_device_spec *s)
{
	free(s->value);
	free(s->text);
	s->value = s->text = NULL;
}
