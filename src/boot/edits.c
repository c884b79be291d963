/* SPDX-License-Identifier: GPL-2.0-or-later */
/* edits.c: reading the files a backend edits, and the list of edits. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "boot/bootint.h"
#include "util/rootfs.h"
#include "util/strv.h"

char *boot_where(struct halo_ctx *ctx, const char *path, unsigned line)
{
	_cleanup_free_ char *shown = halo_root_display_path(ctx, path);

	if (!shown)
		return NULL;
	if (line)
		return halo_strdup_printf("%s:%u", shown, line);
	return TAKE_PTR(shown);
}

int boot_read_target(struct halo_ctx *ctx, const char *path,
		     mode_t default_mode, char **ret_text, mode_t *ret_mode,
		     struct halo_errors *errs)
{
	_cleanup_free_ char *where = boot_where(ctx, path, 0);
	struct stat st;
	char *text = NULL;
	size_t len;
	int r;

	if (!where)
		return -ENOMEM;
	r = halo_root_lstat(ctx, path, &st);
	if (r == -ENOENT) {
		*ret_text = NULL;
		*ret_mode = default_mode;
		return 0;
	}
	if (r < 0) {
		halo_errors_add(errs, "%s: %s", where, strerror(-r));
		return -EINVAL;
	}
	if (S_ISLNK(st.st_mode)) {
		halo_errors_add(errs, "%s: is a symlink; refusing to manage it",
				where);
		return -EINVAL;
	}
	if (!S_ISREG(st.st_mode)) {
		halo_errors_add(errs, "%s: %s, not a regular file", where, halo_file_kind(st.st_mode));
		return -EINVAL;
	}
	r = halo_read_file(ctx, path, &text, &len);
	if (r < 0) {
		halo_errors_add(errs, "%s: %s", where, halo_root_strerror(r));
		return -EINVAL;
	}
	if (strlen(text) != len) {
		free(text);
		halo_errors_add(errs, "%s: contains a NUL byte", where);
		return -EINVAL;
	}
	*ret_text = text;
	*ret_mode = st.st_mode & 07777;
	return 0;
}

int boot_edits_add(struct boot_edits *edits, const char *path, char *old,
		   char *content, mode_t mode, char **result)
{
	struct boot_edit *v = realloc(edits->v, (edits->n + 1) * sizeof(*v));
	char *p = strdup(path);

	if (!v || !p) {
		if (v)
			edits->v = v;
		free(p);
		free(old);
		free(content);
		halo_strv_free(result);
		return -ENOMEM;
	}
	edits->v = v;
	v[edits->n++] = (struct boot_edit){
		.path = p,
		.old = old,
		.content = content,
		.mode = mode,
		.result = result,
	};
	return 0;
}

void boot_edits_free(struct boot_edits *edits)
{
	for (size_t i = 0; i < edits->n; i++) {
		free(edits->v[i].path);
		free(edits->v[i].old);
		free(edits->v[i].content);
		halo_strv_free(edits->v[i].result);
		free(edits->v[i].note);
	}
	free(edits->v);
	boot_record_free(&edits->rec);
	*edits = (struct boot_edits){ 0 };
}
