/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-modopts.c: module option strings (src/modules/options.c), the
 * config's `options` and the live /sys/module/<m>/parameters/<p> values
 * they are compared with. Input: OPTIONS \0 TYPE \0 WANTED \0 LIVE.
 *
 * Properties: parsed keys are non-empty, normalized ('_', never '-') and
 * free of quotes; values have their quotes removed; a comparison of a
 * value with itself holds for string parameters.
 */
#include "config.h"

#include "fuzz/fuzz.h"
#include "modules/internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *part[4];
	struct halo_modopt *o = NULL;
	size_t n = 0;
	int r;

	fuzz_split(data, size, part, 4);
	r = halo_modopts_parse(part[0], &o, &n);
	if (r == 0) {
		for (size_t i = 0; i < n; i++) {
			FUZZ_CHECK(o[i].key && o[i].key[0]);
			FUZZ_CHECK(!strchr(o[i].key, '-') && !strchr(o[i].key, '"'));
			FUZZ_CHECK(!o[i].value || !strchr(o[i].value, '"'));
		}
		halo_modopts_free(o, n);
	}
	if (part[1] && part[2]) {
		const char *live = part[3];

		(void)halo_modopt_matches(part[1], part[2], live);
		(void)halo_modopt_matches(NULL, part[2], live);
		(void)halo_modopt_matches(part[1], NULL, live);
		FUZZ_CHECK(halo_modopt_matches("charp", part[2], part[2]));
		FUZZ_CHECK(halo_modopt_matches(NULL, part[2], part[2]));
	}
	{
		char *d = halo_modname_dup(part[0]);

		FUZZ_CHECK(d && !strchr(d, '-'));
		free(d);
	}
	fuzz_parts_free(part, 4);
	return 0;
}
