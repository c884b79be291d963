/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-modinfo.c: the parameter table the modules part builds from a
 * module's modinfo (parm= and parmtype= entries, via libkmod) and the type
 * lookup on it (src/modules/kmod.c: parm_add, halo_modinfo_parm_type).
 * parm_add is static, so kmod.c is compiled into this target (the code
 * under test is unchanged; libhalo's copy is not linked, this one stands
 * for it). Input: a .modinfo section as libkmod reads it, "key=value"
 * entries separated by NUL bytes; libkmod splits each at its first '='.
 *
 * Properties: every entry is "name:type" with a normalized name that
 * appears once, and each declared parameter can be looked up.
 */
#include "../../src/modules/kmod.c"

#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	_cleanup_modinfo_ struct halo_modinfo *mi = calloc(1, sizeof(*mi));
	size_t i = 0;

	FUZZ_CHECK(mi);
	while (i < size) {
		const uint8_t *nul = memchr(data + i, 0, size - i);
		size_t len = nul ? (size_t)(nul - (data + i)) : size - i;
		const uint8_t *eq = memchr(data + i, '=', len);

		if (eq) {
			size_t klen = (size_t)(eq - (data + i));
			size_t vlen = len - klen - 1;
			/* libkmod hands out the value as its own string:
			 * exactly VLEN + 1 bytes here. */
			char *value = malloc(vlen + 1);

			FUZZ_CHECK(value);
			memcpy(value, eq + 1, vlen);
			value[vlen] = '\0';
			if (klen == 8 && memcmp(data + i, "parmtype", 8) == 0)
				FUZZ_CHECK(parm_add(mi, value, true) == 0);
			else if (klen == 4 && memcmp(data + i, "parm", 4) == 0)
				FUZZ_CHECK(parm_add(mi, value, false) == 0);
			free(value);
		}
		i += len + 1;
	}
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
