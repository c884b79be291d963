/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shellquote.h: a command shown for an operator to paste into a shell.
 *
 * Each argument becomes one POSIX shell word: left as it is when it is
 * made only of characters no shell treats specially (letters, digits and
 * _ - . , / : = + @ %, with no '=' in the command name, where it would
 * read as an assignment), else in single quotes, a single quote inside
 * written as '\''. The empty argument is ''.
 */
#pragma once

#include "halo.h"

/* One argument as a shell word (caller frees); NULL on ENOMEM. FIRST: it
 * is the command name. */
char *halo_shell_quote(const char *arg, bool first);

/* ARGV (NULL-terminated) as one pasteable command line (caller frees);
 * NULL on ENOMEM. */
char *halo_shell_join(char *const *argv);
