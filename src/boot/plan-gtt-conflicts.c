/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan-gtt-conflicts.c: GTT parameters already on the command line that
 * disagree with the wanted size (another pages_limit, amdgpu.gttsize * 256
 * != pages) are removed; their boot/remove/<token> item shows the drift.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "boot/bootint.h"
#include "boot/cmdline.h"
#include "boot/gtt.h"
#include "util/strv.h"

static const char *const gtt_keys[] = { "ttm.pages_limit", "amdttm.pages_limit",
					"amdgpu.gttsize", NULL };

/* Tokens of TOKS that carry a GTT size other than the wanted one go,
 * unless the wanted set manages their key (MANAGED: those keys). */
static int remove_gtt_conflicts(struct boot_run *run, char *const *managed_keys,
				char *const *toks)
{
	uint64_t want = halo_gtt_pages(run->gtt_mib);

	for (size_t i = 0; toks && toks[i]; i++) {
		uint64_t pages;
		bool managed = false;

		for (size_t m = 0; managed_keys[m] && !managed; m++)
			managed = halo_kernel_param_has_key(toks[i], managed_keys[m]);
		if (managed)
			continue;
		for (size_t g = 0; gtt_keys[g]; g++)
			if (halo_kernel_param_has_key(toks[i], gtt_keys[g]) &&
			    (!halo_gtt_token_pages(toks[i], &pages) || pages != want) &&
			    !halo_strv_contains(run->want.remove, toks[i]) &&
			    halo_strv_push(&run->want.remove, toks[i]) < 0)
				return -ENOMEM;
	}
	return 0;
}

/* The keys of the wanted set, cut out once for every token of both
 * levels. */
static int managed_keys_of(const struct boot_run *run, char ***ret)
{
	_cleanup_strv_free_ char **keys = calloc(1, sizeof(char *));

	if (!keys)
		return -ENOMEM;
	for (size_t s = 0; run->want.set && run->want.set[s]; s++) {
		const char *k;
		size_t n = halo_kernel_param_key(run->want.set[s], &k);
		_cleanup_free_ char *key = strndup(k, n);

		if (!key || halo_strv_push(&keys, key) < 0)
			return -ENOMEM;
	}
	*ret = TAKE_PTR(keys);
	return 0;
}

/*
 * Existing GTT parameters that disagree with the wanted size go, from the
 * configured level and from the generated one too: once the files are
 * fixed, a boot entry that was never regenerated (grubby failed, an image
 * build) must still get its stale amdgpu.gttsize= removed.
 */
int boot_plan_gtt_conflicts(struct halo_ctx *ctx, struct boot_run *run)
{
	_cleanup_strv_free_ char **keys = NULL;
	const struct boot_levels *lv;
	int r;

	if (!run->gtt_mib)
		return 0;
	r = boot_levels_get(ctx, run, &lv);
	/* Unreadable files: the backend's own plan reports them. */
	if (r < 0 || lv->conf_err < 0)
		return r;
	r = managed_keys_of(run, &keys);
	if (r == 0)
		r = remove_gtt_conflicts(run, keys, lv->conf);
	if (r < 0 || lv->gen_err < 0)
		return r;
	return remove_gtt_conflicts(run, keys, lv->gen);
}
