/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * persist.c: the two drop-ins that make the modules section survive a
 * reboot. systemd-modules-load reads /etc/modules-load.d (one module a
 * line); modprobe, udev's autoloading and systemd-modules-load all read
 * /etc/modprobe.d ("options" and "blacklist" lines).
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "modules/internal.h"
#include "util/strv.h"

static void put_name(struct halo_buf *b, const char *prefix, const char *name)
{
	_cleanup_free_ char *n = halo_modname_dup(name);

	if (!n) {
		b->oom = true;
		return;
	}
	halo_buf_printf(b, "%s%s", prefix, n);
}

/* Re-rendered from the parsed words, so the line is exactly what the
 * kernel will be given, whatever spacing or newlines the config had. */
static int put_options(struct halo_buf *b, const struct halo_module_option *o)
{
	struct halo_modopt *opts;
	size_t n;
	int r;

	r = halo_modopts_parse(o->options, &opts, &n);
	if (r < 0)
		return r;
	if (n > 0) {
		put_name(b, "options ", o->module);
		for (size_t i = 0; i < n; i++) {
			halo_buf_printf(b, " %s", opts[i].key);
			if (opts[i].value && strpbrk(opts[i].value, " \t"))
				halo_buf_printf(b, "=\"%s\"", opts[i].value);
			else if (opts[i].value)
				halo_buf_printf(b, "=%s", opts[i].value);
		}
		halo_buf_puts(b, "\n");
	}
	halo_modopts_free(opts, n);
	return 0;
}

int halo_modules_render(const struct halo_modules_config *mc,
			char **ret_load, char **ret_modprobe)
{
	struct halo_buf load = { 0 }, mp = { 0 };
	char *l = NULL, *m = NULL;
	int r = -ENOMEM;

	if (!mc->persist) {
		*ret_load = *ret_modprobe = NULL;
		return 0;
	}
	if (mc->load.n > 0) {
		halo_buf_puts(&load, HALO_MANAGED_HEADER);
		halo_buf_puts(&load, "# Kernel modules loaded at boot (systemd-modules-load).\n");
		for (size_t i = 0; i < mc->load.n; i++) {
			put_name(&load, "", mc->load.v[i]);
			halo_buf_puts(&load, "\n");
		}
		l = halo_buf_steal(&load);
		if (!l)
			goto fail;
	}
	if (mc->n_options > 0 || mc->blacklist.n > 0) {
		halo_buf_puts(&mp, HALO_MANAGED_HEADER);
		for (size_t i = 0; i < mc->n_options; i++) {
			r = put_options(&mp, &mc->options[i]);
			if (r < 0)
				goto fail;
			r = -ENOMEM;
		}
		for (size_t i = 0; i < mc->blacklist.n; i++) {
			put_name(&mp, "blacklist ", mc->blacklist.v[i]);
			halo_buf_puts(&mp, "\n");
		}
		m = halo_buf_steal(&mp);
		if (!m)
			goto fail;
	}
	*ret_load = l;
	*ret_modprobe = m;
	return 0;
fail:
	halo_buf_free(&load);
	halo_buf_free(&mp);
	free(l);
	return r;
}
