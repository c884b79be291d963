/* SPDX-License-Identifier: GPL-2.0-or-later */
/* load.h: the loader's entry for config_data (load-json.c). */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "config/halo-config.h"

/* The text of a config named NAME (LEN bytes) → *RET. LOOSE: values of
 * config_data (strings for integers and booleans); LINE_PATHS: the JSON
 * path of each line, which messages show (the table moves into the
 * config on success, and is freed by the caller otherwise). */
int halo_config_load_text(const char *name, const char *text, size_t len, bool loose,
			  char ***line_paths, size_t n_line_paths,
			  struct halo_config **ret, struct halo_errors *errs);
