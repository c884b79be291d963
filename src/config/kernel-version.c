/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kernel-version.c: kernel release numbers ("6.18.4-200.fc43") and their
 * order (kernel-version.h). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "config/kernel-version.h"

int halo_kernel_version_parse(const char *s, unsigned ret[3], const char **ret_end)
{
	unsigned v[3] = { 0, 0, 0 };
	const char *p = s;
	int n = 0;

	while (n < 3 && isdigit((unsigned char)*p)) {
		char *end;
		unsigned long x = strtoul(p, &end, 10);

		if (x > 99999)
			return -EINVAL;
		v[n++] = (unsigned)x;
		p = end;
		/* A fourth number is left unread, its dot included. */
		if (n == 3 || *p != '.' || !isdigit((unsigned char)p[1]))
			break;
		p++;
	}
	if (n < 2)
		return -EINVAL;
	ret[0] = v[0];
	ret[1] = v[1];
	ret[2] = v[2];
	if (ret_end)
		*ret_end = p;
	return 0;
}

int halo_kernel_version_cmp(const unsigned a[3], const unsigned b[3])
{
	for (int i = 0; i < 3; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}
