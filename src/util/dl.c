/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dl.c: optional libraries opened on first use (see dl.h). */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <string.h>

#include "util/dl.h"

static void clear_table(const struct halo_dl *dl)
{
	for (size_t i = 0; i < dl->n_syms; i++)
		*dl->syms[i].fn = NULL;
}

void halo_dl_close(struct halo_dl *dl)
{
	if (!dl->handle)
		return;
	clear_table(dl);
	dlclose(dl->handle);
	dl->handle = NULL;
}

static char *why_dlerror(const char *fallback)
{
	const char *e = dlerror();

	return strdup(e ? e : fallback);
}

int halo_dl_open(struct halo_dl *dl, char **ret_why)
{
	void *h;

	if (dl->handle)
		return 0;
	/* RTLD_NOW: a library that lacks a function its own code needs fails
	 * here, not in the middle of an apply. */
	h = dlopen(dl->soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		*ret_why = why_dlerror(dl->soname);
		return *ret_why ? -ELIBACC : -ENOMEM;
	}
	for (size_t i = 0; i < dl->n_syms; i++) {
		void *p;

		dlerror();
		p = dlsym(h, dl->syms[i].name);
		if (!p) {
			*ret_why = why_dlerror(dl->syms[i].name);
			clear_table(dl);
			dlclose(h);
			return *ret_why ? -ELIBBAD : -ENOMEM;
		}
		/* POSIX: a data pointer from dlsym converts to a function's. */
		*dl->syms[i].fn = (void (*)(void))p;
	}
	dl->handle = h;
	return 0;
}
