/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dl.h: an optional shared library opened on first use (dlopen), with a
 * table of the symbols its one user calls.
 *
 * Why: a library linked into halo-provision is mapped and relocated on
 * every run, with its own dependencies (libkmod brings libcrypto, zstd and
 * lzma), even by a run that never calls it. systemd loads its optional
 * libraries the same way. The symbols are resolved all at once, so a
 * caller either gets every one of them or none (a library too old to
 * have one is refused up front, never found missing half way through).
 */
#pragma once

#include "halo.h"

struct halo_dl_sym {
	const char *name;
	void (**fn)(void); /* where the address goes */
};

/* Declares the pointer that stands for library function NAME (its
 * prototype from the library's own header): sym_NAME. */
#define HALO_DL_SYM(name) __typeof__(name) *sym_##name
/* A table entry for sym_NAME. */
#define HALO_DL_ENTRY(name) { #name, (void (**)(void)) & sym_##name }

struct halo_dl {
	const char *soname;
	const struct halo_dl_sym *syms;
	size_t n_syms;
	void *handle; /* NULL until opened */
};

/*
 * Opens DL->soname (once per process: a later call returns 0 at once) and
 * fills every pointer of the table. On failure no pointer is set and the
 * library is closed again: -ELIBACC when it cannot be opened, -ELIBBAD
 * when a symbol is missing, with *ret_why set (caller frees) to dlerror's
 * one line ("libkmod.so.2: cannot open shared object file: ...").
 */
int halo_dl_open(struct halo_dl *dl, char **ret_why) _must_check_;

/* Closes the library and clears the table (tests; a run keeps it open). */
void halo_dl_close(struct halo_dl *dl);
