/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rootfs-refused.c: the reads the file layer refused (rootfs.h).
 *
 * halo_read_file never reads a FIFO, a device or a directory, and says so
 * with an error. What a caller makes of that error varies: one names the
 * file, one passes the bare errno up ("File descriptor in bad state"),
 * one takes it for "absent" (a uevent, a record). So the layer also notes
 * each refusal here, and the run (engine/run.c) makes sure every one is
 * named to the operator, in one wording, whatever the caller did.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "util/rootfs.h"
#include "util/strv.h"

/* Notes LINE (taken) for PATH once. */
static void note(const struct halo_ctx *ctx, const char *path, char *line)
{
	struct halo_refusals *r = ctx->refusals;
	char *copy, **nl, **np;

	if (!r) {
		free(line);
		return;
	}
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->paths[i], path) == 0) {
			free(line);
			return;
		}
	copy = strdup(path);
	nl = realloc(r->lines, (r->n + 1) * sizeof(*nl));
	if (nl)
		r->lines = nl;
	np = realloc(r->paths, (r->n + 1) * sizeof(*np));
	if (np)
		r->paths = np;
	if (!line || !copy || !nl || !np) {
		free(line);
		free(copy);
		r->oom = true;
		return;
	}
	r->lines[r->n] = line;
	r->paths[r->n] = copy;
	r->n++;
}

int halo_root_refused(const struct halo_ctx *ctx, const char *path, int err)
{
	if (ctx->refusals)
		note(ctx, path, halo_root_read_error(ctx, path, err));
	return err;
}

int halo_root_absent(const struct halo_ctx *ctx, const char *path)
{
	char *why = NULL;
	int r = halo_root_explain_missing(ctx, path, &why);

	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		note(ctx, path, why);
		return -ELOOP;
	}
	return -ENOENT;
}

char *halo_root_named_line(const struct halo_ctx *ctx, const char *what, const char *path,
			   const char *why)
{
	_cleanup_free_ char *shown = halo_root_display_path(ctx, path);
	const char *p = shown ? shown : path;
	size_t n = strlen(p);

	/* "<path>: a FIFO, not a regular file" names the path already. */
	if (strncmp(why, p, n) == 0 && why[n] == ':')
		return halo_strdup_printf("%s %s", what, why);
	return halo_strdup_printf("%s %s: %s", what, p, why);
}

void halo_root_refusal_name(const struct halo_ctx *ctx, const char *path, const char *what)
{
	struct halo_refusals *r = ctx->refusals;
	size_t n = strlen(what);
	char *line;

	for (size_t i = 0; r && i < r->n; i++) {
		if (strcmp(r->paths[i], path) != 0)
			continue;
		/* Named once: the file may be read again in the run. */
		if (strncmp(r->lines[i], what, n) == 0 && r->lines[i][n] == ' ')
			return;
		line = halo_root_named_line(ctx, what, path, r->lines[i]);
		if (!line) {
			r->oom = true;
			return;
		}
		free(r->lines[i]);
		r->lines[i] = line;
		return;
	}
}

long halo_refusals_find(const struct halo_refusals *r, const char *line)
{
	if (!r || r->n == 0 || !line)
		return -1;
	for (size_t i = 0; i < r->n; i++) {
		size_t n = strlen(r->paths[i]);

		/* A whole path: "/etc/default/grub" is not named by a line
		 * about "/etc/default/grub.d/x". */
		for (const char *p = strstr(line, r->paths[i]); p; p = strstr(p + 1, r->paths[i]))
			if (p[n] == '\0' || strchr(": ),;'\"", p[n]))
				return (long)i;
	}
	return strstr(line, strerror(HALO_ENOTREG)) ? (long)r->n - 1 : -1;
}

void halo_refusals_free(struct halo_refusals *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->lines[i]);
		free(r->paths[i]);
	}
	free(r->lines);
	free(r->paths);
	*r = (struct halo_refusals){ 0 };
}
