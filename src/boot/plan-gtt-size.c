/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan-gtt-size.c: the GTT size of boot.gtt_mib (docs/hardware.md "GTT and TTM sizing"), checked
 * against /proc/meminfo under the root. Validation errors: /proc/meminfo
 * missing or without MemTotal, GTT above MemTotal - reserve_mib. A warning
 * above the ROCm ceiling.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "boot/bootint.h"
#include "boot/gtt.h"
#include "util/rootfs.h"
#include "util/strv.h"

int boot_plan_gtt_size(struct halo_ctx *ctx, const struct halo_config *cfg,
		    struct halo_plan *plan, struct halo_errors *errs,
		    uint64_t *ret_mib)
{
	const struct halo_boot_config *b = &cfg->boot;
	_cleanup_free_ char *text = NULL, *where = NULL;
	uint64_t kib, ram, gtt, limit, ceiling;
	size_t len;
	int r;

	*ret_mib = 0;
	if (!b->gtt_set)
		return 0;
	where = boot_where(ctx, "/proc/meminfo", 0);
	if (!where)
		return -ENOMEM;
	r = halo_read_file(ctx, "/proc/meminfo", &text, &len);
	if (r < 0) {
		halo_errors_add(errs, "%s: %s (needed for boot.gtt_mib)", where,
				r == -ENOENT ? "missing" : halo_root_strerror(r));
		return 0;
	}
	if (halo_meminfo_memtotal_kib(text, &kib) < 0) {
		halo_errors_add(errs, "%s: no MemTotal line in kB (needed for boot.gtt_mib)",
				where);
		return 0;
	}
	ram = kib / 1024;
	gtt = b->gtt_auto ? halo_gtt_auto_mib(ram, b->reserve_mib) : b->gtt_mib;
	limit = ram > b->reserve_mib ? ram - b->reserve_mib : 0;
	if (gtt == 0 || gtt > limit) {
		halo_errors_add(errs,
				"%s:%d: boot.gtt_mib %s%" PRIu64 " MiB does not fit MemTotal %" PRIu64
				" MiB minus reserve_mib %" PRIu64 " MiB (at most %" PRIu64 " MiB)",
				cfg->path, b->gtt_line ? b->gtt_line : b->line,
				b->gtt_auto ? "\"auto\" = " : "", gtt, ram, b->reserve_mib, limit);
		return 0;
	}
	ceiling = halo_gtt_ceiling_mib(ram);
	if (gtt > ceiling &&
	    halo_plan_warn(plan, "boot.gtt_mib %" PRIu64 " MiB is above what ROCm can use "
			   "(MemTotal - MemTotal/64 - 1.5 GiB = %" PRIu64 " MiB)",
			   gtt, ceiling) < 0)
		return -ENOMEM;
	*ret_mib = gtt;
	return 0;
}
