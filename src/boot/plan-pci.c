/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan-pci.c: pci=realloc merged into the host's own pci= list. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "boot/bootint.h"
#include "boot/cmdline.h"
#include "util/strv.h"

/*
 * pci= takes a comma list and the kernel reads every pci= token, so
 * pci=realloc must never replace the host's pci=noaer: the wanted token is
 * the host's own options in one list, with realloc added (or taken out for
 * pci_realloc = false). Recomputed every run from the configured level,
 * where it then reads back the same.
 */
int boot_plan_pci(struct halo_ctx *ctx, const struct halo_boot_config *b,
		  struct boot_run *run)
{
	_cleanup_strv_free_ char **opts = NULL;
	_cleanup_free_ char *tok = NULL;
	const struct boot_levels *lv;
	struct halo_buf list = { 0 };
	char *const *conf;
	char **slot = NULL;
	int r;

	if (b->pci_realloc == HALO_UNSET)
		return 0;
	r = boot_levels_get(ctx, run, &lv);
	/* Unreadable files: the backend's own plan reports them. */
	if (r < 0 || lv->conf_err < 0)
		return r;
	conf = lv->conf;
	for (size_t i = 0; conf[i]; i++) {
		_cleanup_free_ char *v = NULL;
		char *save = NULL;

		if (!halo_kernel_param_has_key(conf[i], "pci") || !strchr(conf[i], '='))
			continue;
		v = strdup(strchr(conf[i], '=') + 1);
		if (!v)
			return -ENOMEM;
		for (char *o = strtok_r(v, ",", &save); o; o = strtok_r(NULL, ",", &save))
			if (strcmp(o, "realloc") != 0 && !halo_strv_contains(opts, o) &&
			    halo_strv_push(&opts, o) < 0)
				return -ENOMEM;
	}
	if (!opts)
		return 0; /* no other pci= options: pci=realloc as it is */
	for (size_t i = 0; opts[i]; i++)
		halo_buf_printf(&list, "%s%s", i ? "," : "", opts[i]);
	if (b->pci_realloc == HALO_TRUE)
		halo_buf_puts(&list, ",realloc");
	{
		_cleanup_free_ char *values = halo_buf_steal(&list);

		if (!values)
			return -ENOMEM;
		tok = halo_strdup_printf("pci=%s", values);
		if (!tok)
			return -ENOMEM;
	}
	/* Replace the plain pci=realloc wanted (or removed) by build_want. */
	for (size_t i = 0; run->want.set[i]; i++)
		if (strcmp(run->want.set[i], "pci=realloc") == 0)
			slot = &run->want.set[i];
	if (slot) {
		free(*slot);
		*slot = TAKE_PTR(tok);
		return 0;
	}
	for (size_t i = 0; run->want.remove[i]; i++)
		if (strcmp(run->want.remove[i], "pci=realloc") == 0) {
			/* Remove only realloc: the rest stays as one token. */
			free(run->want.remove[i]);
			for (size_t j = i; run->want.remove[j]; j++)
				run->want.remove[j] = run->want.remove[j + 1];
			return halo_strv_push(&run->want.set, tok);
		}
	return 0;
}
