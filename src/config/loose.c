/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loose.c: values of Ansible's config_data, typed loosely: YAML and
 * Jinja2 make "9000" and "yes" as often as 9000 and true.
 */
#include <errno.h>
#include <stdlib.h>
#include <strings.h>

#include "config/loose.h"

bool halo_loose_int(const char *s, int64_t *ret)
{
	const char *d = s[0] == '-' ? s + 1 : s;
	char *end;
	long long v;

	/* Decimal digits only: no blanks, no "+", no hex, no "1e3". */
	if (!d[0])
		return false;
	for (const char *c = d; *c; c++)
		if (*c < '0' || *c > '9')
			return false;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end)
		return false;
	if (ret)
		*ret = v;
	return true;
}

int halo_loose_bool(const char *s)
{
	if (strcasecmp(s, "true") == 0 || strcasecmp(s, "yes") == 0)
		return 1;
	if (strcasecmp(s, "false") == 0 || strcasecmp(s, "no") == 0)
		return 0;
	return -1;
}
