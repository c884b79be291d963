/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reboot.c: Debian's reboot-required flag files (update-notifier, needrestart
 * and motd read them). Other packages may have listed themselves in .pkgs
 * already: keep their lines, add ours once. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "engine/state.h"
#include "util/rootfs.h"
#include "util/strv.h"

#define REBOOT_FLAG "/run/reboot-required"
#define REBOOT_PKGS "/run/reboot-required.pkgs"

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; p && *p;) {
		if (strncmp(p, line, n) == 0 && (p[n] == '\n' || p[n] == '\0'))
			return true;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return false;
}

int halo_reboot_required_write(struct halo_ctx *ctx)
{
	static const char flag[] = "*** System restart required ***\n";
	_cleanup_free_ char *pkgs = NULL, *text = NULL;
	size_t len = 0;
	int r, written = 0;

	r = halo_root_exists(ctx, REBOOT_FLAG);
	if (r < 0)
		return r;
	if (r == 0) {
		r = halo_write_file_atomic(ctx, REBOOT_FLAG, flag, strlen(flag), 0644);
		if (r < 0)
			return r;
		written |= r;
	}

	r = halo_read_file(ctx, REBOOT_PKGS, &pkgs, &len);
	if (r < 0 && r != -ENOENT)
		return r;
	if (r == -ENOENT || !has_line(pkgs, PACKAGE_NAME)) {
		text = halo_strdup_printf("%s%s%s\n", pkgs ? pkgs : "",
					  len && pkgs[len - 1] != '\n' ? "\n" : "",
					  PACKAGE_NAME);
		if (!text)
			return -ENOMEM;
		r = halo_write_file_atomic(ctx, REBOOT_PKGS, text, strlen(text), 0644);
		if (r < 0)
			return r;
		written |= r;
	}
	return written;
}
