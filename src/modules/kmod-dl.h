/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kmod-dl.h: libkmod, opened on first use (util/dl.h). kmod.c calls every
 * libkmod function through the sym_ pointers declared here, so
 * halo-provision is not linked with libkmod: a run that needs no module
 * index (--version, --only links, a config without a modules section)
 * never maps it, nor the libcrypto, zstd and lzma it brings. The header
 * is still <libkmod.h>, for the prototypes and constants.
 */
#pragma once

#include <libkmod.h>

#include "halo.h"
#include "util/dl.h"

#define HALO_LIBKMOD_SONAME "libkmod.so.2"

extern HALO_DL_SYM(kmod_list_next);
extern HALO_DL_SYM(kmod_load_resources);
extern HALO_DL_SYM(kmod_module_get_dependencies);
extern HALO_DL_SYM(kmod_module_get_info);
extern HALO_DL_SYM(kmod_module_get_initstate);
extern HALO_DL_SYM(kmod_module_get_install_commands);
extern HALO_DL_SYM(kmod_module_get_module);
extern HALO_DL_SYM(kmod_module_get_name);
extern HALO_DL_SYM(kmod_module_get_path);
extern HALO_DL_SYM(kmod_module_get_softdeps);
extern HALO_DL_SYM(kmod_module_info_free_list);
extern HALO_DL_SYM(kmod_module_info_get_key);
extern HALO_DL_SYM(kmod_module_info_get_value);
extern HALO_DL_SYM(kmod_module_new_from_lookup);
extern HALO_DL_SYM(kmod_module_new_from_name);
extern HALO_DL_SYM(kmod_module_probe_insert_module);
extern HALO_DL_SYM(kmod_module_unref);
extern HALO_DL_SYM(kmod_module_unref_list);
extern HALO_DL_SYM(kmod_new);
extern HALO_DL_SYM(kmod_set_log_fn);
extern HALO_DL_SYM(kmod_unref);

/* libkmod's iteration macros call kmod_list_next by name. */
#undef kmod_list_foreach
#define kmod_list_foreach(list_entry, first_entry)                             \
	for (list_entry = first_entry; list_entry != NULL;                     \
	     list_entry = sym_kmod_list_next(first_entry, list_entry))

/*
 * Opens libkmod and resolves the table. 0 (also when already open);
 * -ELIBACC / -ELIBBAD with *ret_why set (caller frees): dlerror's line
 * followed by "(needed for the modules phase)".
 */
int halo_kmod_dl_open(char **ret_why) _must_check_;
/* Tests: closes it again, so the next open sees a changed environment. */
void halo_kmod_dl_close(void);
