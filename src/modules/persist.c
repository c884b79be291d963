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
#include "util/template.h"

static void put_name(struct halo_buf *b, const char *prefix, const char *name)
{
	_cleanup_free_ char *n = halo_modname_dup(name);

	if (!n) {
		b->oom = true;
		return;
	}
	halo_buf_puts(b, prefix);
	halo_buf_puts(b, n);
}

/* Rendered from the parsed words, so the line is exactly what the kernel
 * will be given, whatever spacing or newlines the config had. */
static void put_options(struct halo_buf *b, const struct halo_module_option *o)
{
	const struct halo_module_param *opts = o->params;

	if (o->n_params == 0)
		return;
	put_name(b, "options ", o->module);
	for (size_t i = 0; i < o->n_params; i++) {
		bool quote = opts[i].value && strpbrk(opts[i].value, " \t");

		halo_buf_puts(b, " ");
		halo_buf_puts(b, opts[i].name);
		if (!opts[i].value)
			continue;
		halo_buf_puts(b, quote ? "=\"" : "=");
		halo_buf_puts(b, opts[i].value);
		if (quote)
			halo_buf_puts(b, "\"");
	}
	halo_buf_puts(b, "\n");
}

/* Renders TEMPLATE with the lines in B as its one variable; NULL when B is
 * empty (the drop-in must then not exist). */
static int render_lines(const char *template, const char *var,
			struct halo_buf *b, char **ret)
{
	_cleanup_free_ char *lines = NULL;
	size_t len;

	if (b->len == 0 && !b->oom) {
		halo_buf_free(b);
		*ret = NULL;
		return 0;
	}
	lines = halo_buf_steal(b);
	if (!lines)
		return -ENOMEM;
	/* The template ends the last line itself. */
	len = strlen(lines);
	if (len > 0 && lines[len - 1] == '\n')
		lines[len - 1] = '\0';
	return halo_template_render(template, (const char *const[]){ var, lines, NULL }, ret);
}

int halo_modules_render(const struct halo_modules_config *mc,
			char **ret_load, char **ret_modprobe)
{
	struct halo_buf load = { 0 }, mp = { 0 };
	_cleanup_free_ char *l = NULL;
	char *m = NULL;
	int r;

	if (!mc->persist) {
		*ret_load = *ret_modprobe = NULL;
		return 0;
	}
	for (size_t i = 0; i < mc->load.n; i++) {
		put_name(&load, "", mc->load.v[i]);
		halo_buf_puts(&load, "\n");
	}
	for (size_t i = 0; i < mc->n_options; i++)
		put_options(&mp, &mc->options[i]);
	for (size_t i = 0; i < mc->blacklist.n; i++) {
		put_name(&mp, "blacklist ", mc->blacklist.v[i]);
		halo_buf_puts(&mp, "\n");
	}
	r = render_lines("modules-load.conf", "MODULES", &load, &l);
	if (r < 0)
		goto fail;
	r = render_lines("modprobe.conf", "LINES", &mp, &m);
	if (r < 0)
		goto fail;
	*ret_load = TAKE_PTR(l);
	*ret_modprobe = m;
	return 0;
fail:
	halo_buf_free(&load);
	halo_buf_free(&mp);
	return r;
}
