/* SPDX-License-Identifier: GPL-2.0-or-later */
/* message.h: config_data's line-to-path rewrite of messages (message.c);
 * halo_config_name and halo_config_message are in halo-config.h. */
#pragma once

#include <stddef.h>

#include "config/halo-config.h"

/* "NAME:LINE: msg" with LINE a line of generated text: "NAME: PATH: msg"
 * (or "NAME: msg" when msg already starts with PATH), and "line N" in msg
 * the path of line N. PATHS[N - 1] is the path of line N. NULL on ENOMEM. */
char *halo_config_paths_rewrite(char *const *paths, size_t n, const char *name,
				const char *msg);
