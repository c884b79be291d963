/* SPDX-License-Identifier: GPL-2.0-or-later */
/* errors.h: validation errors collected across the whole run, reported at
 * once before anything changes. Each is one line, "FILE:LINE: message" for
 * the config, "ITEM-KEY: message" for a host fact. */
#pragma once

#include <stddef.h>
#include <stdio.h>

#include "halo.h"

struct halo_errors {
	char **msgs;
	size_t n, cap;
	bool oom;
};

void halo_errors_add(struct halo_errors *e, const char *fmt, ...) _printf_(2, 3);
/* Adds to the end of the last line of E (a new line when there is none):
 * what one line says, a hint says in the same line. */
void halo_errors_append(struct halo_errors *e, const char *fmt, ...) _printf_(2, 3);
void halo_errors_free(struct halo_errors *e);

/* Prints every line of E to OUT as "PROG: line", each on one line whatever
 * it holds (a path given with -c or --root may contain a newline: control
 * bytes become '?'), then a line when some could not be recorded. */
void halo_errors_print(FILE *out, const char *prog, const struct halo_errors *e);
