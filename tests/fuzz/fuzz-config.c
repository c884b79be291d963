/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-config.c: the config loader (halo_config_load_string), libconfig
 * parse, schema walk and validation, on arbitrary text. Besides the
 * sanitizers it checks the loader's contract (config.h): a config and no
 * errors, or no config, an error code and errors that each start with
 * "NAME:LINE: ".
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>

#include "config/config.h"
#include "fuzz/fuzz.h"

#define NAME "fuzz.conf"

static void check_message(const char *msg, unsigned lines)
{
	const char *p = msg;
	unsigned long line;
	char *end;

	FUZZ_CHECK(strncmp(p, NAME ":", strlen(NAME ":")) == 0);
	p += strlen(NAME ":");
	FUZZ_CHECK(isdigit((unsigned char)*p));
	line = strtoul(p, &end, 10);
	FUZZ_CHECK(end[0] == ':' && end[1] == ' ');
	FUZZ_CHECK(line >= 1 && line <= lines);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	struct halo_config *cfg = NULL;
	struct halo_errors errs = { 0 };
	unsigned lines = fuzz_count_lines(text);
	int r;

	r = halo_config_load_string(NAME, text, &cfg, &errs);
	if (r == 0) {
		FUZZ_CHECK(cfg && errs.n == 0);
		FUZZ_CHECK(cfg->path && strcmp(cfg->path, NAME) == 0);
		FUZZ_CHECK(strlen(cfg->digest) == 64);
	} else {
		FUZZ_CHECK(r < 0 && !cfg);
		if (r == -EINVAL) {
			FUZZ_CHECK(errs.n > 0);
			for (size_t i = 0; i < errs.n; i++)
				check_message(errs.msgs[i], lines);
		}
	}
	halo_config_free(cfg);
	halo_errors_free(&errs);
	free(text);
	return 0;
}
