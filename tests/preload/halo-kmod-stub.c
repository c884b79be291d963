/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * halo-kmod-stub: a shared object that a test installs as libkmod.so.2 in
 * an LD_LIBRARY_PATH directory. It loads, but defines none of libkmod's
 * functions: a library that is there yet not the one halo-provision
 * needs (too old, or a wrong file), which must be refused up front with
 * a one-line error, never called.
 */
__attribute__((visibility("default"))) int halo_kmod_stub(void);

int halo_kmod_stub(void)
{
	return 0;
}
