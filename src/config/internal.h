/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h: private to src/config. The schema walk (parse-*.c) reads the
 * libconfig tree only through these accessors, so load.c stays the one file
 * that includes <libconfig.h>.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "config/halo-config.h"

/* A setting of the parsed file; really a config_setting_t. */
struct halo_cset;

enum halo_cset_kind {
	HALO_CSET_GROUP,
	HALO_CSET_ARRAY,
	HALO_CSET_LIST,
	HALO_CSET_INT,
	HALO_CSET_FLOAT,
	HALO_CSET_STRING,
	HALO_CSET_BOOL,
};

enum halo_cset_kind halo_cset_kind(const struct halo_cset *s);
const char *halo_cset_name(const struct halo_cset *s); /* NULL for elements */
int halo_cset_line(const struct halo_cset *s); /* nearest known line */
size_t halo_cset_len(const struct halo_cset *s);
const struct halo_cset *halo_cset_elem(const struct halo_cset *s, size_t i);
const struct halo_cset *halo_cset_member(const struct halo_cset *s, const char *name);
int64_t halo_cset_int(const struct halo_cset *s);
const char *halo_cset_string(const struct halo_cset *s);
bool halo_cset_bool(const struct halo_cset *s);

/* Parse state shared by the schema walk. */
struct halo_pctx {
	const char *file;
	struct halo_errors *errs;
	const int *bad_int_lines; /* lines whose integer literal overflowed */
	size_t n_bad_int_lines;
	bool oom;
	/* config_data (Ansible): strings stand for integers and booleans
	 * ("9000", "yes"), and LINE N of the generated text is the JSON
	 * path LINE_PATHS[N - 1], which messages show instead. */
	bool loose;
	char *const *line_paths;
	size_t n_line_paths;
};

void halo_perr(struct halo_pctx *p, int line, const char *fmt, ...) _printf_(3, 4);
/* Quote S for a one-line message (escapes, truncation). */
const char *halo_pquote(const char *s, char *buf, size_t len);
/* Closest of CANDIDATES within a small edit distance, or NULL. */
const char *halo_suggest(const char *word, const char *const *candidates);

/* Typed getters. Return 1 when KEY is present and valid (*ret set), 0 when
 * absent, -1 after reporting an error. PATH is the group's key path ("" at
 * the top). */
int halo_pget_int(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		  const char *key, int64_t min, int64_t max, int64_t *ret, int *ret_line);
int halo_pget_bool(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		   const char *key, bool *ret);
int halo_pget_string(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		     const char *key, char **ret, int *ret_line);
int halo_pget_keyword(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		      const char *key, const char *const *table, int *ret);
/* A group (1), absent (0), wrong type (-1, reported); also reports unknown
 * keys inside it against KEYS. */
int halo_pget_group(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		    const char *key, const char *const *keys, const struct halo_cset **ret);
/* An array or list; elements are checked by the caller. */
int halo_pget_seq(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		  const char *key, const struct halo_cset **ret);
void halo_pcheck_keys(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		      const char *const *keys);
/* The kind S is taken as: with p->loose, a string that is an integer
 * ("9000") is HALO_CSET_INT (for keys that take a keyword or a number). */
enum halo_cset_kind halo_pkind(const struct halo_pctx *p, const struct halo_cset *s);
bool halo_pwant(struct halo_pctx *p, const struct halo_cset *s, const char *path,
		enum halo_cset_kind kind);
/* "PATH.KEY" or "KEY" at the top; "PATH[I]" for I >= 0 and KEY NULL. */
const char *halo_pkey(char *buf, size_t len, const char *path, const char *key, long idx);
const char *halo_cset_kind_name(enum halo_cset_kind k);

/* A string list whose elements each pass CHECK (NULL message: ok). Reports
 * duplicates (after NORMALIZE, if given). */
typedef const char *(*halo_str_check_fn)(const char *s);
int halo_pget_strlist(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		      const char *key, halo_str_check_fn check,
		      void (*normalize)(char *s), struct halo_strlist *ret);
/* The sequence KEY and a zeroed table for its elements (one spare slot);
 * NULL when absent, of the wrong type (reported) or out of memory (p->oom).
 * *RET_N: the number of elements. */
void *halo_pget_table(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		      const char *key, size_t elem_size, const struct halo_cset **ret_seq,
		      size_t *ret_n);
/* A string checked by CHECK (reported and *RET left NULL when bad);
 * REQUIRED: absence is reported at GROUP_LINE. */
void halo_pget_checked(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		       const char *key, halo_str_check_fn check, bool required,
		       int group_line, char **ret, int *ret_line);
/* A list of integers MIN..MAX without duplicates. */
int halo_pget_intlist(struct halo_pctx *p, const struct halo_cset *g, const char *path,
		      const char *key, int64_t min, int64_t max, int64_t **ret,
		      size_t *ret_n, int *ret_line);

/* Value syntax checks: NULL when S is fine, else why not (static text). */
const char *halo_check_module_name(const char *s);
const char *halo_check_ifname(const char *s);
const char *halo_check_kernel_param(const char *s);
const char *halo_check_group_name(const char *s);
const char *halo_check_abs_path(const char *s); /* absolute and normalized */
/* paths.c: a file halo-provision writes (not under /proc, /sys, /dev, not
 * its own lock, flag or managed files); a mount point. */
const char *halo_check_output_path(const char *s);
const char *halo_check_mount_point(const char *s);
const char *halo_check_mac(const char *s);   /* "aa:bb:cc:dd:ee:ff" any case */
const char *halo_check_pci(const char *s);   /* "dddd:bb:dd.f" any case */
const char *halo_check_word(const char *s);  /* non-empty, no space/quote/ctl */

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

/* Text prescan (lex.c): @include lines and integer literals libconfig 1.5
 * would silently wrap. Adds errors; fills *ret_bad_lines (caller frees).
 * Returns the number of @include lines (the file must then not be parsed). */
/* The setting name assigned on LINE of TEXT into BUF; returns how many
 * names that line assigns (a message can only name it when exactly 1). */
int halo_config_line_setting(const char *text, int line, char *buf, size_t len);
size_t halo_config_prescan(struct halo_pctx *p, const char *text, size_t len,
			   int **ret_bad_lines, size_t *ret_n);

/* loose.c: Ansible's loose values. An integer in decimal ("-12", "9000"),
 * true with *RET set; a boolean "true", "yes", "false", "no" (any case):
 * 1 or 0, else -1. */
bool halo_loose_int(const char *s, int64_t *ret);
int halo_loose_bool(const char *s);
/* "NAME:LINE: msg" with LINE a line of generated text: "NAME: PATH: msg"
 * (or "NAME: msg" when msg already starts with PATH), and "line N" in msg
 * the path of line N. NULL on ENOMEM. */
char *halo_config_paths_rewrite(char *const *paths, size_t n, const char *name,
				const char *msg);

/* load.c: the text of a config named NAME (LEN bytes) → *RET; with
 * LOOSE and LINE_PATHS as in struct halo_pctx (the table moves into the
 * config on success, and is freed by the caller otherwise). */
int halo_config_load_text(const char *name, const char *text, size_t len, bool loose,
			  char ***line_paths, size_t n_line_paths,
			  struct halo_config **ret, struct halo_errors *errs);
