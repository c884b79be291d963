/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-modopts.c: module option strings (src/config/module-options.c),
 * the config's `options`, and the live /sys/module/<m>/parameters/<p>
 * values they are compared with (src/modules/options.c). Input:
 * OPTIONS \0 TYPE \0 WANTED \0 LIVE.
 *
 * Properties: parsed names are non-empty, normalized ('_', never '-') and
 * free of quotes; values have their quotes removed; each word's text is
 * non-empty and found in OPTIONS; a comparison of a value with itself
 * holds for string parameters.
 */
#include "config.h"

#include "config/module-options.h"
#include "fuzz/fuzz.h"
#include "modules/internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *part[4];
	struct halo_module_param *o = NULL;
	size_t n = 0;
	int r;

	fuzz_split(data, size, part, 4);
	r = halo_module_params_parse(part[0], 1, &o, &n);
	if (r == 0) {
		for (size_t i = 0; i < n; i++) {
			FUZZ_CHECK(o[i].name && o[i].name[0]);
			FUZZ_CHECK(!strchr(o[i].name, '-') && !strchr(o[i].name, '"'));
			FUZZ_CHECK(!o[i].value || !strchr(o[i].value, '"'));
			FUZZ_CHECK(o[i].text[0] && strstr(part[0], o[i].text));
		}
		halo_module_params_free(o, n);
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
