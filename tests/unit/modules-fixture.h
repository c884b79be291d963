/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * modules-fixture.h: the module trees of the modules unit tests, made by
 * tests/fixtures/modules/mkfixture.sh (real ELF objects, indexes made by
 * depmod) under a temporary directory, and removed with it.
 */
#pragma once

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>

#define REL "6.99.0-halo"

static int fixture_rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	return remove(p);
}

/* mkfixture.sh ROOT REL EXTRA ("", "dkms", "bulk=N"); 0 or -1. */
_unused_ static int fixture_build(const char *root, const char *extra)
{
	const char *srcdir = getenv("top_srcdir");
	char cmd[1024];

	if (!srcdir)
		srcdir = HALO_TOP_SRCDIR;
	snprintf(cmd, sizeof(cmd), "'%s/tests/fixtures/modules/mkfixture.sh' '%s' %s %s >/dev/null 2>&1",
		 srcdir, root, REL, extra);
	return system(cmd) == 0 ? 0 : -1;
}

/* Removes DIR and everything below it. */
_unused_ static int fixture_remove(const char *dir)
{
	return nftw(dir, fixture_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}
