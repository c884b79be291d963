/* SPDX-License-Identifier: GPL-2.0-or-later */
/* errors.c: the run's collected validation errors. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "util/errors.h"

/* FMT's text, or NULL with E marked incomplete. Once a message is lost
 * the list is incomplete: the flag stays, so that the caller still
 * refuses to proceed (n may be 0). */
_printf_(2, 0)
static char *format(struct halo_errors *e, const char *fmt, va_list ap)
{
	char *msg;

	if (e->oom)
		return NULL;
	if (vasprintf(&msg, fmt, ap) < 0) {
		e->oom = true;
		return NULL;
	}
	return msg;
}

/* Takes MSG as E's next line. */
static void push(struct halo_errors *e, char *msg)
{
	if (e->n == e->cap) {
		size_t cap = e->cap ? e->cap * 2 : 8;
		char **m = realloc(e->msgs, cap * sizeof(*m));

		if (!m) {
			free(msg);
			e->oom = true;
			return;
		}
		e->msgs = m;
		e->cap = cap;
	}
	e->msgs[e->n++] = msg;
}

void halo_errors_add(struct halo_errors *e, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = format(e, fmt, ap);
	va_end(ap);
	if (msg)
		push(e, msg);
}

void halo_errors_append(struct halo_errors *e, const char *fmt, ...)
{
	va_list ap;
	char *more, *line;

	va_start(ap, fmt);
	more = format(e, fmt, ap);
	va_end(ap);
	if (!more)
		return;
	if (e->n == 0) {
		push(e, more);
		return;
	}
	if (asprintf(&line, "%s%s", e->msgs[e->n - 1], more) < 0) {
		e->oom = true;
	} else {
		free(e->msgs[e->n - 1]);
		e->msgs[e->n - 1] = line;
	}
	free(more);
}

void halo_errors_free(struct halo_errors *e)
{
	for (size_t i = 0; i < e->n; i++)
		free(e->msgs[i]);
	free(e->msgs);
	*e = (struct halo_errors){ 0 };
}

void halo_errors_print(FILE *out, const char *prog, const struct halo_errors *e)
{
	for (size_t i = 0; i < e->n; i++) {
		fprintf(out, "%s: ", prog);
		for (const char *p = e->msgs[i]; *p; p++)
			fputc((unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p, out);
		fputc('\n', out);
	}
	if (e->oom)
		fprintf(out, "%s: out of memory (some errors were not recorded)\n", prog);
}
