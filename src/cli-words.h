/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli-words.h: options written with one dash where two were meant. */
#pragma once

#include <getopt.h>
#include <stddef.h>

/* The most long options a command line has (the name lists below are
 * kept on the stack). */
#define HALO_CLI_MAX_OPTIONS 32

/* The names of OPTS (at most HALO_CLI_MAX_OPTIONS) into NAMES,
 * NULL-terminated, for halo_suggest; their number. */
size_t halo_cli_option_names(const struct option *opts, const char **names);

/* "unknown option '--NAME'" (NAME: the LEN bytes at NAME), with the
 * nearest of OPTS when one is close enough (the same rule as the config
 * file's keys: halo_suggest). Caller frees; NULL on ENOMEM. */
char *halo_cli_unknown_long(const struct option *opts, const char *name, size_t len);

/* The first element of ARGV, among the options getopt_long will read
 * ("+": up to the first non-option or "--", short options SHORTS), that
 * is a long option written with one dash: "-check" (which getopt would
 * take for -c heck, a config file named "heck"), "-json", "-jsno". 0 and
 * *RET_ERROR NULL when there is none; -EINVAL with *RET_ERROR "unknown
 * option '-check' (did you mean --check?)"; -ENOMEM. A word that is a
 * valid run of short options and no long option's name ("-qv", "-cFILE")
 * is left to getopt. */
int halo_cli_one_dash_word(int argc, char *argv[], const struct option *opts,
			   const char *shorts, char **ret_error);

/* The long option of OPTS that WORD, read by getopt as -c with its value
 * glued on ("-chek": -c hek), was probably meant to be ("check"), or
 * NULL. Named only when no such config file exists: a file may have any
 * name. */
const char *halo_cli_glued_near(const char *word, const struct option *opts);

/* The nearest short option in SHORTS to the unknown LETTER: the same
 * letter in the other case ('Q': 'q'), else 0. */
int halo_cli_short_near(int letter, const char *shorts);
