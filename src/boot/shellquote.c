/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shellquote.c: commands shown for pasting (see shellquote.h). */
#include "config.h"

#include <string.h>

#include "boot/shellquote.h"
#include "util/strv.h"

static bool plain(const char *arg, bool first)
{
	if (!*arg)
		return false;
	for (const char *c = arg; *c; c++) {
		bool ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			  (*c >= '0' && *c <= '9') || strchr("_-.,/:+@%", *c) ||
			  (*c == '=' && !first);

		if (!ok)
			return false;
	}
	return true;
}

char *halo_shell_quote(const char *arg, bool first)
{
	struct halo_buf b = { 0 };

	if (plain(arg, first))
		return strdup(arg);
	halo_buf_puts(&b, "'");
	for (const char *c = arg; *c; c++) {
		if (*c == '\'')
			halo_buf_puts(&b, "'\\''");
		else
			halo_buf_append(&b, c, 1);
	}
	halo_buf_puts(&b, "'");
	return halo_buf_steal(&b);
}

char *halo_shell_join(char *const *argv)
{
	struct halo_buf b = { 0 };

	halo_buf_puts(&b, "");
	for (size_t i = 0; argv && argv[i]; i++) {
		_cleanup_free_ char *w = halo_shell_quote(argv[i], i == 0);

		if (!w) {
			halo_buf_free(&b);
			return NULL;
		}
		halo_buf_printf(&b, "%s%s", i ? " " : "", w);
	}
	return halo_buf_steal(&b);
}
