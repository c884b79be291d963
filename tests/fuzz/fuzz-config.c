/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-config.c: the config loader (halo_config_load_string), libconfig
 * parse, schema walk and validation, on arbitrary text. Besides the
 * sanitizers it checks the loader's contract (config.h): a config and no
 * errors, or no config, an error code and errors that each start with
 * "NAME:LINE: ", and what an accepted config promises: host
 * addresses on interfaces, no output in the kernel's trees.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>

#include "config/cidr.h"
#include "config/halo-config.h"
#include "fuzz/fuzz.h"

#define NAME "fuzz.conf"

/* The line TEXT ends on, as `wc -l` counts: a final newline starts none. */
static unsigned last_line(const char *text)
{
	size_t len = strlen(text);
	unsigned newlines = fuzz_count_lines(text) - 1;

	return len == 0 || text[len - 1] != '\n' ? newlines + 1 : newlines;
}

static void check_message(const char *msg, const char *text, unsigned lines)
{
	static const char phrase[] = "(the file ends at line ";
	const char *p = msg, *ends = NULL;
	unsigned long line;
	char *end;

	/* What is left open at the end names the file's real last line:
	 * the phrase that ends the message, not a copy of it that the
	 * message quotes from the file. */
	for (const char *q = strstr(msg, phrase); q; q = strstr(q + 1, phrase))
		ends = q;
	if (ends) {
		unsigned long n = strtoul(ends + strlen(phrase), &end, 10);

		if (strcmp(end, ")") == 0)
			FUZZ_CHECK(n == last_line(text));
	}

	FUZZ_CHECK(strncmp(p, NAME ":", strlen(NAME ":")) == 0);
	p += strlen(NAME ":");
	FUZZ_CHECK(isdigit((unsigned char)*p));
	line = strtoul(p, &end, 10);
	FUZZ_CHECK(end[0] == ':' && end[1] == ' ');
	FUZZ_CHECK(line >= 1 && line <= lines);
}

static bool in_tree(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return path && strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

static void check_accepted(const struct halo_config *cfg)
{
	const char *const outputs[] = { cfg->state.path, cfg->state.prometheus,
					cfg->state.env_file };

	for (size_t i = 0; i < cfg->n_interfaces; i++) {
		const struct halo_address_list *a = &cfg->interfaces[i].addresses;

		for (size_t k = 0; k < a->n; k++) {
			struct halo_cidr c;

			/* The typed address is the text's. */
			FUZZ_CHECK(halo_cidr_parse(a->v[k].text, true, &c) == 0);
			FUZZ_CHECK(c.family == a->v[k].cidr.family &&
				   c.prefixlen == a->v[k].cidr.prefixlen &&
				   halo_cidr_same_addr(&c, &a->v[k].cidr));
			FUZZ_CHECK(!halo_cidr_special(&c) && !halo_cidr_subnet_role(&c));
		}
	}
	for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++) {
		FUZZ_CHECK(!in_tree(outputs[i], "/proc") && !in_tree(outputs[i], "/sys") &&
			   !in_tree(outputs[i], "/dev"));
		FUZZ_CHECK(!outputs[i] || outputs[i][0] == '/');
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	struct halo_config *cfg = NULL;
	struct halo_errors errs = { 0 };
	unsigned lines = fuzz_count_lines(text);
	char digest[65];
	int r;

	r = halo_config_load_string(NAME, text, &cfg, &errs);
	if (r == 0) {
		FUZZ_CHECK(cfg && errs.n == 0);
		FUZZ_CHECK(cfg->path && strcmp(cfg->path, NAME) == 0);
		FUZZ_CHECK(strlen(halo_config_digest(cfg, digest)) == 64);
		check_accepted(cfg);
	} else {
		FUZZ_CHECK(r < 0 && !cfg);
		if (r == -EINVAL) {
			FUZZ_CHECK(errs.n > 0);
			for (size_t i = 0; i < errs.n; i++)
				check_message(errs.msgs[i], text, lines);
		}
	}
	halo_config_free(cfg);
	halo_errors_free(&errs);
	free(text);
	return 0;
}
