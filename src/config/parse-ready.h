/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse-ready.h: the ready group's parser (parse-ready.c), for parse.c.
 * Belongs in internal.h beside the other section parsers. */
#pragma once

#include "config/internal.h"

void halo_parse_ready(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c);
