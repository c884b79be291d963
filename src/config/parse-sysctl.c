/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse-sysctl.c: placeholder until the sysctl section lands (issue 11). */
#include "config/internal.h"

void halo_parse_sysctl(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c)
{
	(void)p;
	(void)root;
	(void)c;
}
