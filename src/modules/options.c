/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options.c: module option values compared the way the kernel reads them
 * (kernel/params.c: param_set_bool, param_set_uint, ...). The option
 * strings are split by the config loader (config/module-options.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "modules/internal.h"
#include "util/strv.h"

char *halo_modname_dup(const char *s)
{
	char *d = strdup(s);

	if (d)
		halo_name_normalize(d);
	return d;
}

/* kstrtobool's reading, which param_set_bool uses. 1/0 true/false, -1. */
static int parse_bool(const char *s)
{
	if (!s)
		return 1; /* a bare flag sets a bool */
	switch (s[0]) {
	case 'y': case 'Y': case '1': case 't': case 'T': case 'e': case 'E':
		return 1;
	case 'n': case 'N': case '0': case 'f': case 'F': case 'd': case 'D':
		return 0;
	case 'o': case 'O':
		if (s[1] == 'n' || s[1] == 'N')
			return 1;
		if (s[1] == 'f' || s[1] == 'F')
			return 0;
		break;
	}
	return -1;
}

static bool is_int_type(const char *t)
{
	static const char *const types[] = { "byte", "short", "ushort", "int",
					     "uint", "long", "ulong", "ullong",
					     "hexint", NULL };

	for (size_t i = 0; types[i]; i++)
		if (strcmp(t, types[i]) == 0)
			return true;
	return false;
}

bool halo_modopt_matches(const char *type, const char *wanted, const char *live)
{
	if (!live)
		return false;
	if (type && (strcmp(type, "bool") == 0 || strcmp(type, "invbool") == 0)) {
		int w = parse_bool(wanted), l = parse_bool(live);

		return w >= 0 && w == l;
	}
	if (!wanted)
		return false;
	if (type && is_int_type(type)) {
		char *e1, *e2;
		long long a = strtoll(wanted, &e1, 0), b = strtoll(live, &e2, 0);

		/* ulong values above LLONG_MAX: compare unsigned. */
		if (wanted[0] != '-' && live[0] != '-') {
			unsigned long long ua = strtoull(wanted, &e1, 0);
			unsigned long long ub = strtoull(live, &e2, 0);

			return !*e1 && !*e2 && e1 != wanted && ua == ub;
		}
		return !*e1 && !*e2 && e1 != wanted && a == b;
	}
	return strcmp(wanted, live) == 0;
}
