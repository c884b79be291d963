/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * module-options.h: a module's option string, "a=1 b=\"x y\" c", split
 * into its parameters the way the kernel splits it when the module loads
 * (kernel/params.c: parse_args, next_arg; docs/hardware.md, "Module
 * parameters") (module-options.c). The loader keeps the parameters;
 * src/modules checks them against modinfo and renders them into
 * modprobe.d.
 */
#pragma once

#include <stddef.h>

struct halo_module_param {
	char *name;  /* '-' read as '_', as parameq() does */
	char *value; /* double quotes removed; NULL for a bare flag */
	char *text;  /* the word as written: "name=\"a b\"" */
	int line;
};

/* S (found at LINE) → *RET (NULL when S has no word), *RET_N. 0; -EINVAL
 * for an unbalanced quote, an empty name ("=1") or a quote inside a name;
 * -ENOMEM. *RET and *RET_N are untouched on failure. */
int halo_module_params_parse(const char *s, int line, struct halo_module_param **ret,
			     size_t *ret_n);
/* Copies of the N parameters of V → *RET. 0 or -ENOMEM. */
int halo_module_params_copy(const struct halo_module_param *v, size_t n,
			    struct halo_module_param **ret);
void halo_module_params_free(struct halo_module_param *v, size_t n);
