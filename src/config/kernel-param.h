/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel-param.h: one kernel command line parameter, "key=value" or a
 * flag (kernel-param.c). The key is the text before the first '=' (a
 * leading '"' is skipped, as the kernel's next_arg() does), and keys
 * compare with '-' and '_' alike, as its parameq() does (docs/hardware.md,
 * "Kernel command line"). boot.extra and boot.remove are lists of these,
 * parsed once by the loader; boot/cmdline.h splits and edits whole
 * command lines with the same rules.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

struct halo_kernel_param {
	char *key;   /* '-' read as '_': "amd_pstate" for "amd-pstate=active" */
	char *value; /* after the first '='; NULL for a flag ("quiet") */
	char *text;  /* as written, as it goes on the command line */
	int line;
};

/* A list of them (boot.extra, boot.remove). */
struct halo_kernel_params {
	struct halo_kernel_param *v;
	size_t n;
};

/* The key of command line token TOK: its length, and where it starts in
 * *RET_KEY (after a leading '"'). */
size_t halo_kernel_param_key(const char *tok, const char **ret_key);
/* True if TOK has key KEY. */
bool halo_kernel_param_has_key(const char *tok, const char *key);

/* One parameter of the config, TEXT (found at LINE) → *RET: a single
 * token with a name of letters, digits, '_', '-' and '.', no quotes (the
 * config cannot say which quoting a boot loader keeps). 0; -EINVAL with
 * the reason in *RET_WHY (static text); -ENOMEM. *RET is untouched on
 * failure. */
int halo_kernel_param_parse(const char *text, int line, struct halo_kernel_param *ret,
			    const char **ret_why);
void halo_kernel_param_clear(struct halo_kernel_param *p);
void halo_kernel_params_free(struct halo_kernel_params *l);
