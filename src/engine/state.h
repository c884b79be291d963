/* SPDX-License-Identifier: GPL-2.0-or-later */
/* state.h: the verification state file and the Prometheus textfile. */
#pragma once

#include <stdbool.h>
#include <time.h>

#include "config/halo-config.h"
#include "engine/plan.h"
#include "halo.h"

#define HALO_STATE_DEFAULT_PATH "/var/lib/halo-provision/state.json"

/* The state file of CFG (NULL: the default one), a path inside the root. */
const char *halo_state_path(const struct halo_config *cfg);
/* The state file as lines about it name it: what it is and the key
 * that sets its path. */
#define HALO_STATE_WHAT "the state file (state.path)"

/* Writes the state JSON (items with wanted/observed/outcome, config digest,
 * tool version, reboot flag, and the `node` facts --cluster compares:
 * src/cluster/cluster.h) at cfg->state.path under the root, only when
 * its content changes: a run that changes nothing leaves it byte-identical
 * (so it carries no timestamp, and records the host's state, not this run's
 * history: "changed" items are "ok", the exit bits lack +2). cfg->state.path
 * NULL: HALO_STATE_DEFAULT_PATH. With --only, the items of the other
 * subsystems are kept from the previous file (the file describes the whole
 * host). Returns 0/1 like halo_write_file_atomic. */
int halo_state_write(struct halo_ctx *ctx, const struct halo_config *cfg,
		     const struct halo_plan *plan, int exit_bits);

/* --status: the text of the state file of CFG (NULL: the default one)
 * into *RET_TEXT (LEN bytes; caller frees), and when RET_MTIME is not
 * NULL the time it was last written (0 when unknown). -errno with a line
 * in ERRS (none yet: "no apply has run on this host yet, or a revert removed it"). */
int halo_state_read_text(struct halo_ctx *ctx, const struct halo_config *cfg,
			 char **ret_text, size_t *ret_len, time_t *ret_mtime,
			 struct halo_errors *errs);

/* --status --json: the text of the state file, as halo_state_read_text
 * reads it, when it is one JSON document (ours or not, printed as it is);
 * -EBADMSG with a line in ERRS when it is not (cut short, damaged, two
 * documents, a NUL), so that stdout never carries broken JSON. */
int halo_state_read_json(struct halo_ctx *ctx, const struct halo_config *cfg,
			 char **ret_text, size_t *ret_len, struct halo_errors *errs);

/* What --status says of a state file without --json. The file records
 * the host after the last apply, rewritten only when that changes, so
 * its mtime is when the recorded state last changed. */
struct halo_state_summary {
	char *path;            /* as shown (inside the root) */
	time_t mtime;
	char *version;         /* the tool's, NULL if absent */
	char *kernel_release;
	char *config_path, *config_digest;
	char *reverted;        /* "files, boot": written by a partial revert */
	bool failed, reboot_required;
	int exit_bits;
	size_t n_items;
	size_t counts[HALO_N_OUTCOMES];
	size_t n_unknown;      /* items with an outcome this version lacks */
	char **listed;         /* "OUTCOME KEY" of every item not ok (with -v:
				* of every item) */
};

/* --status: reads and summarizes the state file of CFG (NULL: the default
 * one). A file that is not one of ours (not JSON, another schema) is
 * -EBADMSG. -errno with a line in ERRS. */
int halo_state_summarize(struct halo_ctx *ctx, const struct halo_config *cfg,
			 struct halo_state_summary *ret, struct halo_errors *errs);
void halo_state_summary_free(struct halo_state_summary *s);

/* Whether TEXT (LEN bytes) is a state file this tool wrote: a JSON
 * object whose "tool" is "halo-provision" (every version wrote it). What
 * --revert removes at the state file's path is decided by this: anything
 * else there (another program's file, one cut short) is not ours. */
bool halo_state_is_ours(const char *text, size_t len);

/* Calls FN for every item (key, subsystem, the path of a file item or
 * NULL) of the last state file
 * (cfg->state.path under the root), as --revert's record of the owned
 * files the last apply had. No file, an unreadable or foreign one:
 * nothing. FN's negative result stops the walk and is returned. */
int halo_state_recorded_items(struct halo_ctx *ctx, const struct halo_config *cfg,
			      int (*fn)(void *userdata, const char *key,
					enum halo_subsys subsys, const char *path),
			      void *userdata);

/* The ownership records (owned.h) of the last state file (cfg->state.path
 * under the root) into *RET, once per run before planning. No file, an
 * unreadable or foreign one, items without an "owned" member: no records
 * (this tool then owns nothing, the safe side). 0; 1 when a file is there
 * that is not a state file of this schema (unparsable, foreign, cut
 * short): its records, if any, are unknown to the run; or -ENOMEM. */
int halo_state_records_read(struct halo_ctx *ctx, const struct halo_config *cfg,
			    struct halo_records *ret);

/* The records of the state file TEXT as the parsed document has them
 * (halo_state_records_read's reading of any text state-scan.h leaves to
 * the parser). 0 or -ENOMEM. */
int halo_state_records_parse(const char *text, struct halo_records *ret);

/* The node_exporter textfile for PLAN at Unix time NOW (caller frees). */
char *halo_prometheus_render(const struct halo_ctx *ctx,
			     const struct halo_plan *plan, int exit_bits,
			     double now);

/* Whether TEXT (LEN bytes) is a textfile this tool wrote: at least one
 * line, and every line one of the series halo_prometheus_render writes or
 * their "# HELP" and "# TYPE" lines. Else false, with the first foreign
 * metric name (or line) in FOREIGN (SIZE bytes, cut to fit; "" for a file
 * with no line). What --revert removes at the textfile's path is decided
 * by this: a series someone else added to it keeps the file. */
bool halo_prometheus_is_ours(const char *text, size_t len, char *foreign, size_t size);

/* node_exporter textfile at cfg->state.prometheus under the root (nothing
 * when unset or "", nothing when EXIT_BITS is HALO_EXIT_USAGE: a run that
 * ends with exit 1 leaves the previous file), written atomically. It
 * carries the run time, so every other run rewrites it; that write is not
 * counted in ctx->files_written. Returns 0/1 like halo_write_file_atomic. */
int halo_prometheus_write(struct halo_ctx *ctx, const struct halo_config *cfg,
			  const struct halo_plan *plan, int exit_bits);

/* Debian's /run/reboot-required (and .pkgs naming halo-provision) under the
 * root, each left alone when already so. 0 if nothing written, 1 if written,
 * -errno. */
int halo_reboot_required_write(struct halo_ctx *ctx);
