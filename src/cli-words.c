/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli-words.c: options written with one dash where two were meant (see
 * cli-words.h). getopt reads "-check" as "-c heck" and the run then fails
 * on a config file nobody named; the operator meant --check. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli-words.h"
#include "halo.h"
#include "util/strv.h"

static const struct option *long_named(const struct option *opts, const char *name, size_t len)
{
	for (const struct option *o = opts; o->name; o++)
		if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
			return o;
	return NULL;
}

/* WORD (after its dash) read as getopt reads a run of short options: true
 * when every letter is one of SHORTS up to the first that takes an
 * argument; *TAKES_NEXT when that argument is the next element. */
static bool short_run(const char *word, const char *shorts, bool *takes_next)
{
	*takes_next = false;
	for (const char *p = word; *p; p++) {
		const char *s = *p != ':' ? strchr(shorts, *p) : NULL;

		if (!s)
			return false;
		if (s[1] == ':') {
			*takes_next = p[1] == '\0';
			return true;
		}
	}
	return true;
}

int halo_cli_one_dash_word(int argc, char *argv[], const struct option *opts,
			   const char *shorts, char **ret_error)
{
	const char *names[HALO_CLI_MAX_OPTIONS + 1];

	*ret_error = NULL;
	halo_cli_option_names(opts, names);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *word = a + 1, *near = NULL;
		size_t len = strcspn(word, "=");
		bool takes_next, valid;

		if (a[0] != '-' || a[1] == '\0' || strcmp(a, "--") == 0)
			break;
		if (a[1] == '-') {
			const struct option *o = long_named(opts, a + 2, strcspn(a + 2, "="));

			if (o && o->has_arg == required_argument && !strchr(a, '='))
				i++;
			continue;
		}
		const struct option *exact = len > 1 ? long_named(opts, word, len) : NULL;

		valid = short_run(word, shorts, &takes_next);
		if (exact) {
			near = exact->name;
		} else if (len > 1 && !valid) {
			_cleanup_free_ char *name = strndup(word, len);

			if (!name)
				return -ENOMEM;
			near = halo_suggest(name, names);
		}
		if (near) {
			*ret_error = halo_strdup_printf("unknown option '%.*s' (did you mean --%s?)",
							(int)len + 1, a, near);
			return *ret_error ? -EINVAL : -ENOMEM;
		}
		if (!valid)
			break; /* getopt names the letter */
		if (takes_next)
			i++;
	}
	return 0;
}

size_t halo_cli_option_names(const struct option *opts, const char **names)
{
	size_t n = 0;

	for (const struct option *o = opts; o->name && n < HALO_CLI_MAX_OPTIONS; o++)
		names[n++] = o->name;
	names[n] = NULL;
	return n;
}

char *halo_cli_unknown_long(const struct option *opts, const char *name, size_t len)
{
	const char *names[HALO_CLI_MAX_OPTIONS + 1];
	_cleanup_free_ char *word = strndup(name, len);
	const char *near;

	if (!word)
		return NULL;
	halo_cli_option_names(opts, names);
	near = halo_suggest(word, names);
	if (near)
		return halo_strdup_printf("unknown option '--%s' (did you mean --%s?)", word, near);
	return halo_strdup_printf("unknown option '--%s'", word);
}

const char *halo_cli_glued_near(const char *word, const struct option *opts)
{
	const char *names[HALO_CLI_MAX_OPTIONS + 1];

	halo_cli_option_names(opts, names);
	return word[0] == '-' && word[1] != '-' ? halo_suggest(word + 1, names) : NULL;
}

int halo_cli_short_near(int letter, const char *shorts)
{
	int other;

	/* getopt hands a byte past ASCII over as a negative char. */
	if (letter <= 0 || letter > 127)
		return 0;
	other = isupper(letter) ? tolower(letter) : toupper(letter);
	return other != letter && other != ':' && strchr(shorts, other) ? other : 0;
}
