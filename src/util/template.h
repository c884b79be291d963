/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * template.h: the files halo-provision owns are rendered from templates/
 * (embedded at build time). A template is text with @NAME@ placeholders;
 * "@@" is a literal "@".
 */
#pragma once

struct halo_template {
	const char *name;
	const char *text;
};

/* Generated from templates/ (templates.c), NULL-terminated. */
extern const struct halo_template halo_templates[];

/*
 * Renders template NAME with VARS, a NULL-terminated list of name, value
 * pairs ({ "ARGS", "iommu=pt", NULL }). -ENOENT for an unknown template,
 * -EINVAL for a placeholder VARS does not give (or a lone "@"), -ENOMEM.
 */
int halo_template_render(const char *name, const char *const *vars, char **ret);
