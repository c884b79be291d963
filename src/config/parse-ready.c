/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse-ready.c: ready = { kernel_min; uma_max_mib; }, the readiness
 * thresholds (src/ready). */
#include <string.h>

#include "config/parse-common.h"
#include "config/sections.h"
#include "config/kernel-version.h"

static const char *const ready_keys[] = { "kernel_min", "uma_max_mib", NULL };

void halo_parse_ready(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c)
{
	struct halo_ready_config *r = &c->ready;
	const struct halo_cset *g;
	_cleanup_free_ char *kmin = NULL;
	const char *end = NULL;
	unsigned v[3];
	int64_t mib;
	int line = 0;
	char q[96];

	if (halo_pget_group(p, root, "", "ready", ready_keys, &g) <= 0)
		return;
	r->present = true;
	r->line = halo_cset_line(g);
	if (halo_pget_string(p, g, "ready", "kernel_min", &kmin, &line) > 0) {
		if (halo_kernel_version_parse(kmin, v, &end) < 0 || *end)
			halo_perr(p, line, "ready.kernel_min: %s is not a kernel version "
				  "(\"6.18.4\")", halo_pquote(kmin, q, sizeof(q)));
		else
			memcpy(r->kernel_min, v, sizeof(v));
	}
	/* At least 1 MiB: 0 would flag every card. */
	if (halo_pget_int(p, g, "ready", "uma_max_mib", 1, INT64_C(1) << 30, &mib, NULL) > 0)
		r->uma_max_mib = (uint64_t)mib;
}
