/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kmod-dl.c: the libkmod functions halo-provision calls (kmod-dl.h). */
#include "config.h"

#include <errno.h>

#include "modules/kmod-dl.h"
#include "util/strv.h"

HALO_DL_SYM(kmod_list_next);
HALO_DL_SYM(kmod_load_resources);
HALO_DL_SYM(kmod_module_get_dependencies);
HALO_DL_SYM(kmod_module_get_info);
HALO_DL_SYM(kmod_module_get_initstate);
HALO_DL_SYM(kmod_module_get_install_commands);
HALO_DL_SYM(kmod_module_get_module);
HALO_DL_SYM(kmod_module_get_name);
HALO_DL_SYM(kmod_module_get_path);
HALO_DL_SYM(kmod_module_get_softdeps);
HALO_DL_SYM(kmod_module_info_free_list);
HALO_DL_SYM(kmod_module_info_get_key);
HALO_DL_SYM(kmod_module_info_get_value);
HALO_DL_SYM(kmod_module_new_from_lookup);
HALO_DL_SYM(kmod_module_new_from_name);
HALO_DL_SYM(kmod_module_probe_insert_module);
HALO_DL_SYM(kmod_module_unref);
HALO_DL_SYM(kmod_module_unref_list);
HALO_DL_SYM(kmod_new);
HALO_DL_SYM(kmod_set_log_fn);
HALO_DL_SYM(kmod_unref);

static const struct halo_dl_sym kmod_syms[] = {
	HALO_DL_ENTRY(kmod_list_next),
	HALO_DL_ENTRY(kmod_load_resources),
	HALO_DL_ENTRY(kmod_module_get_dependencies),
	HALO_DL_ENTRY(kmod_module_get_info),
	HALO_DL_ENTRY(kmod_module_get_initstate),
	HALO_DL_ENTRY(kmod_module_get_install_commands),
	HALO_DL_ENTRY(kmod_module_get_module),
	HALO_DL_ENTRY(kmod_module_get_name),
	HALO_DL_ENTRY(kmod_module_get_path),
	HALO_DL_ENTRY(kmod_module_get_softdeps),
	HALO_DL_ENTRY(kmod_module_info_free_list),
	HALO_DL_ENTRY(kmod_module_info_get_key),
	HALO_DL_ENTRY(kmod_module_info_get_value),
	HALO_DL_ENTRY(kmod_module_new_from_lookup),
	HALO_DL_ENTRY(kmod_module_new_from_name),
	HALO_DL_ENTRY(kmod_module_probe_insert_module),
	HALO_DL_ENTRY(kmod_module_unref),
	HALO_DL_ENTRY(kmod_module_unref_list),
	HALO_DL_ENTRY(kmod_new),
	HALO_DL_ENTRY(kmod_set_log_fn),
	HALO_DL_ENTRY(kmod_unref),
};

static struct halo_dl libkmod = {
	.soname = HALO_LIBKMOD_SONAME,
	.syms = kmod_syms,
	.n_syms = ARRAY_SIZE(kmod_syms),
};

int halo_kmod_dl_open(char **ret_why)
{
	_cleanup_free_ char *why = NULL;
	int r;

	r = halo_dl_open(&libkmod, &why);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		*ret_why = halo_strdup_printf("%s (needed for the modules phase)", why);
		return *ret_why ? r : -ENOMEM;
	}
	return 0;
}

void halo_kmod_dl_close(void)
{
	halo_dl_close(&libkmod);
}
