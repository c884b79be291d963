/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-modinfo.c: the parameter table the modules part builds from a
 * module's .modinfo section (src/modules/modinfo.c: the section split as
 * libkmod splits it, parm and parmtype entries, halo_modinfo_parm_type).
 * Input: a .modinfo section, "key=value" entries separated by NUL bytes.
 *
 * Properties: every entry is "name:type" with a normalized name that
 * appears once, and each declared parameter can be looked up.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "modules/internal.h"
#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	_cleanup_modinfo_ struct halo_modinfo *mi = calloc(1, sizeof(*mi));

	FUZZ_CHECK(mi);
	FUZZ_CHECK(halo_modinfo_add_section(mi, (const char *)data, size) == 0);
	for (char **p = mi->parms; p && *p; p++) {
		const char *colon = strchr(*p, ':');
		_cleanup_free_ char *name = NULL;

		FUZZ_CHECK(colon);
		name = strndup(*p, (size_t)(colon - *p));
		FUZZ_CHECK(name && !strchr(name, '-'));
		FUZZ_CHECK(halo_modinfo_parm_type(mi, name) == colon + 1);
	}
	return 0;
}
