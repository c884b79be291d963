/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sections.h: the schema walk (parse.c and parse-*.c), the checks across
 * fields (validate.c, paths.c) and the keyword tables (keywords.c).
 */
#pragma once

#include "config/cset.h"
#include "config/halo-config.h"
#include "config/report.h"

/* keywords.c: keyword tables indexed by their enum, NULL-terminated. The
 * ones of enums with an UNSET value start with "" at index 0: parse with
 * TABLE + 1, then add 1. */
extern const char *const halo_loader_keywords[];
extern const char *const halo_gtt_params_keywords[];
extern const char *const halo_iommu_keywords[];
extern const char *const halo_pcie_aspm_keywords[];
extern const char *const halo_dcbx_keywords[];
extern const char *const halo_trust_keywords[];

/* Sections (parse-*.c). */
void halo_parse_boot(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c);
void halo_parse_modules(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c);
void halo_parse_interfaces(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c);
void halo_parse_firewall(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c);
void halo_parse_access(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c);
void halo_parse_sysctl(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c);
void halo_parse_storage(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c);
void halo_parse_state(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c);
void halo_parse_ready(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c);
/* The whole tree: top-level keys, every section, then validate. */
void halo_parse_root(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c);
/* Cross-field checks (validate.c). */
void halo_config_validate(struct halo_pctx *p, const struct halo_config *c);
/* The outputs against each other and the config file (paths.c). */
void halo_validate_outputs(struct halo_pctx *p, const struct halo_config *c);
/* The outputs against every file a run owns or records (owned-paths.c);
 * returns the outputs it reported (bit 0 state.path, 1 state.prometheus,
 * 2 state.env_file): one message per output is enough to act on. */
unsigned halo_validate_owned_outputs(struct halo_pctx *p, const struct halo_config *c);
