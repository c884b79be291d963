/* SPDX-License-Identifier: GPL-2.0-or-later */
/* levels.c: the generated and active command lines (see bootint.h). */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "boot/bootint.h"
#include "boot/cmdline.h"
#include "util/rootfs.h"
#include "util/strv.h"

int boot_read_active(struct halo_ctx *ctx, char ***ret_tokens)
{
	_cleanup_free_ char *text = NULL;
	size_t len;
	int r = halo_read_file(ctx, "/proc/cmdline", &text, &len);

	if (r < 0)
		return r;
	return halo_cmdline_split(text, ret_tokens);
}

static void levels_clear(struct boot_levels *lv)
{
	free(lv->conf_msg);
	halo_strv_free(lv->conf);
	halo_strv_free(lv->gen);
	free(lv->gen_where);
	halo_strv_free(lv->act);
	free(lv->dropin_before[0]);
	free(lv->dropin_before[1]);
	*lv = (struct boot_levels){ 0 };
}

void boot_levels_free(struct boot_levels *lv)
{
	levels_clear(lv);
}

int boot_levels_get(struct halo_ctx *ctx, struct boot_run *run,
		    const struct boot_levels **ret)
{
	struct boot_levels *lv = &run->levels;
	unsigned long stamp = ctx->files_written + ctx->spawned;

	if (!lv->valid || lv->stamp != stamp) {
		levels_clear(lv);
		lv->conf_err = run->backend->configured(ctx, lv, &lv->conf, &lv->conf_msg);
		lv->gen_err = run->backend->generated ?
				      run->backend->generated(ctx, &lv->gen, &lv->gen_where) :
				      -ENOENT;
		lv->act_err = boot_read_active(ctx, &lv->act);
		if (lv->conf_err == -ENOMEM || lv->gen_err == -ENOMEM || lv->act_err == -ENOMEM) {
			levels_clear(lv);
			return -ENOMEM;
		}
		lv->valid = true;
		lv->stamp = stamp;
	}
	*ret = lv;
	return 0;
}

const struct boot_levels *boot_levels_peek(const struct halo_ctx *ctx,
					   const struct boot_run *run)
{
	const struct boot_levels *lv = &run->levels;

	return lv->valid && lv->stamp == ctx->files_written + ctx->spawned ? lv : NULL;
}

/* Text after the first word W of a line in TEXT whose first word is one
 * of WORDS; NULL if none. Caller frees. */
static char *line_after(const char *text, const char *const *words,
			size_t n_words)
{
	for (const char *p = text; *p;) {
		const char *eol = strchrnul(p, '\n');
		const char *q = p + strspn(p, " \t");
		size_t n = strcspn(q, " \t\n");

		for (size_t i = 0; i < n_words; i++)
			if (n == strlen(words[i]) && memcmp(q, words[i], n) == 0)
				return strndup(q + n, (size_t)(eol - q - n));
		p = *eol ? eol + 1 : eol;
	}
	errno = ENOENT;
	return NULL;
}

/* A generated level that exists but cannot be read: *RET_WHERE names the
 * file (the caller's message says which one), ERR comes back. */
static int where_failed(const char *path, int err, char **ret_where)
{
	if (err == -ENOMEM)
		return err;
	*ret_where = strdup(path);
	return *ret_where ? err : -ENOMEM;
}

int boot_read_grub_cfg(struct halo_ctx *ctx, char ***ret_tokens,
		       char **ret_where)
{
	static const char *const cfgs[] = { "/boot/grub/grub.cfg",
					    "/boot/grub2/grub.cfg" };
	static const char *const linux_cmds[] = { "linux", "linuxefi",
						  "linux16" };

	for (size_t i = 0; i < ARRAY_SIZE(cfgs); i++) {
		_cleanup_free_ char *text = NULL, *line = NULL;
		_cleanup_strv_free_ char **tok = NULL;
		size_t len;
		int r = halo_read_file(ctx, cfgs[i], &text, &len);

		if (r == -ENOENT)
			continue;
		if (r < 0)
			return where_failed(cfgs[i], r, ret_where);
		line = line_after(text, linux_cmds, ARRAY_SIZE(linux_cmds));
		if (!line)
			return errno == ENOENT ? -ENOENT : -ENOMEM;
		r = halo_cmdline_split(line, &tok);
		if (r < 0)
			return r;
		/* The first word is the kernel image. */
		if (tok[0]) {
			free(tok[0]);
			memmove(tok, tok + 1, halo_strv_len(tok) * sizeof(*tok));
		}
		*ret_where = strdup(cfgs[i]);
		if (!*ret_where)
			return -ENOMEM;
		*ret_tokens = TAKE_PTR(tok);
		return 0;
	}
	return -ENOENT;
}

int boot_read_bls_default(struct halo_ctx *ctx, char ***ret_tokens,
			  char **ret_where)
{
	static const char *const version_kw[] = { "version" };
	static const char *const options_kw[] = { "options" };
	_cleanup_strv_free_ char **names = NULL;
	_cleanup_free_ char *pick = NULL, *options = NULL;
	int r = halo_root_list_dir(ctx, BOOT_BLS_ENTRIES, &names);

	if (r < 0)
		return r == -ENOENT || r == -ENOTDIR ? r :
						      where_failed(BOOT_BLS_ENTRIES, r, ret_where);
	for (size_t i = 0; names[i]; i++) {
		_cleanup_free_ char *path = NULL, *text = NULL, *ver = NULL;
		size_t n = strlen(names[i]), len;

		if (n <= 5 || strcmp(names[i] + n - 5, ".conf") != 0)
			continue;
		path = halo_strdup_printf("%s/%s", BOOT_BLS_ENTRIES, names[i]);
		if (!path)
			return -ENOMEM;
		r = halo_read_file(ctx, path, &text, &len);
		if (r < 0)
			return where_failed(path, r, ret_where);
		ver = line_after(text, version_kw, 1);
		/* Later entries win unless the running kernel's is found. */
		free(options);
		options = line_after(text, options_kw, 1);
		free(pick);
		pick = TAKE_PTR(path);
		if (ver && ctx->kernel_release) {
			char *v = ver + strspn(ver, " \t");

			v[strcspn(v, " \t")] = '\0';
			if (strcmp(v, ctx->kernel_release) == 0)
				break;
		}
	}
	if (!pick)
		return -ENOENT;
	r = halo_cmdline_split(options ? options : "", ret_tokens);
	if (r < 0)
		return r;
	*ret_where = TAKE_PTR(pick);
	return 0;
}
