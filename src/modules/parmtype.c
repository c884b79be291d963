/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parmtype.c: would the kernel accept this value for a parameter of this
 * modinfo type? The rules are the kernel's setters (kernel/params.c):
 * integers through kstrto*() with base 0, bool through kstrtobool, arrays
 * element by element at ',', and a missing value ("name" without '=')
 * only for the types whose ops carry KERNEL_PARAM_OPS_FL_NOARG. A value
 * the kernel refuses makes the whole module load fail with EINVAL, so it
 * is refused here, before anything changes. Pure.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "modules/internal.h"
#include "util/strv.h"

struct int_type {
	const char *name;
	bool is_signed;
	unsigned long long max; /* for signed: the positive maximum */
	const char *range;
};

static const struct int_type int_types[] = {
	{ "byte", false, UCHAR_MAX, "0..255" },
	{ "short", true, SHRT_MAX, "-32768..32767" },
	{ "ushort", false, USHRT_MAX, "0..65535" },
	{ "int", true, INT_MAX, "-2147483648..2147483647" },
	{ "uint", false, UINT_MAX, "0..4294967295" },
	{ "hexint", false, UINT_MAX, "0..0xffffffff" },
	{ "long", true, LONG_MAX, "-9223372036854775808..9223372036854775807" },
	{ "ulong", false, ULONG_MAX, "0..18446744073709551615" },
	{ "ullong", false, ULLONG_MAX, "0..18446744073709551615" },
};

/* _kstrtoull with base 0: "0x" + hex digit is hex, a leading 0 octal,
 * else decimal; one trailing newline allowed; -ERANGE on overflow. */
static int kstrtoull0(const char *s, unsigned long long *ret)
{
	unsigned long long v = 0;
	unsigned base = 10;
	size_t n = 0;

	if (s[0] == '0') {
		if ((s[1] == 'x' || s[1] == 'X') && halo_hex_digit(s[2]) >= 0) {
			base = 16;
			s += 2;
		} else {
			base = 8;
		}
	}
	for (; *s; s++, n++) {
		int d = halo_hex_digit(*s);

		if (d < 0 || (unsigned)d >= base)
			break;
		if (v > (ULLONG_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	if (n == 0)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*ret = v;
	return 0;
}

static int check_int(const struct int_type *t, const char *s)
{
	unsigned long long v;
	bool neg = false;
	int r;

	if (t->is_signed && s[0] == '-') {
		neg = true;
		s++;
	} else if (s[0] == '+') {
		s++;
	}
	r = kstrtoull0(s, &v);
	if (r < 0)
		return r;
	/* kstrtoll: -v must stay negative, so the minimum is -(max + 1). */
	if (neg ? v > t->max + 1 : v > t->max)
		return -ERANGE;
	return 0;
}

/* kstrtobool: only the first one or two characters count. */
static bool is_bool_word(const char *s)
{
	switch (s[0]) {
	case 'y': case 'Y': case 't': case 'T': case 'e': case 'E': case '1':
	case 'n': case 'N': case 'f': case 'F': case 'd': case 'D': case '0':
		return true;
	case 'o': case 'O':
		return strchr("nNfF", s[1]) && s[1];
	}
	return false;
}

/* One value (never NULL) of a scalar type; 1 when TYPE is not one the
 * kernel defines (a custom kernel_param_ops: anything goes). */
static int check_scalar(const char *type, const char *s, const char **ret_expected)
{
	for (size_t i = 0; i < ARRAY_SIZE(int_types); i++)
		if (strcmp(type, int_types[i].name) == 0) {
			*ret_expected = int_types[i].range;
			return check_int(&int_types[i], s) < 0 ? -EINVAL : 0;
		}
	if (strcmp(type, "bool") == 0 || strcmp(type, "invbool") == 0 ||
	    strcmp(type, "bint") == 0 || strcmp(type, "bool_enable_only") == 0) {
		*ret_expected = "y/n, Y/N, 1/0, on/off, true/false";
		return is_bool_word(s) ? 0 : -EINVAL;
	}
	if (strcmp(type, "charp") == 0) {
		*ret_expected = "a string of at most 1024 characters";
		return strlen(s) > 1024 ? -EINVAL : 0;
	}
	return 1;
}

/* The types whose kernel ops set KERNEL_PARAM_OPS_FL_NOARG. */
static bool takes_no_value(const char *type)
{
	return strcmp(type, "bool") == 0 || strcmp(type, "bint") == 0 ||
	       strcmp(type, "bool_enable_only") == 0;
}

int halo_modopt_check(const char *type, const char *value, const char **ret_expected)
{
	static const char array_prefix[] = "array of ";
	const char *expected = "any value";
	int r;

	if (!type || !*type || strcmp(type, "string") == 0) {
		/* Untyped (module_param_cb) or a fixed-size string whose
		 * size modinfo does not carry: only the value's presence is
		 * known to matter, and only for strings. */
		*ret_expected = "a value";
		return !value && type && *type ? -EINVAL : 0;
	}
	if (strncmp(type, array_prefix, sizeof(array_prefix) - 1) == 0) {
		const char *elem = type + sizeof(array_prefix) - 1;

		/* param_array: at least one element, each one set with the
		 * element type (an empty one too); the maximum count is not
		 * in modinfo. */
		*ret_expected = "comma-separated values";
		if (!value)
			return -EINVAL;
		for (const char *p = value;;) {
			size_t n = strcspn(p, ",");
			char *one = strndup(p, n);

			if (!one)
				return -ENOMEM;
			r = check_scalar(elem, one, &expected);
			free(one);
			if (r < 0) {
				*ret_expected = expected;
				return r;
			}
			if (r > 0)
				return 0; /* unknown element type */
			if (!p[n])
				break;
			p += n + 1;
		}
		*ret_expected = expected;
		return 0;
	}
	if (!value) {
		/* parse_one: no value is -EINVAL unless the ops say NOARG. */
		r = check_scalar(type, "0", &expected);
		*ret_expected = expected;
		return r > 0 || takes_no_value(type) ? 0 : -EINVAL;
	}
	r = check_scalar(type, value, &expected);
	*ret_expected = expected;
	return r > 0 ? 0 : r;
}
