/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bootint.h: what the boot subsystem's files share (private).
 *
 * Every backend has the same shape: read the current content of the files
 * it owns or edits, build their wanted content from it and the wanted
 * edit (struct boot_want), and hand both to boot.c, which validates and
 * adds them as file items (struct boot_edit). The three observed levels
 * (configured, generated, active) are re-read by the items' observe ops
 * through the backend's read functions.
 */
#pragma once

#include <stdint.h>
#include <sys/types.h>

#include "boot/grubfile.h"
#include "boot/record.h"
#include "config/halo-config.h"
#include "engine/plan.h"
#include "halo.h"
#include "util/errors.h"

#define BOOT_DROPIN_PATH "/etc/default/grub.d/zz-halo-provision.cfg"
#define BOOT_DROPIN_NAME "zz-halo-provision.cfg"
#define BOOT_DEFAULT_GRUB "/etc/default/grub"
#define BOOT_GRUB_D "/etc/default/grub.d"
#define BOOT_KERNEL_CMDLINE "/etc/kernel/cmdline"
#define BOOT_BLS_ENTRIES "/boot/loader/entries"
#define BOOT_VAR_LINUX "GRUB_CMDLINE_LINUX"
#define BOOT_VAR_DEFAULT "GRUB_CMDLINE_LINUX_DEFAULT"

/* The wanted edit of the command line. */
struct boot_want {
	char **set;    /* wanted tokens, NULL-terminated */
	char **remove; /* removal specs ("key" or "key=value") */
};

/* One file a backend wants written. */
struct boot_edit {
	char *path;     /* inside the root */
	char *old;      /* current content, NULL: absent */
	char *content;  /* wanted content, NULL: must not exist */
	mode_t mode;
	char **result;  /* the command line tokens this file gives */
	char *note;     /* NULL, or said on the file's item */
};

struct boot_edits {
	struct boot_edit *v;
	size_t n;
	/* The last record, plus what these edits change (for --revert). */
	struct boot_record rec;
};

struct boot_run;

struct boot_levels;

struct boot_backend {
	enum halo_boot_loader loader;
	/* Adds the edits for RUN's wanted edit; problems with the host's
	 * files go to ERRS (FILE:LINE: message). 0 or -errno. */
	int (*plan)(struct halo_ctx *ctx, struct boot_run *run,
		    struct boot_edits *edits, struct halo_errors *errs);
	/* The configured command line (what the next boot entry will get).
	 * *ret_msg (optional) says why it cannot be read. 0 or -errno.
	 * LV (optional): the levels being read, where a backend may keep
	 * what its plan needs of the same files. */
	int (*configured)(struct halo_ctx *ctx, struct boot_levels *lv,
			  char ***ret_tokens, char **ret_msg);
	/* The generated level; -ENOENT when there is none to look at. Sets
	 * *ret_where to the file read, or on another error (when it can) to
	 * the file that could not be read. */
	int (*generated)(struct halo_ctx *ctx, char ***ret_tokens,
			 char **ret_where);
	/* The regeneration command for WANT (NULL-terminated argv), or
	 * *ret_argv NULL when the backend has none. */
	int (*regen_argv)(struct halo_ctx *ctx, const struct boot_want *want,
			  char ***ret_argv);
};

/*
 * The three command-line levels, read once and shared by every boot item
 * and the planner. Valid while this process has written no file and run
 * no program since (ctx->files_written + ctx->spawned): an apply of the
 * boot files or a regeneration makes the next observation read again.
 */
struct boot_levels {
	bool valid;
	unsigned long stamp;
	int conf_err;       /* 0 or -errno; conf_msg may say why */
	char *conf_msg;
	char **conf;
	int gen_err;        /* -ENOENT/-ENOTDIR: no generated level here */
	char **gen;
	char *gen_where;
	int act_err;        /* -ENOENT: no /proc/cmdline */
	char **act;
	/* grub-dropin, conf_err 0: GRUB_CMDLINE_LINUX and _DEFAULT as the
	 * files before the drop-in leave them (its plan's starting point). */
	char *dropin_before[2];
};

/* One run of the boot subsystem; shared by its items (refcounted). */
struct boot_run {
	unsigned refs;
	struct boot_levels levels;
	const struct boot_backend *backend;
	struct boot_want want;
	uint64_t gtt_mib;      /* 0: GTT not managed */
	char *gtt_key;         /* "ttm.pages_limit" or "amdttm.pages_limit" */
	char *gtt_conflict;    /* a modprobe.d setting that disagrees */
	bool regenerate;
};

/* The levels of RUN, read now if this process changed anything since
 * (see struct boot_levels). -ENOMEM only; read errors are in the struct. */
int boot_levels_get(struct halo_ctx *ctx, struct boot_run *run,
		    const struct boot_levels **ret);
/* RUN's levels if they were read and are still valid, else NULL: never
 * reads. */
const struct boot_levels *boot_levels_peek(const struct halo_ctx *ctx,
					   const struct boot_run *run);
void boot_levels_free(struct boot_levels *lv);

extern const struct boot_backend halo_boot_backend_grub;
extern const struct boot_backend halo_boot_backend_dropin;
extern const struct boot_backend halo_boot_backend_bls;
extern const struct boot_backend halo_boot_backend_kcmdline;

/* --- edits.c: the shared file plumbing --- */

/* Reads PATH for editing: *ret_text NULL when absent, *ret_mode its mode
 * (DEFAULT_MODE when absent). A symlink, a non-regular file or a read
 * error goes to ERRS and returns -EINVAL. */
int boot_read_target(struct halo_ctx *ctx, const char *path,
		     mode_t default_mode, char **ret_text, mode_t *ret_mode,
		     struct halo_errors *errs);

/* Appends an edit (takes PATH copy, OLD, CONTENT and RESULT). */
int boot_edits_add(struct boot_edits *edits, const char *path, char *old,
		   char *content, mode_t mode, char **result);
void boot_edits_free(struct boot_edits *edits);

/* "FILE:LINE: " prefix of a host file, for ERRS. Caller frees. */
char *boot_where(struct halo_ctx *ctx, const char *path, unsigned line);

/* --- levels.c: what the host has --- */

/* /proc/cmdline under the root; -ENOENT when absent. */
int boot_read_active(struct halo_ctx *ctx, char ***ret_tokens);
/* The first `linux` line of /boot/grub/grub.cfg or /boot/grub2/grub.cfg.
 * Both readers set *ret_where to the file that failed on an error other
 * than -ENOENT/-ENOMEM (the caller frees it). */
int boot_read_grub_cfg(struct halo_ctx *ctx, char ***ret_tokens,
		       char **ret_where);
/* The options line of the default kernel's BLS entry (the entry whose
 * version is ctx->kernel_release, else the last one in name order). */
int boot_read_bls_default(struct halo_ctx *ctx, char ***ret_tokens,
			  char **ret_where);

/* --- grubeval.c: /etc/default/grub and grub.d as grub-mkconfig sees them --- */

/* Decoded (marked) values of GRUB_CMDLINE_LINUX and _DEFAULT after
 * sourcing /etc/default/grub (if WITH_MAIN) and the grub.d *.cfg files
 * that sort before STOP_BEFORE (NULL: all). Errors: ERRS if given, else
 * *ret_msg. */
int boot_grub_eval(struct halo_ctx *ctx, bool with_main,
		   const char *stop_before, char **ret_linux,
		   char **ret_default, struct halo_errors *errs,
		   char **ret_msg);
/* The same evaluation of every file (WITH_MAIN, no STOP_BEFORE, errors in
 * *ret_msg), which also gives in RET_MARK the two values as they stand
 * before the grub.d file MARK: what boot_grub_eval with STOP_BEFORE MARK
 * answers, without a second evaluation. */
int boot_grub_eval_marked(struct halo_ctx *ctx, const char *mark,
			  char **ret_linux, char **ret_default,
			  char *ret_mark[2], char **ret_msg);

/*
 * Splits the wanted edit over the two variables: L and D are the tokens of
 * GRUB_CMDLINE_LINUX and _DEFAULT. A wanted key already in L is replaced
 * there, one in D there; keys present in neither are appended to L
 * (TO_LINUX) or D. Removals apply to both; a key placed in one variable
 * is taken out of the other.
 */
int boot_grub_split_merge(char *const *l, char *const *d,
			  const struct boot_want *want, bool to_linux,
			  char ***ret_l, char ***ret_d);

/* L ++ D, for the result/configured command line. */
int boot_concat(char *const *l, char *const *d, char ***ret);

/* --- the planners, run in this order by boot.c (one file each) --- */

/* plan-gtt-size.c: the GTT size in MiB (0: not managed), checked against
 * /proc/meminfo; problems go to ERRS, a warning above the ROCm ceiling. */
int boot_plan_gtt_size(struct halo_ctx *ctx, const struct halo_config *cfg,
		       struct halo_plan *plan, struct halo_errors *errs,
		       uint64_t *ret_mib);
/* plan-want.c: run->want (and run->gtt_key) from CFG. */
int boot_plan_want(struct halo_ctx *ctx, const struct halo_config *cfg,
		   struct boot_run *run, struct halo_errors *errs);
/* plan-gtt-conflicts.c: other GTT sizes on the command line go. */
int boot_plan_gtt_conflicts(struct halo_ctx *ctx, struct boot_run *run);
/* plan-pci.c: the wanted pci= token keeps the host's other pci= options. */
int boot_plan_pci(struct halo_ctx *ctx, const struct halo_boot_config *b,
		  struct boot_run *run);
/* plan-gtt-modprobe.c: run->gtt_conflict from modprobe.d. */
int boot_plan_gtt_modprobe(struct halo_ctx *ctx, struct boot_run *run);
/* check-rootdev.c: root= tags of changed files must resolve (ERRS). */
void boot_check_root_devices(struct halo_ctx *ctx, const struct boot_edits *edits,
			     struct halo_errors *errs);
/* check-length.c: every changed command line, and the regenerated default
 * entry, must fit COMMAND_LINE_SIZE (one error at most in ERRS). */
int boot_check_lengths(struct halo_ctx *ctx, struct boot_run *run,
		       const struct boot_edits *edits, struct halo_errors *errs);

/* --- items.c --- */
int boot_add_items(struct halo_ctx *ctx, struct halo_plan *plan,
		   struct boot_run *run);
void boot_run_unref(struct boot_run *run);

/* --- backend_grub.c, shared with the bls backend --- */

/* Edits GRUB_CMDLINE_LINUX (and removals in _DEFAULT) of /etc/default/grub
 * in place. REQUIRED: a missing file is an error (else no edit).
 * *ret_changed (optional): which variables the edit changes, a mask of
 * BOOT_CHANGES_LINUX and BOOT_CHANGES_DEFAULT. */
#define BOOT_CHANGES_LINUX 1u
#define BOOT_CHANGES_DEFAULT 2u
int boot_grub_edit_default(struct halo_ctx *ctx, const struct boot_want *want,
			   bool required, struct boot_edits *edits,
			   struct halo_errors *errs, unsigned *ret_changed);
int boot_grub_configured(struct halo_ctx *ctx, struct boot_levels *lv,
			 char ***ret_tokens, char **ret_msg);

/* One in-place value edit of a grub file (boot_apply_var_edits). */
struct var_edit {
	const struct halo_grub_assign *a; /* NULL: append a new line */
	const char *name;
	char *encoded;
};
/* Applies N edits of F (a scan of TEXT); *ret_text the new text. */
int boot_apply_var_edits(const char *text, const struct halo_grub_file *f,
			 struct var_edit *e, size_t n, char **ret_text);
/* TOKENS as a shell word, quoted like A's value (NULL: double quotes). */
char *boot_encode_tokens(char *const *tokens, const struct halo_grub_assign *a);

/* --- revert.c: --revert's boot items (record.h) --- */
int boot_revert_plan(struct halo_ctx *ctx, const struct halo_config *cfg,
		     const struct boot_backend *backend, struct halo_plan *plan,
		     struct halo_errors *errs);

/* --- backend_kcmdline.c, shared with the bls backend --- */
int boot_kcmdline_edit(struct halo_ctx *ctx, const struct boot_want *want,
		       struct boot_edits *edits, struct halo_errors *errs);
int boot_kcmdline_configured(struct halo_ctx *ctx, struct boot_levels *lv,
			     char ***ret_tokens, char **ret_msg);

/* --- backend_dropin.c --- */
int boot_dropin_plan(struct halo_ctx *ctx, struct boot_run *run,
		     struct boot_edits *edits, struct halo_errors *errs);

/* A NULL-terminated copy of ARGS. */
int boot_strv_from(char ***ret, const char *const *args);
